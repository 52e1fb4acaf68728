#pragma once
/// \file prices.hpp
/// tooluse::llm::price_catalog, what models cost per million tokens, read from a JSON data file
/// (data/prices.json, installed as share/tooluse/prices.json and also built in):
///   {"models": {"gpt-4.1": {"input": 2.0, "cached_input": 0.5, "output": 8.0}, ...}}
/// with an optional "cache_write" rate (Anthropic prompt-cache writes).

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "tooluse/llm/provider.hpp"

namespace tooluse::llm {

/// price_catalog maps model names to prices. Not thread-safe for writing; const use is.
class price_catalog {
 public:
  /// builtin returns the catalog shipped with tooluse (compiled in from data/prices.json).
  static const price_catalog& builtin();

  /// parse reads a catalog document. Errors: errc::parse_error naming the bad entry.
  static result<price_catalog> parse(std::string_view text, const std::string& where = "prices");
  /// load reads a catalog file. Errors: errc::io_error, errc::parse_error.
  static result<price_catalog> load(const std::string& path);

  /// merge adds the models of `other`, replacing entries of the same name.
  void merge(const price_catalog& other);

  /// find returns the price of `model`: exact name, else the longest catalogued prefix that
  /// ends at a '-' or '@' (gpt-4.1-mini-2025-04-14 -> gpt-4.1-mini), after dropping a
  /// provider prefix ("openai/", "models/", ...). nullopt when not catalogued.
  std::optional<price> find(std::string_view model) const;

  std::size_t size() const { return models_.size(); }

 private:
  std::map<std::string, price, std::less<>> models_;
};

/// builtin_prices_json is the text of the shipped catalog.
std::string_view builtin_prices_json() noexcept;

}  // namespace tooluse::llm
