// Compiling: schema mistakes are errc::schema_error with the keyword and its location;
// ECMA-262 patterns translate to RE2; references resolve locally and through a resolver;
// validators are shared between threads.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "schema/compiler.hpp"
#include "tooluse/schema/validator.hpp"

namespace {

using tooluse::errc;
using tooluse::json;
using tooluse::schema::validator;

std::string compile_error(const char* text) {
  auto v = validator::compile(json::parse(text));
  if (v) return "(compiled)";
  EXPECT_EQ(v.error().code, errc::schema_error);
  return v.error().message;
}

TEST(validator_compile, rejects_non_schemas) {
  EXPECT_EQ(compile_error("3"), "a schema must be an object or a boolean, got integer");
  EXPECT_EQ(compile_error(R"({"properties": {"a": 3}})"),
            "keyword \"properties\" at #: \"a\" must be a schema, got integer 3");
}

TEST(validator_compile, rejects_bad_keyword_values_with_location) {
  EXPECT_EQ(compile_error(R"({"properties": {"a": {"minLength": -1}}})"),
            "keyword \"minLength\" at #/properties/a: expected a non-negative integer, got integer -1");
  EXPECT_EQ(compile_error(R"({"type": "text"})"),
            "keyword \"type\" at #: expected one of null, boolean, integer, number, string, array, "
            "object; got \"text\"");
  EXPECT_EQ(compile_error(R"({"required": "a"})"),
            "keyword \"required\" at #: expected an array of strings, got string \"a\"");
  EXPECT_EQ(compile_error(R"({"multipleOf": 0})"),
            "keyword \"multipleOf\" at #: expected a number greater than 0");
}

TEST(validator_compile, rejects_unresolvable_refs) {
  EXPECT_EQ(compile_error(R"({"$ref": "#/$defs/missing"})"),
            "$ref \"#/$defs/missing\" at # does not resolve (looked for "
            "\"tooluse:///schema.json#/$defs/missing\")");
  EXPECT_EQ(compile_error(R"({"$ref": "http://example.com/x.json"})"),
            "$ref \"http://example.com/x.json\" at # does not resolve (looked for "
            "\"http://example.com/x.json\")");
}

TEST(validator_compile, rejects_patterns_re2_cannot_run_in_linear_time) {
  EXPECT_EQ(compile_error(R"({"pattern": "^(?=a)a$"})"),
            "keyword \"pattern\" at #: pattern \"^(?=a)a$\": lookahead and lookbehind are not "
            "supported: RE2 runs in linear time");
  EXPECT_EQ(compile_error(R"({"pattern": "(a)\\1"})"),
            "keyword \"pattern\" at #: pattern \"(a)\\\\1\": backreferences (\\1) are not "
            "supported: RE2 has no backtracking");
  EXPECT_EQ(compile_error(R"({"patternProperties": {"(": true}})"),
            "keyword \"patternProperties\" at #: pattern \"(\": unclosed \"(\"");
}

TEST(validator_compile, translates_ecma_classes) {
  auto v = validator::compile(json::parse(R"({"pattern": "^\\d+\\s\\w.$"})"));
  ASSERT_TRUE(v.has_value());
  EXPECT_TRUE(v->is_valid(json("42\u00a0x!")));   // \s includes NO-BREAK SPACE in ECMA-262
  EXPECT_FALSE(v->is_valid(json("42 x\n")));      // . does not match a line terminator
  EXPECT_FALSE(v->is_valid(json("\u0664\u0662 x!")));  // \d is ASCII only
  auto named = validator::compile(json::parse(R"({"pattern": "^(?<y>\\d{4})-\\u0041$"})"));
  ASSERT_TRUE(named.has_value());
  EXPECT_TRUE(named->is_valid(json("2024-A")));
}

TEST(validator_compile, pathological_pattern_is_linear) {
  auto v = validator::compile(json::parse(R"({"pattern": "^(a+)+$"})"));
  ASSERT_TRUE(v.has_value());
  EXPECT_FALSE(v->is_valid(json(std::string(100000, 'a') + "!")));
}

TEST(validator_compile, resolves_refs_through_the_resolver_once) {
  int calls = 0;
  auto v = validator::compile(
      json::parse(R"({"properties": {"a": {"$ref": "https://example.com/int.json"},
                                     "b": {"$ref": "https://example.com/int.json#/$defs/s"}}})"),
      {.resolve = [&](const std::string& uri) -> std::optional<json> {
        ++calls;
        if (uri != "https://example.com/int.json") return std::nullopt;
        return json::parse(R"({"type": "integer", "$defs": {"s": {"type": "string"}}})");
      }});
  ASSERT_TRUE(v.has_value()) << v.error().message;
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(v->is_valid(json::parse(R"({"a": 1, "b": "x"})")));
  EXPECT_FALSE(v->is_valid(json::parse(R"({"a": "1"})")));
}

TEST(validator_compile, metaschema_is_built_in) {
  auto v = validator::compile(json::parse(R"({"$ref": "https://json-schema.org/draft/2020-12/schema"})"));
  ASSERT_TRUE(v.has_value()) << v.error().message;
  EXPECT_TRUE(v->is_valid(json::parse(R"({"type": "object", "properties": {"a": {"minLength": 1}}})")));
  EXPECT_FALSE(v->is_valid(json::parse(R"({"properties": {"a": {"minLength": -1}}})")));
}

// The metaschemas are files embedded at build time (src/schema/metaschema/<path>.json): each is
// served at the URI its path names, says so in its $id, and is itself a valid schema.
TEST(validator_compile, each_embedded_metaschema_is_served_at_its_id) {
  namespace detail = tooluse::schema::detail;
  const std::string base = "https://json-schema.org/draft/2020-12/";
  auto meta = validator::compile(json{{"$ref", base + "schema"}});
  ASSERT_TRUE(meta.has_value()) << meta.error().message;
  std::vector<std::string> paths;
  for (const detail::metaschema_text& m : detail::builtin_metaschema_texts()) {
    paths.emplace_back(m.path);
    const json* doc = detail::builtin_metaschema(base + std::string(m.path));
    ASSERT_NE(doc, nullptr) << m.path;
    EXPECT_EQ(doc->value("$id", ""), base + std::string(m.path));
    EXPECT_TRUE(meta->is_valid(*doc)) << m.path;
  }
  EXPECT_EQ(paths, (std::vector<std::string>{
                       "meta/applicator", "meta/content", "meta/core", "meta/format-annotation",
                       "meta/format-assertion", "meta/meta-data", "meta/unevaluated",
                       "meta/validation", "schema"}));
  EXPECT_EQ(detail::builtin_metaschema(base + "meta/other"), nullptr);
  EXPECT_EQ(detail::builtin_metaschema("https://json-schema.org/draft/2019-09/schema"), nullptr);
}

TEST(validator_compile, recursive_schema_and_runaway_recursion) {
  auto tree = validator::compile(json::parse(
      R"({"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}})"));
  ASSERT_TRUE(tree.has_value());
  EXPECT_TRUE(tree->is_valid(json::parse(R"({"kids": [{"kids": [{}]}]})")));
  EXPECT_FALSE(tree->is_valid(json::parse(R"({"kids": [{"kids": [3]}]})")));
  auto loop = validator::compile(json::parse(R"({"$defs": {"a": {"$ref": "#/$defs/b"},
      "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"})"));
  ASSERT_TRUE(loop.has_value());
  EXPECT_FALSE(loop->is_valid(json(1)));  // terminates, reported as too deep
}

TEST(validator_compile, deep_schema_is_rejected_not_crashed) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += R"({"not":)";
  text += "true";
  for (int i = 0; i < 5000; ++i) text += "}";
  auto v = validator::compile(json::parse(text));
  ASSERT_FALSE(v.has_value());
  EXPECT_NE(v.error().message.find("nests more than 128 levels"), std::string::npos);
}

TEST(validator_compile, shared_between_threads) {
  auto v = validator::compile(json::parse(R"({"type": "object", "properties": {
      "n": {"type": "integer", "maximum": 100}, "s": {"type": "string", "pattern": "^x"}},
      "unevaluatedProperties": false})"));
  ASSERT_TRUE(v.has_value());
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        json ok = {{"n", i % 100}, {"s", "x" + std::to_string(t)}};
        json bad = {{"n", 101 + i}, {"s", "y"}, {"z", 1}};
        if (!v->is_valid(ok) || v->validate(bad).size() != 3) ++wrong;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
