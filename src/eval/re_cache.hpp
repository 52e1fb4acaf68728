#pragma once
// The converters' regular expressions (java_convert.cpp, js_convert.cpp), compiled once per
// pattern and shared by both (RE2 objects are thread-safe once built), and the two places where
// they give Python's meaning back: `\s` and `re.match(r"^BODY$")`.

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

// ws rewrites `\s` in pattern `p` to Python's class for str patterns (the str.isspace()
// characters).
inline std::string ws(const std::string& p) {
  static const std::string py_space =
      R"([\t-\r\x1c-\x20\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}])";
  std::string out;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\' && i + 1 < p.size() && p[i + 1] == 's') { out += py_space; ++i; }
    else if (p[i] == '\\' && i + 1 < p.size()) { out += p[i]; out += p[++i]; }
    else out += p[i];
  }
  return out;
}

// match_dollar is re.match(r"^BODY$", s): the whole string, or all but a final "\n" (Python's
// `$`).
inline bool match_dollar(std::string_view s, const std::string& body) {
  const RE2& re = cached(body);
  if (RE2::FullMatch(sp(s), re)) return true;
  return !s.empty() && s.back() == '\n' && RE2::FullMatch(sp(s.substr(0, s.size() - 1)), re);
}

}  // namespace tooluse::eval::detail
