// Escapes and markers inside argument values: JSON unicode and escaped quotes, Python string
// escapes and literals, brackets and braces inside strings, several calls with text between,
// each parsed whole and fed at every byte (split inside escapes and multi-byte characters).
#include <gtest/gtest.h>

#include "textcall_test_util.hpp"

namespace tooluse::textcall {
namespace {

struct escape_case {
  std::string label;
  format f;
  std::string text;
  std::vector<std::pair<std::string, std::string>> calls;  ///< name, arguments as JSON text
  std::string content;
};

void PrintTo(const escape_case& c, std::ostream* os) { *os << c.label; }

std::vector<escape_case> cases() {
  using F = format;
  return {
      {"hermes_unicode_escape", F::hermes,
       R"(<tool_call>{"name": "f", "arguments": {"city": "Z\u00fcrich \ud83d\ude80"}}</tool_call>)",
       {{"f", R"({"city":"Zürich 🚀"})"}}, ""},
      {"hermes_escaped_quotes_and_backslashes", F::hermes,
       R"(<tool_call>{"name": "f", "arguments": {"q": "say \"hi\" C:\\dir\n"}}</tool_call>)",
       {{"f", R"({"q":"say \"hi\" C:\\dir\n"})"}}, ""},
      {"hermes_two_calls_with_text_between", F::hermes,
       "A<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call> and <tool_call>{\"name\": "
       "\"g\", \"arguments\": {\"x\": [1, {\"y\": null}]}}</tool_call>B",
       {{"f", "{}"}, {"g", R"({"x":[1,{"y":null}]})"}}, "A and B"},
      {"pythonic_string_escapes", F::pythonic,
       R"([f(q='it\'s', r="say \"hi\"", s='tab\there')])",
       {{"f", R"({"q":"it's","r":"say \"hi\"","s":"tab\there"})"}}, ""},
      {"pythonic_brackets_inside_strings", F::pythonic, R"([f(q="[a](b) {c}", r=')(')])",
       {{"f", R"({"q":"[a](b) {c}","r":")("})"}}, ""},
      {"pythonic_numbers_and_nesting", F::pythonic,
       "[f(a=-1, b=2.5e3, c=[1, [2, 3]], d={'k': (1,)}, e=None, g=True)]",
       {{"f", R"({"a":-1,"b":2500.0,"c":[1,[2,3]],"d":{"k":[1]},"e":null,"g":true})"}}, ""},
      {"pythonic_unicode_values", F::pythonic, "[f(city='Zürich', note=\"東京\")]",
       {{"f", R"({"city":"Zürich","note":"東京"})"}}, ""},
      {"mistral_braces_inside_strings", F::mistral,
       R"([TOOL_CALLS]f[ARGS]{"q": "{not json} ]["})", {{"f", R"({"q":"{not json} ]["})"}}, ""},
      {"functionary_v31_marker_text_inside_a_string", F::functionary_v31,
       R"(<function=f>{"q": "<function=g>"}</function>)", {{"f", R"({"q":"<function=g>"})"}}, ""},
      {"deepseek_escaped_newline", F::deepseek,
       "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"code\": "
       "\"a\\nb\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
       {{"f", R"({"code":"a\nb"})"}}, ""},
      {"qwen3_coder_value_with_angle_brackets", F::qwen3_coder,
       "<tool_call>\n<function=f>\n<parameter=q>\na < b && c > d\n</parameter>\n</function>\n</tool_call>",
       {{"f", R"({"q":"a < b && c > d"})"}}, ""},
      {"command_r7b_nested_arguments", F::command_r7b,
       R"(<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "f", "parameters": {"m": {"k": ["]"]}}}]<|END_ACTION|>)",
       {{"f", R"({"m":{"k":["]"]}})"}}, ""},
  };
}

class escapes : public ::testing::TestWithParam<escape_case> {};

TEST_P(escapes, are_decoded_whole_and_at_every_split) {
  const auto& c = GetParam();
  auto got = parse(c.f, c.text);
  ASSERT_EQ(got.calls.size(), c.calls.size()) << c.text;
  for (std::size_t i = 0; i < c.calls.size(); ++i) {
    EXPECT_EQ(got.calls[i].name, c.calls[i].first);
    EXPECT_EQ(got.calls[i].arguments, json::parse(c.calls[i].second))
        << dump_json(got.calls[i].arguments);
  }
  EXPECT_EQ(got.content, c.content);
  EXPECT_TRUE(got.diagnostics.empty()) << got.diagnostics.front();
  EXPECT_TRUE(testing::streams_like_whole(c.f, c.text));
}

INSTANTIATE_TEST_SUITE_P(all, escapes, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.label; });

}  // namespace
}  // namespace tooluse::textcall
