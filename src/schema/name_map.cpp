#include "tooluse/schema/name_map.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace tooluse::schema {
namespace {

bool allowed_char(char c, const name_rule& rule) {
  bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  return alnum || rule.extra_chars.find(c) != std::string_view::npos;
}

std::string hash_suffix(std::string_view original, int salt) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a 64
  for (unsigned char c : original) h = (h ^ c) * 1099511628211ull;
  for (int i = 0; i < salt; ++i) h = (h ^ 0x9e) * 1099511628211ull;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(h ^ (h >> 32)));
  return buf;
}

// The separator before a hash suffix: `_` if the rule allows it, else the first allowed extra
// character, else nothing (a rule of letters and digits only).
std::string separator(const name_rule& rule) {
  if (rule.extra_chars.find('_') != std::string_view::npos) return "_";
  if (!rule.extra_chars.empty()) return std::string(1, rule.extra_chars.front());
  return "";
}

std::string sanitize(std::string_view original, const name_rule& rule) {
  std::string out;
  std::string sep = separator(rule);
  for (char c : original) {
    if (allowed_char(c, rule)) out += c;
    else out += sep.empty() ? "x" : sep;
  }
  return out.empty() ? "tool" : out;
}

std::string with_suffix(std::string base, std::string_view original, const name_rule& rule,
                        int salt) {
  std::string suffix = separator(rule) + hash_suffix(original, salt);
  std::size_t keep = rule.max_length > suffix.size() ? rule.max_length - suffix.size() : 0;
  if (base.size() > keep) base.resize(keep);
  return base + suffix;
}

}  // namespace

bool matches_name_rule(std::string_view name, const name_rule& rule) noexcept {
  if (name.empty() || name.size() > rule.max_length) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return allowed_char(c, rule); });
}

name_map name_map::build(const std::vector<std::string>& names, name_rule rule) {
  name_map m(rule);
  // Names already acceptable go first so they keep their spelling; the others follow in sorted
  // order, which makes collision suffixes independent of the caller's order.
  std::vector<std::string> rest;
  for (const auto& n : names) {
    if (matches_name_rule(n, rule)) m.add(n);
    else rest.push_back(n);
  }
  std::sort(rest.begin(), rest.end());
  for (const auto& n : rest) m.add(n);
  return m;
}

std::string name_map::add(std::string_view original) {
  if (auto it = to_provider_.find(original); it != to_provider_.end()) return it->second;
  std::string candidate;
  if (matches_name_rule(original, rule_) && !to_original_.contains(original)) {
    candidate = std::string(original);
  } else {
    std::string base = sanitize(original, rule_);
    candidate = base.size() <= rule_.max_length ? base : with_suffix(base, original, rule_, 0);
    for (int salt = 0; to_original_.contains(candidate); ++salt)
      candidate = with_suffix(base, original, rule_, salt);
  }
  to_provider_.emplace(std::string(original), candidate);
  to_original_.emplace(candidate, std::string(original));
  return candidate;
}

std::optional<std::string> name_map::provider_name(std::string_view original) const {
  auto it = to_provider_.find(original);
  if (it == to_provider_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> name_map::original_name(std::string_view provider) const {
  auto it = to_original_.find(provider);
  if (it == to_original_.end()) return std::nullopt;
  return it->second;
}

bool name_map::renamed() const noexcept {
  return std::any_of(to_provider_.begin(), to_provider_.end(),
                     [](const auto& kv) { return kv.first != kv.second; });
}

}  // namespace tooluse::schema
