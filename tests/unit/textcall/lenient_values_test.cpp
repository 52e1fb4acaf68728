// The lenient values models write inside calls: Python literals and escapes, numbers in every
// spelling, JavaScript-style keys, nesting limits, and string arguments typed by the tool's
// schema (including BFCL type names). Each text is also checked streamed in every chunk size.
#include <gtest/gtest.h>

#include "textcall_test_util.hpp"

namespace tooluse::textcall {
namespace {

using testing::streams_like_whole;

// one_call parses `text` (also streamed) and returns its only call.
tool_call one_call(format f, const std::string& text, const parse_options& o = {}) {
  EXPECT_TRUE(streams_like_whole(f, text, o)) << text;
  auto out = parse(f, text, o);
  EXPECT_EQ(out.calls.size(), 1u) << text << "\ncontent: " << out.content;
  if (out.calls.empty()) return {};
  return out.calls[0];
}

json args_of(const std::string& call_text, const parse_options& o = {}) {
  return one_call(format::pythonic, "[" + call_text + "]", o).arguments;
}

TEST(lenient_values, python_string_escapes) {
  EXPECT_EQ(args_of(R"(f(s='a\x41\u00e9\n\q'))"), json({{"s", "aA\xc3\xa9\n\\q"}}));
  EXPECT_EQ(args_of(R"(f(s="\t\r\b\f\0\"\'\\\/"))"),
            json({{"s", std::string("\t\r\b\f\0\"'\\/", 9)}}));
  EXPECT_EQ(args_of("f(s='a\\\nb')"), json({{"s", "ab"}}));  // a Python line continuation
}

TEST(lenient_values, surrogate_pairs_join_and_lone_halves_become_replacement_characters) {
  EXPECT_EQ(args_of(R"(f(s='\ud83d\ude00'))"), json({{"s", "\xf0\x9f\x98\x80"}}));
  EXPECT_EQ(args_of(R"(f(s='\ud83dx'))"), json({{"s", "\xef\xbf\xbdx"}}));
  EXPECT_EQ(args_of(R"(f(s='\ud83d\u0041'))"), json({{"s", "\xef\xbf\xbd" "A"}}));
  EXPECT_EQ(args_of(R"(f(s='\ude00'))"), json({{"s", "\xef\xbf\xbd"}}));
}

TEST(lenient_values, bad_hex_escapes_make_the_call_malformed) {
  auto c = one_call(format::pythonic, R"([f(s='\xZZ')])");
  EXPECT_EQ(c.name, "f");
  EXPECT_TRUE(c.arguments.is_null());
  EXPECT_EQ(c.raw_arguments, R"(s='\xZZ')");
}

TEST(lenient_values, triple_quoted_strings_keep_quotes_and_newlines) {
  EXPECT_EQ(args_of("f(s=\"\"\"line1\nline2 \"quoted\" \"\"\")"),
            json({{"s", "line1\nline2 \"quoted\" "}}));
  EXPECT_EQ(args_of("f(s='''it's''', t='')"), json({{"s", "it's"}, {"t", ""}}));
}

TEST(lenient_values, numbers_in_every_spelling) {
  json a = args_of("f(a=+5, b=-2.5e3, c=.5, d=1., e=12345678901234567890, g=1E+2, h=-0)");
  EXPECT_EQ(a["a"], 5);
  EXPECT_EQ(a["b"], -2500.0);
  EXPECT_EQ(a["c"], 0.5);
  EXPECT_EQ(a["d"], 1.0);
  EXPECT_TRUE(a["e"].is_number_unsigned());
  EXPECT_EQ(a["e"].get<std::uint64_t>(), 12345678901234567890ull);
  EXPECT_EQ(a["g"], 100.0);
  EXPECT_EQ(a["h"], 0);
  json big = args_of("f(n=123456789012345678901234567890)");
  EXPECT_TRUE(big["n"].is_number_float());
  EXPECT_DOUBLE_EQ(big["n"].get<double>(), 1.2345678901234568e29);
}

TEST(lenient_values, malformed_numbers_make_the_call_malformed) {
  for (const char* text : {"[f(n=0x1F)]", "[f(n=1e)]", "[f(n=-)]", "[f(n=12abc)]"}) {
    auto c = one_call(format::pythonic, text);
    EXPECT_EQ(c.name, "f") << text;
    EXPECT_TRUE(c.arguments.is_null()) << text;
  }
}

TEST(lenient_values, python_literals_tuples_and_non_string_keys) {
  EXPECT_EQ(args_of("f(a=(1, (2, 3)), b={'k': [None, True, False]}, c={1: 'one', -2: 'neg'})"),
            json::parse(R"({"a": [1, [2, 3]], "b": {"k": [null, true, false]},
                            "c": {"1": "one", "-2": "neg"}})"));
  EXPECT_EQ(args_of("f(a=[], b={}, c=(), d=[1,], e={'x': 1,})"),
            json::parse(R"({"a": [], "b": {}, "c": [], "d": [1], "e": {"x": 1}})"));
  EXPECT_EQ(args_of("f(a=true, b=null)"), json::parse(R"({"a": true, "b": null})"));
}

TEST(lenient_values, unknown_words_and_comparisons_are_not_values) {
  for (const char* text : {"[f(a=Nothing)]", "[f(a==1)]", "[f(a=1 b=2)]", "[f(a=[1 2])]",
                           "[f(a={'k' 1})]", "[f(a={'k': 1 'j': 2})]", "[f(a={[1]: 2})]"}) {
    auto c = one_call(format::pythonic, text);
    EXPECT_TRUE(c.arguments.is_null()) << text;
    EXPECT_FALSE(c.raw_arguments.empty()) << text;
  }
}

TEST(lenient_values, nesting_deeper_than_the_limit_is_not_a_value) {
  std::string deep = "[f(a=" + std::string(120, '[') + std::string(120, ']') + ")]";
  auto out = parse(format::pythonic, deep);
  ASSERT_EQ(out.calls.size(), 1u);
  EXPECT_TRUE(out.calls[0].arguments.is_null());
  EXPECT_FALSE(out.diagnostics.empty());
  std::string fine = "[f(a=" + std::string(50, '[') + std::string(50, ']') + ")]";
  auto ok = parse(format::pythonic, fine);
  ASSERT_EQ(ok.calls.size(), 1u);
  EXPECT_TRUE(ok.calls[0].arguments.is_object());
}

TEST(lenient_values, call_lists_with_odd_names_spacing_and_trailing_commas) {
  auto out = parse(format::pythonic, "[my-tool.v2 (x=1), g(),]");
  ASSERT_EQ(out.calls.size(), 2u);
  EXPECT_EQ(out.calls[0].name, "my-tool.v2");
  EXPECT_EQ(out.calls[0].arguments, json({{"x", 1}}));
  EXPECT_EQ(out.calls[1].name, "g");
  EXPECT_EQ(out.calls[1].arguments, json::object());
  EXPECT_EQ(out.calls[1].id, "call_1");
  EXPECT_EQ(out.content, "");
  auto no_comma = parse(format::pythonic, "[f(x=1) g(y=2)]");  // a missing comma is forgiven
  EXPECT_EQ(no_comma.calls.size(), 2u);
  auto unicode = parse(format::pythonic, "[a\xc3\xb1o(x=1)]");
  ASSERT_EQ(unicode.calls.size(), 1u);
  EXPECT_EQ(unicode.calls[0].name, "a\xc3\xb1o");
}

TEST(lenient_values, lists_that_are_not_calls_stay_content) {
  for (const char* text : {"[]", "[1, 2]", "[f]", "[f(x=1)", "[f(x='open",
                           "[(x=1)]"}) {
    auto out = parse(format::pythonic, text);
    EXPECT_TRUE(out.calls.empty()) << text;
    EXPECT_EQ(out.content, text);
    EXPECT_TRUE(streams_like_whole(format::pythonic, text)) << text;
  }
}

TEST(lenient_values, positional_arguments_need_a_schema_with_enough_properties) {
  parse_options o{.schemas = {{"f", json::parse(R"({"type": "object", "properties":
                                                   {"a": {"type": "string"}, "b": {"type": "integer"}}})")}}};
  EXPECT_EQ(args_of("f('x', 2)", o), json({{"a", "x"}, {"b", 2}}));
  EXPECT_EQ(args_of("f('x', b=3)", o), json({{"b", 3}, {"a", "x"}}));
  auto too_many = one_call(format::pythonic, "[f(1, 2, 3)]", o);
  EXPECT_TRUE(too_many.arguments.is_null());
  EXPECT_EQ(too_many.raw_arguments, "1, 2, 3");
  auto unknown_tool = one_call(format::pythonic, "[g(1)]", o);
  EXPECT_TRUE(unknown_tool.arguments.is_null());
}

parse_options typed_schema() {
  return {.schemas = {{"t", json::parse(R"({"type": "object", "properties": {
      "i": {"type": "integer"}, "n": {"type": "number"}, "b": {"type": "boolean"},
      "z": {"type": "null"}, "o": {"type": "object"}, "a": {"type": "array"},
      "ni": {"type": ["integer", "null"]}, "amb": {"type": ["integer", "string"]},
      "s": {"type": "string"}, "props": {"properties": {"k": {}}}, "list": {"items": {}},
      "bi": {"type": "int"}, "bf": {"type": "float"}, "bb": {"type": "bool"},
      "bd": {"type": "dict"}, "bt": {"type": "tuple"}, "bany": {"type": "any"}}})")}}};
}

TEST(lenient_values, string_arguments_are_typed_by_the_schema) {
  auto o = typed_schema();
  EXPECT_EQ(args_of(R"(t(i="3", n="2.5", b="True", z="None", o="{'k': 1}", a="[1, 2]"))", o),
            json::parse(R"({"i": 3, "n": 2.5, "b": true, "z": null, "o": {"k": 1}, "a": [1, 2]})"));
  EXPECT_EQ(args_of(R"(t(i="3.0", n=" 7 ", ni="5", props="{'k': 2}", list="[3]"))", o),
            json::parse(R"({"i": 3, "n": 7, "ni": 5, "props": {"k": 2}, "list": [3]})"));
}

TEST(lenient_values, strings_that_do_not_fit_the_type_are_left_for_validation) {
  auto o = typed_schema();
  EXPECT_EQ(args_of(R"(t(i="three", n="1,5", b="yes", z="nil", o="[1]", a="{}", s="42"))", o),
            json::parse(R"({"i": "three", "n": "1,5", "b": "yes", "z": "nil", "o": "[1]",
                            "a": "{}", "s": "42"})"));
  EXPECT_EQ(args_of(R"(t(amb="5", i="3 4", n="2.5x"))", o),
            json::parse(R"({"amb": "5", "i": "3 4", "n": "2.5x"})"));
}

TEST(lenient_values, a_huge_integral_string_for_an_integer_stays_a_number) {
  auto o = typed_schema();
  json a = args_of(R"(t(i="1e300", n="-1e300"))", o);
  ASSERT_TRUE(a["i"].is_number());
  EXPECT_DOUBLE_EQ(a["i"].get<double>(), 1e300);
  EXPECT_DOUBLE_EQ(a["n"].get<double>(), -1e300);
  json exact = args_of(R"(t(i="-9223372036854775808"))", o);
  EXPECT_EQ(exact["i"].get<std::int64_t>(), INT64_MIN);
}

TEST(lenient_values, bfcl_type_names_type_strings_too) {
  auto o = typed_schema();
  EXPECT_EQ(args_of(R"x(t(bi="4", bf="0.25", bb="False", bd="{'a': None}", bt="(1, 2)", bany="7"))x", o),
            json::parse(R"({"bi": 4, "bf": 0.25, "bb": false, "bd": {"a": null}, "bt": [1, 2],
                            "bany": "7"})"));
}

TEST(lenient_values, hermes_json_takes_bare_keys_single_quotes_and_trailing_commas) {
  auto c = one_call(format::hermes, "<tool_call>{name: 'f', arguments: {x: 1, 'y': [True,],},}</tool_call>");
  EXPECT_EQ(c.name, "f");
  EXPECT_EQ(c.arguments, json::parse(R"({"x": 1, "y": [true]})"));
}

TEST(lenient_values, hermes_argument_shapes) {
  auto blank = one_call(format::hermes, R"(<tool_call>{"name": "f", "arguments": "  "}</tool_call>)");
  EXPECT_EQ(blank.arguments, json::object());
  auto none = one_call(format::hermes, R"(<tool_call>{"name": "f", "arguments": null}</tool_call>)");
  EXPECT_EQ(none.arguments, json::object());
  auto absent = one_call(format::hermes, R"(<tool_call>{"name": "f"}</tool_call>)");
  EXPECT_EQ(absent.arguments, json::object());
  auto number = one_call(format::hermes, R"(<tool_call>{"name": "f", "arguments": 5}</tool_call>)");
  EXPECT_TRUE(number.arguments.is_null());
  EXPECT_EQ(number.raw_arguments, "5");
  auto trailing = one_call(format::hermes,
                           R"(<tool_call>{"name": "f", "arguments": "{\"a\": 1} extra"}</tool_call>)");
  EXPECT_TRUE(trailing.arguments.is_null());
  EXPECT_EQ(trailing.raw_arguments, "{\"a\": 1} extra");
  auto nested = one_call(format::hermes,
                         R"(<tool_call>{"type": "function", "function": {"name": "g", "input": {"q": 1}}}</tool_call>)");
  EXPECT_EQ(nested.name, "g");
  EXPECT_EQ(nested.arguments, json({{"q", 1}}));
  auto alias = one_call(format::hermes,
                        R"(<tool_call>{"tool_name": "h", "tool_input": {}, "id": "x"}</tool_call>)");
  EXPECT_EQ(alias.name, "h");
}

TEST(lenient_values, bare_json_with_other_keys_is_data_not_a_call) {
  auto out = parse(format::json, R"({"name": "f", "arguments": {}, "extra": 1})");
  EXPECT_TRUE(out.calls.empty());
  auto list = parse(format::json, R"({"tool_calls": [{"name": "f"}], "note": "x"})");
  EXPECT_TRUE(list.calls.empty());
  auto empty_name = parse(format::json, R"({"name": "", "arguments": {}})");
  EXPECT_TRUE(empty_name.calls.empty());
  auto two = parse(format::json, R"([{"name": "a"}, {"function_name": "b", "args": {"k": 1}}])");
  ASSERT_EQ(two.calls.size(), 2u);
  EXPECT_EQ(two.calls[1].name, "b");
  EXPECT_EQ(two.calls[1].arguments, json({{"k", 1}}));
  auto mixed = parse(format::json, R"([{"name": "a"}, 3])");
  EXPECT_TRUE(mixed.calls.empty());
}

}  // namespace
}  // namespace tooluse::textcall
