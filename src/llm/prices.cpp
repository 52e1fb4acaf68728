// The price catalog: parsing the JSON data file, merging overrides, finding a model.
#include "tooluse/llm/prices.hpp"

#include <fstream>
#include <sstream>

namespace tooluse::llm {

result<price_catalog> price_catalog::parse(std::string_view text, const std::string& where) {
  auto j = parse_json(text);
  if (!j) return fail(errc::parse_error, where + ": not JSON: " + j.error().message);
  if (!j->is_object() || !j->contains("models") || !(*j)["models"].is_object())
    return fail(errc::parse_error, where +
                                       ": expected {\"models\": {NAME: {\"input\": USD, "
                                       "\"output\": USD, ...}}} (USD per million tokens)");
  price_catalog out;
  for (const auto& item : (*j)["models"].items()) {
    // Named copies, not structured bindings: lambdas may not capture those before C++20 in clang 14.
    const std::string& name = item.key();
    const json& entry = item.value();
    auto rate = [&](const char* key, double& field, bool required) -> status {
      if (!entry.is_object() || (!entry.contains(key) && required) ||
          (entry.contains(key) && (!entry[key].is_number() || entry[key].get<double>() < 0)))
        return fail(errc::parse_error, where + ": model \"" + name + "\": \"" + key +
                                           "\" must be a number >= 0 (USD per million tokens)");
      if (entry.contains(key)) field = entry[key].get<double>();
      return {};
    };
    price p;
    for (auto s : {rate("input", p.input_per_mtok, true), rate("output", p.output_per_mtok, true),
                   rate("cached_input", p.cached_input_per_mtok, false),
                   rate("cache_write", p.cache_write_per_mtok, false)})
      if (!s) return fail(s.error());
    out.models_[name] = p;
  }
  return out;
}

result<price_catalog> price_catalog::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(errc::io_error, "cannot read the price catalog \"" + path + "\"");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), "price catalog \"" + path + "\"");
}

const price_catalog& price_catalog::builtin() {
  static const price_catalog catalog = [] {
    auto c = parse(builtin_prices_json(), "built-in price catalog");
    return c ? std::move(*c) : price_catalog{};
  }();
  return catalog;
}

void price_catalog::merge(const price_catalog& other) {
  for (const auto& [name, p] : other.models_) models_[name] = p;
}

std::optional<price> price_catalog::find(std::string_view model) const {
  if (auto slash = model.rfind('/'); slash != std::string_view::npos)
    model = model.substr(slash + 1);
  if (auto it = models_.find(model); it != models_.end()) return it->second;
  std::optional<price> best;
  std::size_t best_len = 0;
  for (const auto& [name, p] : models_) {
    if (name.size() >= model.size() || name.size() <= best_len) continue;
    if (model.compare(0, name.size(), name) != 0) continue;
    char next = model[name.size()];
    if (next != '-' && next != '@') continue;
    best = p;
    best_len = name.size();
  }
  return best;
}

}  // namespace tooluse::llm
