#pragma once
// The converters' regular expressions (java_convert.cpp, js_convert.cpp), compiled once per
// pattern and shared by both (RE2 objects are thread-safe once built).

#include <re2/re2.h>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tooluse::eval::detail {

inline const RE2& cached(const std::string& pattern) {
  static std::mutex mu;
  static std::unordered_map<std::string, std::unique_ptr<RE2>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[pattern];
  if (!slot) slot = std::make_unique<RE2>(pattern);
  return *slot;
}

inline re2::StringPiece sp(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

}  // namespace tooluse::eval::detail
