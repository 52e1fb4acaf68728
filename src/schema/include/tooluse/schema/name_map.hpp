#pragma once
/// \file name_map.hpp
/// tooluse::schema::name_map, a reversible mapping between tool names and the names a provider
/// accepts (OpenAI and Anthropic allow only ^[a-zA-Z0-9_-]{1,64}$, so `math.factorial` must be
/// sent as `math_factorial` and mapped back when the model calls it). design/schema-translation.md.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tooluse::schema {

/// name_rule is what a provider accepts as a tool name: ASCII letters and digits, the characters
/// in `extra_chars`, between 1 and `max_length` characters.
struct name_rule {
  std::string_view extra_chars = "_-";
  std::size_t max_length = 64;
};

/// openai_name_rule: OpenAI Chat and Responses, ^[a-zA-Z0-9_-]{1,64}$.
inline constexpr name_rule openai_name_rule{"_-", 64};
/// anthropic_name_rule: Anthropic Messages, ^[a-zA-Z0-9_-]{1,64}$.
inline constexpr name_rule anthropic_name_rule{"_-", 64};
/// gemini_name_rule: Gemini function declarations, letters, digits, `_`, `.`, `-`, at most 64.
inline constexpr name_rule gemini_name_rule{"_.-", 64};
/// mcp_name_rule: MCP 2025-11-25 (SEP-986), ^[A-Za-z0-9_.-]{1,128}$.
inline constexpr name_rule mcp_name_rule{"_.-", 128};

/// matches_name_rule tells whether `name` is acceptable under `rule` as it is.
bool matches_name_rule(std::string_view name, const name_rule& rule) noexcept;

/// name_map maps tool names to provider names and back. A name the rule accepts maps to itself.
/// Others are sanitized (each forbidden character becomes `_`); a sanitized name that is too long
/// or that collides with another name gets `_` plus 8 hex digits of a hash of the original name
/// (FNV-1a), so the result depends only on the set of names, not on luck.
///
/// Use build() with every tool of a request: names the rule accepts are placed first, so they
/// keep their own spelling whatever the order. add() extends a map one name at a time.
/// A name_map is a value; const member functions are safe to call from many threads.
///
/// Example:
///   auto names = name_map::build({"math.factorial", "search"}, openai_name_rule);
///   names.provider_name("math.factorial");   // "math_factorial"
///   names.original_name("math_factorial");   // "math.factorial"
class name_map {
 public:
  /// name_map makes an empty map for `rule`.
  explicit name_map(name_rule rule = openai_name_rule) : rule_(rule) {}

  /// build maps every name in `names` (duplicates are mapped once).
  static name_map build(const std::vector<std::string>& names, name_rule rule = openai_name_rule);

  /// add maps `original` (if not mapped yet) and returns its provider name.
  std::string add(std::string_view original);

  /// provider_name is the name to send for `original`; nullopt if it was never added.
  std::optional<std::string> provider_name(std::string_view original) const;

  /// original_name is the tool name behind a provider name a model used; nullopt if unknown.
  std::optional<std::string> original_name(std::string_view provider) const;

  /// renamed tells whether any name differs from its provider name.
  bool renamed() const noexcept;

  /// size is the number of names mapped.
  std::size_t size() const noexcept { return to_provider_.size(); }

  /// rule is the provider rule this map enforces.
  const name_rule& rule() const noexcept { return rule_; }

 private:
  name_rule rule_;
  std::map<std::string, std::string, std::less<>> to_provider_;
  std::map<std::string, std::string, std::less<>> to_original_;
};

}  // namespace tooluse::schema
