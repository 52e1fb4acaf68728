// Loads the BFCL corpus for the bfcl_*_test.cpp files (bfcl_corpus.hpp) and checks it loaded.
#include "bfcl_corpus.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <set>
#include <sstream>

#include "support/test_support.hpp"

namespace tooluse::testing::bfcl {
namespace {

namespace fs = std::filesystem;

fs::path bfcl_dir() { return tooluse::testing::data_dir() / "bfcl"; }

std::vector<json> read_jsonl(const fs::path& path) {
  std::vector<json> out;
  std::istringstream in(read_file(path));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

bool is_alternatives(const json& v) {
  if (!v.is_object() || v.empty()) return false;
  for (const auto& [k, alts] : v.items())
    if (!alts.is_array()) return false;
  return true;
}

// A Java/JavaScript ground truth may be source code standing for a typed value: a variable
// name for a HashMap, "ResultSet.TYPE_SCROLL_INSENSITIVE" for an int.
bool is_expression(const json& value, const json& raw_doc, bool source_language) {
  if (!source_language || !value.is_string() || value == "") return false;
  std::string t = raw_doc.is_object() ? raw_doc.value("type", std::string()) : "";
  return !(t.empty() || t == "string" || t == "String" || t == "any" || t == "char");
}

struct expander {
  bool source_language;
  std::size_t* skipped;
  std::size_t* omitted_required;

  std::vector<json> value(const json& v, const json& schema, const json& raw) const;
  std::optional<std::vector<json>> object(const json& alts, const json& schema,
                                          const json& raw) const;
};

std::vector<json> expander::value(const json& v, const json& schema, const json& raw) const {
  if (is_alternatives(v) && !schema.contains("items")) {
    auto objects = object(v, schema, raw);
    return objects ? *objects : std::vector<json>{};
  }
  if (v.is_array() && schema.contains("items")) {
    // A list of dicts holds alternatives per element: base = each element's first form.
    std::vector<std::vector<json>> forms;
    json raw_items = raw.is_object() ? raw.value("items", json()) : json();
    for (const auto& element : v) {
      forms.push_back(value(element, schema["items"], raw_items));
      if (forms.back().empty()) return {};
    }
    json base = json::array();
    for (const auto& f : forms) base.push_back(f[0]);
    std::vector<json> variants;
    for (std::size_t i = 0; i < forms.size(); ++i)
      for (std::size_t j = 1; j < forms[i].size(); ++j) {
        json variant = base;
        variant[i] = forms[i][j];
        variants.push_back(std::move(variant));
      }
    variants.insert(variants.begin(), base);
    return variants;
  }
  return {v};
}

std::optional<std::vector<json>> expander::object(const json& alts, const json& schema,
                                                  const json& raw) const {
  const json props = schema.value("properties", json::object());
  const json raw_props = raw.is_object() ? raw.value("properties", json::object()) : json::object();
  // options[p]: the concrete forms of parameter p; nullopt stands for "omitted" ("").
  std::vector<std::pair<std::string, std::vector<std::optional<json>>>> options;
  std::set<std::string> required;
  for (const auto& r : schema.value("required", json::array())) required.insert(r.get<std::string>());
  for (const auto& [p, list] : alts.items()) {
    std::vector<std::optional<json>> forms;
    json sub = props.value(p, json::object());
    json raw_sub = raw_props.value(p, json::object());
    for (const auto& a : list) {
      if (a == "" && required.contains(p)) {
        ++*omitted_required;  // "omitted" offered for a parameter the doc requires
      } else if (a == "") {
        forms.emplace_back(std::nullopt);
      } else if (is_expression(a, raw_sub, source_language)) {
        ++*skipped;
      } else {
        for (auto& f : value(a, sub, raw_sub)) forms.emplace_back(std::move(f));
      }
    }
    if (forms.empty()) return std::nullopt;  // only expressions: the call cannot be sent as JSON
    options.emplace_back(p, std::move(forms));
  }
  auto build = [&](std::size_t which, std::size_t alt) {
    json out = json::object();
    for (std::size_t i = 0; i < options.size(); ++i) {
      const auto& form = options[i].second[i == which ? alt : 0];
      if (form) out[options[i].first] = *form;
    }
    return out;
  };
  std::vector<json> out{build(options.size(), 0)};
  for (std::size_t i = 0; i < options.size(); ++i)
    for (std::size_t j = 1; j < options[i].second.size(); ++j) out.push_back(build(i, j));
  return out;
}

void load_category(corpus& c, const std::string& category) {
  fs::path doc_file = bfcl_dir() / ("BFCL_v4_" + category + ".json");
  std::map<std::string, std::size_t> entry_index;
  for (const auto& e : read_jsonl(doc_file)) {
    entry en{category, e["id"].get<std::string>(), {}};
    for (const auto& doc : e["function"]) {
      function f{category, en.id, doc, {}, nullptr, ""};
      auto spec = schema::import_tool(doc);
      if (!spec) f.error = spec.error().message;
      else f.spec = std::move(*spec);
      if (spec) {
        auto v = schema::validator::compile(f.spec.input_schema);
        if (v) f.validator = std::make_shared<schema::validator>(std::move(*v));
        else f.error = v.error().message;
      }
      en.functions.push_back(c.functions.size());
      c.functions.push_back(std::move(f));
    }
    entry_index[en.id] = c.entries.size();
    c.entries.push_back(std::move(en));
  }
  fs::path answers = bfcl_dir() / "possible_answer" / ("BFCL_v4_" + category + ".json");
  if (!fs::exists(answers)) return;
  bool source_language = category == "simple_java" || category == "simple_javascript";
  expander ex{source_language, &c.skipped_expressions, &c.skipped_omitted_required};
  for (const auto& a : read_jsonl(answers)) {
    ++c.ground_truth_entries;
    const entry& en = c.entries.at(entry_index.at(a["id"].get<std::string>()));
    for (const auto& call : a["ground_truth"]) {
      for (const auto& [name, alts] : call.items()) {
        std::optional<std::size_t> fn;
        for (auto i : en.functions)
          if (c.functions[i].doc["name"] == name) fn = i;
        if (!fn) {
          ++c.unknown_function_calls;
          continue;
        }
        const function& f = c.functions[*fn];
        auto instances = ex.object(alts, f.spec.input_schema, f.doc["parameters"]);
        if (!instances) continue;
        for (std::size_t i = 0; i < instances->size(); ++i)
          c.calls.push_back({en.id, category, *fn, std::move((*instances)[i]), i == 0});
      }
    }
  }
}

}  // namespace

const corpus& load() {
  static const corpus c = [] {
    corpus out;
    for (const char* category :
         {"simple_python", "simple_java", "simple_javascript", "multiple", "parallel",
          "parallel_multiple", "irrelevance", "live_simple", "live_multiple", "live_parallel",
          "live_parallel_multiple", "live_irrelevance", "live_relevance"})
      load_category(out, category);
    return out;
  }();
  return c;
}

TEST(bfcl_corpus, loads_every_single_turn_category) {
  const corpus& c = load();
  std::set<std::string> categories;
  for (const auto& e : c.entries) categories.insert(e.category);
  EXPECT_EQ(categories.size(), 13u);
  EXPECT_GT(c.functions.size(), 8000u);
  EXPECT_GT(c.ground_truth_entries, 2500u);
  EXPECT_EQ(c.unknown_function_calls, 0u);
}

}  // namespace tooluse::testing::bfcl
