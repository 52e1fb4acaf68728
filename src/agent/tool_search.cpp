// BM25 over tool names, descriptions and parameter names; the search tool the agent offers.
#include "tooluse/agent/tool_search.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_set>
#include <utility>

#include "tooluse/enum_names.hpp"

namespace tooluse {
namespace {

bool is_stop_word(std::string_view w) {
  static const std::unordered_set<std::string_view> words = {
      "a",  "an", "and", "are",  "as",  "at",   "be", "by",   "for", "from", "in", "is",  "it",
      "of", "on", "or",  "that", "the", "this", "to", "with", "me",  "my",   "i",  "you", "can"};
  return words.count(w) > 0;
}

void add_term(std::string word, std::vector<std::string>& out) {
  if (word.empty()) return;
  if (word.size() > 3 && word.back() == 's' && word[word.size() - 2] != 's') word.pop_back();
  if (is_stop_word(word)) return;
  out.push_back(std::move(word));
}

// parameter_names collects property names of an object schema, one level of nesting deep.
void parameter_names(const json& schema, int depth, std::string& out) {
  if (!schema.is_object() || depth > 1) return;
  if (schema.contains("properties") && schema["properties"].is_object()) {
    for (const auto& [name, sub] : schema["properties"].items()) {
      out += ' ';
      out += name;
      parameter_names(sub, depth + 1, out);
      if (sub.is_object() && sub.contains("items")) parameter_names(sub["items"], depth + 1, out);
    }
  }
}

}  // namespace

std::vector<std::string> search_terms(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  char prev = 0;
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c)) {
      // camelCase: a capital after a lowercase letter starts a new word.
      if (std::isupper(c) && std::islower(static_cast<unsigned char>(prev)) && !word.empty())
        add_term(std::exchange(word, {}), out);
      word += static_cast<char>(std::tolower(c));
    } else {
      add_term(std::exchange(word, {}), out);
    }
    prev = ch;
  }
  add_term(std::move(word), out);
  return out;
}

tool_index::tool_index(const std::vector<tool>& tools) {
  std::uint64_t total = 0;
  for (std::uint32_t doc = 0; doc < tools.size(); ++doc) {
    const tool& t = tools[doc];
    names_.push_back(t.name);
    std::string text = t.name + " " + t.name + " " + t.title + " " + t.description;
    parameter_names(t.input_schema, 0, text);
    auto terms = search_terms(text);
    std::unordered_map<std::string, std::uint32_t> tf;
    for (auto& term : terms) ++tf[term];
    for (auto& [term, n] : tf) postings_[term].push_back({doc, n});
    lengths_.push_back(static_cast<std::uint32_t>(terms.size()));
    total += terms.size();
  }
  average_length_ = names_.empty() ? 0 : static_cast<double>(total) / names_.size();
}

std::vector<tool_search_hit> tool_index::search(std::string_view query, std::size_t limit) const {
  constexpr double k1 = 1.2, b = 0.75;
  auto terms = search_terms(query);
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  std::unordered_map<std::uint32_t, double> scores;
  const double n = static_cast<double>(names_.size());
  for (const auto& term : terms) {
    auto it = postings_.find(term);
    if (it == postings_.end()) continue;
    double df = static_cast<double>(it->second.size());
    double idf = std::log(1 + (n - df + 0.5) / (df + 0.5));
    for (const auto& p : it->second) {
      double tf = p.tf;
      double norm =
          k1 * (1 - b + b * lengths_[p.doc] / (average_length_ > 0 ? average_length_ : 1));
      scores[p.doc] += idf * tf * (k1 + 1) / (tf + norm);
    }
  }
  std::vector<std::pair<std::uint32_t, double>> ranked(scores.begin(), scores.end());
  auto better = [](const auto& x, const auto& y) {
    return x.second != y.second ? x.second > y.second : x.first < y.first;
  };
  std::size_t k = std::min(limit, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(k), ranked.end(),
                    better);
  std::vector<tool_search_hit> out;
  for (std::size_t i = 0; i < k; ++i) out.push_back({names_[ranked[i].first], ranked[i].second});
  return out;
}

TOOLUSE_ENUM_NAMES(tool_search_options::mode, (automatic, "auto"), (automatic, ""), (off),
                   (always), (native))

result<tool_search_options::mode> parse_tool_search_mode(std::string_view text) {
  if (auto m = enum_from_name<tool_search_options::mode>(text)) return *m;
  return fail(errc::invalid_argument, "unknown tool search mode \"" + std::string(text) +
                                          "\"; use auto, off, always or native");
}

}  // namespace tooluse
