#pragma once
/// \file tool_search.hpp
/// Tool search for agents with many tools: a BM25 index over tool names, descriptions and
/// parameter names, and the options that make an agent offer a search tool plus a few
/// always-loaded tools instead of every tool, loading the tools a search finds into the next
/// request (deferred loading, as Anthropic's and OpenAI's hosted tool search do).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tooluse/tools/tool.hpp"

namespace tooluse {

/// search_terms splits text into lowercase search terms: words of letters and digits, with
/// snake_case, kebab-case, dotted and camelCase names split into their words; a trailing
/// plural "s" is dropped and very common English words are left out.
std::vector<std::string> search_terms(std::string_view text);

/// tool_search_hit is one ranked tool.
struct tool_search_hit {
  std::string name;
  double score = 0;
};

/// tool_index ranks tools for a query with BM25 (k1 1.2, b 0.75) over each tool's name (counted
/// twice), description and parameter names (top level and one level down). Building is O(total
/// terms); a query touches only the postings of its terms. Immutable once built: safe to query
/// from several threads.
class tool_index {
 public:
  tool_index() = default;
  explicit tool_index(const std::vector<tool>& tools);

  /// search returns up to `limit` tools, best first; ties keep registration order. Tools that
  /// share no term with the query are not returned.
  std::vector<tool_search_hit> search(std::string_view query, std::size_t limit) const;

  std::size_t size() const { return names_.size(); }

 private:
  struct posting {
    std::uint32_t doc;
    std::uint32_t tf;
  };
  std::vector<std::string> names_;
  std::vector<std::uint32_t> lengths_;
  double average_length_ = 0;
  std::unordered_map<std::string, std::vector<posting>> postings_;
};

/// tool_search_options say when and how an agent searches its tools.
struct tool_search_options {
  enum class mode {
    automatic,  ///< search when the registry has more tools than `threshold`
    off,        ///< always send every tool
    always,     ///< always search, whatever the number of tools
    native,     ///< the provider's own tool search where there is one (Anthropic
                ///< defer_loading), else tooluse's; applies above `threshold` too
  };
  mode use = mode::automatic;
  std::size_t threshold = 32;
  /// always_loaded tools are offered on every request (besides the search tool).
  std::vector<std::string> always_loaded;
  std::size_t max_results = 5;  ///< tools loaded per search
  std::string tool_name = "search_tools";
};

/// parse_tool_search_mode reads "auto", "off", "always" or "native".
/// Errors: errc::invalid_argument listing them.
result<tool_search_options::mode> parse_tool_search_mode(std::string_view text);

}  // namespace tooluse
