// BFCL acceptance (issue 3): every function doc converts to a valid 2020-12 schema, every
// ground-truth call validates, mutated calls are rejected with a path.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>

#include "bfcl_corpus.hpp"

namespace tooluse::testing::bfcl {
namespace {

// Ground truths that contradict their own function doc in the BFCL data (checked by hand):
// "entry/parameter" -> why. They must fail, and nothing else may.
const std::map<std::string, std::string>& known_inconsistencies() {
  static const std::map<std::string, std::string> m = {
      {"simple_python_149/company_names", "nested list for a list of strings"},
      {"simple_python_307/venue", "boolean for a string parameter"},
      {"simple_python_358/diet", "value outside the enum"},
      {"multiple_76/material", "value outside the enum"},
      {"parallel_152/mod", "null for a number parameter"},
      {"parallel_multiple_12/permeability", "parameter not in the doc"},
      {"parallel_multiple_21/x", "Python expression for a list"},
      {"parallel_multiple_21/y", "Python expression for a list"},
      {"parallel_multiple_26/type", "parameter not in the doc"},
      {"parallel_multiple_94/elements", "string for an integer parameter"},
      {"parallel_multiple_143/specs", "value outside the enum"},
      {"parallel_multiple_173/time_frame", "value outside the enum"},
      {"parallel_multiple_194/unit", "value outside the enum"},
      {"live_multiple_87-38-4/type", "value outside the enum"},
      {"live_multiple_189-83-0/data", "parameter not in the doc"},
      {"live_multiple_301-131-0/smoking_allowed", "boolean for a string parameter"},
      {"live_multiple_302-131-1/smoking_allowed", "boolean for a string parameter"},
      {"live_multiple_303-131-2/smoking_allowed", "boolean for a string parameter"},
      {"live_multiple_304-131-3/smoking_allowed", "boolean for a string parameter"},
      {"live_multiple_306-131-5/smoking_allowed", "boolean for a string parameter"},
      {"live_multiple_306-131-5/number_of_rooms", "string for an integer parameter"},
      {"live_multiple_307-131-6/smoking_allowed", "boolean for a string parameter"},
      {"live_multiple_308-131-7/smoking_allowed", "boolean for a string parameter"},
      {"live_multiple_552-153-1/is_unisex", "boolean for a string parameter"},
      {"live_multiple_553-153-2/is_unisex", "boolean for a string parameter"},
      {"live_multiple_595-158-1/number_of_rooms", "integer for a string enum"},
      {"live_multiple_596-158-2/number_of_rooms", "integer for a string enum"},
      {"live_multiple_731-167-2/in_unit_laundry", "boolean for a string parameter"},
      {"live_multiple_732-167-3/in_unit_laundry", "boolean for a string parameter"},
      {"live_multiple_733-167-4/in_unit_laundry", "boolean for a string parameter"},
      {"live_multiple_734-167-5/in_unit_laundry", "boolean for a string parameter"},
      {"live_multiple_735-167-6/in_unit_laundry", "boolean for a string parameter"},
      {"live_multiple_736-167-7/in_unit_laundry", "boolean for a string parameter"},
      {"live_multiple_737-167-8/in_unit_laundry", "boolean for a string parameter"},
      {"live_multiple_750-169-5/genre", "value outside the enum"},
      {"live_multiple_755-169-10/genre", "value outside the enum"},
      {"live_multiple_756-169-11/genre", "value outside the enum"},
      {"live_multiple_835-178-10/genre", "value outside the enum"},
      {"live_multiple_862-181-3/journey_start_time", "parameter not in the doc"},
      {"live_multiple_870-182-7/genre", "value outside the enum"},
      {"live_multiple_871-182-8/genre", "value outside the enum"},
      {"live_multiple_947-197-0/duration", "value outside the enum"},
      {"live_multiple_964-207-0/statement", "required parameter missing"},
      {"live_multiple_964-207-0/question", "parameter not in the doc"},
      {"live_parallel_multiple_2-2-0/command", "value outside the enum"},
  };
  return m;
}

std::string key(const call_instance& c, const std::string& param) {
  return c.entry_id + "/" + param;
}

// The parameter an error is about: the first path segment under "arguments", or the property
// a required/additionalProperties error names.
std::string blamed_parameter(const schema::validation_error& e, const json& args) {
  const std::string prefix = "arguments.";
  if (e.path.rfind(prefix, 0) == 0) {
    std::string rest = e.path.substr(prefix.size());
    return rest.substr(0, rest.find_first_of(".["));
  }
  (void)args;
  std::size_t open = e.message.find('"');
  std::size_t close = e.message.find('"', open + 1);
  if (open == std::string::npos || close == std::string::npos) return e.message;
  return e.message.substr(open + 1, close - open - 1);  // `missing required property "port"`
}

TEST(bfcl_convert, every_function_doc_converts_to_a_valid_schema) {
  const corpus& c = load();
  auto meta = schema::validator::compile(
      json{{"$ref", "https://json-schema.org/draft/2020-12/schema"}});
  std::size_t converted = 0, checked_by_metaschema = 0;
  for (const auto& f : c.functions) {
    EXPECT_EQ(f.error, "") << f.entry_id << " " << f.doc["name"];
    if (!f.error.empty()) continue;
    ++converted;
    EXPECT_EQ(schema::detect_tool_format(f.doc), schema::tool_format::bfcl) << f.entry_id;
    if (meta) {
      auto errors = meta->validate(f.spec.input_schema);
      EXPECT_TRUE(errors.empty()) << f.entry_id << ": " << schema::format_errors(errors);
      ++checked_by_metaschema;
    }
  }
  std::cout << "[bfcl] function docs converted and compiled: " << converted << " of "
            << c.functions.size() << "; checked against the 2020-12 metaschema: "
            << checked_by_metaschema << (meta ? "" : " (metaschema not available)") << "\n";
}

TEST(bfcl_ground_truth, every_ground_truth_call_validates) {
  const corpus& c = load();
  std::size_t valid = 0;
  std::set<std::string> failed_keys;
  for (const auto& call : c.calls) {
    const function& f = c.functions[call.function];
    ASSERT_TRUE(f.validator) << f.entry_id;
    auto errors = f.validator->validate(call.arguments);
    if (errors.empty()) {
      ++valid;
      continue;
    }
    for (const auto& e : errors) {
      std::string k = key(call, blamed_parameter(e, call.arguments));
      failed_keys.insert(k);
      EXPECT_TRUE(known_inconsistencies().contains(k))
          << k << ": " << e.path << ": " << e.message << "\n  arguments: "
          << dump_json(call.arguments);
    }
  }
  for (const auto& [k, why] : known_inconsistencies())
    EXPECT_TRUE(failed_keys.contains(k)) << k << " was expected to fail (" << why << ")";
  std::cout << "[bfcl] ground-truth calls checked: " << c.calls.size() << " from "
            << c.ground_truth_entries << " entries; valid: " << valid
            << "; rejected as inconsistent with their doc: " << c.calls.size() - valid
            << " (" << known_inconsistencies().size() << " listed parameters)"
            << "; Java/JS expression values skipped: " << c.skipped_expressions
            << "; \"omitted\" offered for a required parameter, skipped: "
            << c.skipped_omitted_required << "\n";
}

// A value of a JSON type `schema` does not allow, or null if it allows all of them.
json wrong_value(const json& schema) {
  for (json candidate : {json("not-a-number"), json(12345), json(true), json({{"x", 1}})}) {
    std::string t(type_name(candidate));
    bool allowed = schema["type"] == t ||
                   (schema["type"].is_array() &&
                    std::find(schema["type"].begin(), schema["type"].end(), t) !=
                        schema["type"].end()) ||
                   (t == "integer" && (schema["type"] == "number" ||
                                       (schema["type"].is_array() &&
                                        std::find(schema["type"].begin(), schema["type"].end(),
                                                  "number") != schema["type"].end())));
    if (!allowed) return candidate;
  }
  return nullptr;
}

bool has_error_at(const std::vector<schema::validation_error>& errors, const std::string& path,
                  const std::string& mention = "") {
  for (const auto& e : errors)
    if (e.path.rfind(path, 0) == 0 &&
        (mention.empty() || e.message.find("\"" + mention + "\"") != std::string::npos))
      return true;
  return false;
}

struct mutation_counts {
  std::size_t wrong_type = 0, missing_required = 0, enum_violation = 0, unknown_parameter = 0;
  std::size_t total() const {
    return wrong_type + missing_required + enum_violation + unknown_parameter;
  }
};

// Applies each kind of mutation once to `args` and checks the validator rejects it with a path.
void mutate(const function& f, const json& args, mutation_counts& n) {
  const json& props = f.spec.input_schema["properties"];
  const std::string where = f.entry_id + " " + dump_json(args);
  bool typed = false, enumed = false;
  for (const auto& [p, v] : args.items()) {
    const json& s = props[p];
    if (!typed && s.contains("type") && !wrong_value(s).is_null()) {
      json bad = args;
      bad[p] = wrong_value(s);
      EXPECT_TRUE(has_error_at(f.validator->validate(bad), "arguments." + p)) << where;
      typed = true;
      ++n.wrong_type;
    }
    if (!enumed && s.contains("enum") && !s.contains("anyOf")) {
      json bad = args;
      bad[p] = "__not_in_enum__";
      EXPECT_TRUE(has_error_at(f.validator->validate(bad), "arguments." + p)) << where;
      enumed = true;
      ++n.enum_violation;
    }
  }
  for (const auto& r : f.spec.input_schema.value("required", json::array())) {
    if (!args.contains(r.get<std::string>())) continue;
    json bad = args;
    bad.erase(r.get<std::string>());
    EXPECT_TRUE(has_error_at(f.validator->validate(bad), "arguments", r)) << where;
    ++n.missing_required;
    break;
  }
  json bad = args;
  bad["__unknown_parameter__"] = 1;
  EXPECT_TRUE(has_error_at(f.validator->validate(bad), "arguments", "__unknown_parameter__"))
      << where;
  ++n.unknown_parameter;
}

TEST(bfcl_ground_truth, mutated_calls_are_rejected_with_a_path) {
  const corpus& c = load();
  mutation_counts n;
  for (const auto& call : c.calls) {
    const function& f = c.functions[call.function];
    if (!call.is_base || !f.validator->is_valid(call.arguments)) continue;
    mutate(f, call.arguments, n);
  }
  EXPECT_GT(n.wrong_type, 2000u);
  EXPECT_GT(n.enum_violation, 300u);
  std::cout << "[bfcl] mutated calls rejected: " << n.total() << " (wrong type " << n.wrong_type
            << ", missing required " << n.missing_required << ", enum violation "
            << n.enum_violation << ", unknown parameter " << n.unknown_parameter << ")\n";
}

}  // namespace
}  // namespace tooluse::testing::bfcl
