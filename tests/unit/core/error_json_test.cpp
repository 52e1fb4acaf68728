// core's error values and JSON helpers: every errc has its own name, limit_error's message
// names the option and says what to do, dump_json never throws on bad UTF-8, canonical_json is
// order-independent for objects (and only for objects), type_name follows JSON Schema's names.
#include <gtest/gtest.h>

#include <set>

#include "tooluse/error.hpp"
#include "tooluse/json.hpp"
#include "tooluse/result.hpp"

namespace tooluse {
namespace {

TEST(errc_names, every_code_has_a_distinct_snake_case_name) {
  std::set<std::string> names;
  for (int i = 0; i <= static_cast<int>(errc::limit_exceeded); ++i) {
    std::string n(to_string(static_cast<errc>(i)));
    EXPECT_NE(n, "unknown") << i;
    EXPECT_EQ(n.find_first_not_of("abcdefghijklmnopqrstuvwxyz_"), std::string::npos) << n;
    names.insert(n);
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(errc::limit_exceeded) + 1);
  EXPECT_EQ(to_string(errc::budget_exceeded), "budget_exceeded");
  EXPECT_EQ(to_string(static_cast<errc>(999)), "unknown");
}

TEST(error_values, what_prefixes_the_code_and_fail_builds_results) {
  error e{errc::not_found, "no tool \"x\"", -32602};
  EXPECT_EQ(e.what(), "not_found: no tool \"x\"");
  result<int> r = fail(errc::timeout, "slow", -32001);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::timeout);
  EXPECT_EQ(r.error().jsonrpc_code, -32001);
  status s = fail(e);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "no tool \"x\"");
  EXPECT_EQ(error{}.code, errc::internal);
}

TEST(limit_error, names_the_option_the_limit_its_unit_and_what_to_do) {
  auto e = limit_error("the response body from host:1", "http::request::max_response_bytes", 1024,
                       "bytes");
  EXPECT_EQ(e.code, errc::limit_exceeded);
  EXPECT_EQ(e.message,
            "the response body from host:1 exceeds the limit http::request::max_response_bytes = "
            "1024 bytes; raise http::request::max_response_bytes if this peer is trusted (see "
            "docs/limits.md)");
  EXPECT_EQ(limit_error("a batch", "max_batch", 3).message,
            "a batch exceeds the limit max_batch = 3; raise max_batch if this peer is trusted (see "
            "docs/limits.md)");
}

TEST(dump_json, replaces_invalid_utf8_instead_of_throwing) {
  json j = {{"text", std::string("ok \xff\xfe end")}};
  std::string out;
  ASSERT_NO_THROW(out = dump_json(j));
  EXPECT_EQ(out, "{\"text\":\"ok \xEF\xBF\xBD\xEF\xBF\xBD end\"}");
  EXPECT_EQ(dump_json(json::parse(R"({"a":[1,2]})"), 2), "{\n  \"a\": [\n    1,\n    2\n  ]\n}");
  // Non-ASCII stays as UTF-8, not \u escapes.
  EXPECT_EQ(dump_json(json("é")), "\"é\"");
}

TEST(canonical_json, sorts_keys_at_every_depth_and_keeps_array_order) {
  json a = json::parse(R"({"b":1,"a":{"d":[3,{"z":0,"y":1}],"c":null}})");
  json b = json::parse(R"({"a":{"c":null,"d":[3,{"y":1,"z":0}]},"b":1})");
  EXPECT_EQ(canonical_json(a), R"({"a":{"c":null,"d":[3,{"y":1,"z":0}]},"b":1})");
  EXPECT_EQ(canonical_json(a), canonical_json(b));
  EXPECT_NE(canonical_json(json::parse("[1,2]")), canonical_json(json::parse("[2,1]")));
  EXPECT_EQ(canonical_json(json::parse(R"({"k":"a\"b"})")), R"({"k":"a\"b"})");
  EXPECT_EQ(canonical_json(json::object()), "{}");
  EXPECT_EQ(canonical_json(json()), "null");
}

TEST(canonical_json, never_throws_on_invalid_utf8_in_keys_or_values) {
  json j = json::object();
  j[std::string("k\xff")] = std::string("v\xfe");
  std::string out;
  ASSERT_NO_THROW(out = canonical_json(j));
  EXPECT_EQ(out, "{\"k\xEF\xBF\xBD\":\"v\xEF\xBF\xBD\"}");
}

TEST(type_name, uses_json_schema_names) {
  struct row {
    const char* text;
    const char* name;
  };
  for (auto [text, name] : {row{"null", "null"}, row{"true", "boolean"}, row{"-3", "integer"},
                            row{"18446744073709551615", "integer"}, row{"1.5", "number"},
                            row{"\"s\"", "string"}, row{"[]", "array"}, row{"{}", "object"}}) {
    EXPECT_EQ(type_name(json::parse(text)), name) << text;
  }
}

TEST(parse_json, errors_are_values_with_a_position) {
  auto r = parse_json("{\"a\": tru}");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::parse_error);
  EXPECT_FALSE(r.error().message.empty());
  auto empty = parse_json("");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, errc::parse_error);
  auto ok = parse_json("  [1, \"two\", {\"3\": null}]  ");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->size(), 3u);
  // Trailing garbage is not a document.
  EXPECT_FALSE(parse_json("{} x"));
  EXPECT_FALSE(parse_json("{}{}"));
}

}  // namespace
}  // namespace tooluse
