// Hand-written model outputs per format (variants, reasoning, malformed calls), each checked
// whole and streamed in chunks of every size.
#include <gtest/gtest.h>

#include "textcall_test_util.hpp"

namespace tooluse::textcall::format_cases_test {
namespace {

struct expected_call {
  std::string name;
  std::string arguments;  ///< JSON text; "null" for a malformed call
};

struct text_case {
  std::string label;
  format f;
  std::string text;
  std::vector<expected_call> calls;
  std::string content;
  std::string reasoning;
  bool diagnostic = false;  ///< a malformed call or stray marker is reported
  bool auto_finds = true;   ///< auto finds the calls too (not for context-only syntax)
};

// PrintTo names a case by its label in test output (instead of a byte dump of the struct).
void PrintTo(const text_case& c, std::ostream* os) { *os << c.label; }

tool_schemas case_schemas() {
  return {{"get_weather", json::parse(R"({"type":"object","properties":{"city":{"type":"string"},
               "days":{"type":"integer"},"metric":{"type":"boolean"},"ratio":{"type":"number"},
               "tags":{"type":"array"},"opts":{"type":"object"},"zip":{"type":"string"}}})")},
          {"get_time", json::parse(R"({"type":"object","properties":{"tz":{"type":"string"}}})")}};
}

std::vector<text_case> cases() {
  using F = format;
  return {
      {"hermes_qwen", F::hermes,
       "I'll check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
       {{"get_weather", R"({"city":"Paris"})"}}, "I'll check.\n"},
      {"hermes_python_dict", F::hermes,
       "<tool_call>{'name': 'get_weather', 'arguments': {'city': 'Paris', 'metric': True, 'zip': None,},}</tool_call>",
       {{"get_weather", R"({"city":"Paris","metric":true,"zip":null})"}}, ""},
      {"hermes_function_call_tag", F::hermes,
       "<function_call>{\"name\": \"get_time\", \"arguments\": {\"tz\": \"CET\"}}</function_call> ok",
       {{"get_time", R"({"tz":"CET"})"}}, " ok"},
      {"hermes_two_in_one_tag_and_no_close", F::hermes,
       "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}",
       {{"get_time", "{}"}, {"get_weather", R"({"city":"Oslo"})"}}, ""},
      {"hermes_string_arguments", F::hermes,
       "<tool_call>{\"name\": \"get_time\", \"arguments\": \"{\\\"tz\\\": \\\"UTC\\\"}\"}</tool_call>",
       {{"get_time", R"({"tz":"UTC"})"}}, ""},
      {"hermes_malformed", F::hermes,
       "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": }}</tool_call>after",
       {{"get_weather", "null"}}, "after", "", true},
      {"hermes_weak_tag_is_content", F::hermes, "<json>not a call</json>", {},
       "<json>not a call</json>"},
      {"hermes_qwen3_think", F::hermes,
       "<think>\nThe user wants weather.\n</think>\n\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\n</tool_call>",
       {{"get_weather", R"({"city":"Rome"})"}}, "\n\n", "\nThe user wants weather.\n"},
      {"pythonic_bfcl", F::pythonic,
       "[get_weather(city='Paris', days=3), get_time(tz=\"CET\",)]",
       {{"get_weather", R"({"city":"Paris","days":3})"}, {"get_time", R"({"tz":"CET"})"}}, ""},
      {"pythonic_literals_and_typing", F::pythonic,
       "[get_weather(city=\"Paris\", days=\"4\", metric=False, tags=(1, 'a'), opts={'k': None})]",
       {{"get_weather", R"({"city":"Paris","days":4,"metric":false,"tags":[1,"a"],"opts":{"k":null}})"}}, ""},
      {"pythonic_dotted_name", F::pythonic, "[math.factorial(number=5)]",
       {{"math.factorial", R"({"number":5})"}}, ""},
      {"pythonic_positional_by_schema", F::pythonic, "[get_weather(\"Paris\", 2)]",
       {{"get_weather", R"({"city":"Paris","days":2})"}}, ""},
      {"pythonic_bare_known_call", F::pythonic, "get_time(tz=\"UTC\")\nThat is all.",
       {{"get_time", R"({"tz":"UTC"})"}}, "\nThat is all."},
      {"pythonic_variable_is_malformed", F::pythonic, "[get_weather(city=paris)]",
       {{"get_weather", "null"}}, "", "", true},
      {"pythonic_markdown_link_is_content", F::pythonic, "See [the docs](http://x) [1, 2].", {},
       "See [the docs](http://x) [1, 2]."},
      {"json_llama31", F::json, "{\"name\": \"get_time\", \"parameters\": {\"tz\": \"CET\"}}",
       {{"get_time", R"({"tz":"CET"})"}}, ""},
      {"json_xlam", F::json,
       "{\"tool_calls\": [{\"name\": \"get_time\", \"arguments\": {\"tz\": \"A\"}}, {\"name\": \"get_time\", \"arguments\": {\"tz\": \"B\"}}]}",
       {{"get_time", R"({"tz":"A"})"}, {"get_time", R"({"tz":"B"})"}}, ""},
      {"json_other_object_is_content", F::json, "Result: {\"name\": \"x\", \"size\": 3}", {},
       "Result: {\"name\": \"x\", \"size\": 3}"},
      {"fenced_json", F::fenced_json,
       "Calling:\n```json\n[{\"name\": \"get_time\", \"arguments\": {\"tz\": \"CET\"}}]\n```\nDone",
       {{"get_time", R"({"tz":"CET"})"}}, "Calling:\n\nDone"},
      {"fenced_code_is_content", F::fenced_json, "```bash\nls [a] {b}\n```\n", {},
       "```bash\nls [a] {b}\n```\n"},
      {"mistral_v1", F::mistral,
       "[TOOL_CALLS] [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"ratio\": 3.5}}]</s>",
       {{"get_weather", R"({"city":"Paris","ratio":3.5})"}}, ""},
      {"mistral_v2", F::mistral,
       "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}[TOOL_CALLS]get_time[CALL_ID]a1b2c3d4e[ARGS]{}",
       {{"get_weather", R"({"city":"Paris"})"}, {"get_time", "{}"}}, ""},
      {"mistral_malformed", F::mistral, "[TOOL_CALLS]get_time[ARGS]{\"tz\": CET}",
       {{"get_time", "null"}}, "", "", true},
      {"llama3_json", F::llama3,
       "<|python_tag|>{\"name\": \"get_time\", \"parameters\": {\"tz\": \"CET\"}}<|eom_id|>",
       {{"get_time", R"({"tz":"CET"})"}}, ""},
      {"llama3_builtin", F::llama3, "<|python_tag|>brave_search.call(query=\"weather in Paris\")<|eom_id|>",
       {{"brave_search", R"({"query":"weather in Paris"})"}}, ""},
      {"llama3_code", F::llama3, "<|python_tag|>print(1+1)\nx = 2<|eom_id|>",
       {{"code_interpreter", R"({"code":"print(1+1)\nx = 2"})"}}, ""},
      {"granite", F::granite,
       "<function_call> {\"name\": \"get_time\", \"arguments\": {\"tz\": \"CET\"}}",
       {{"get_time", R"({"tz":"CET"})"}}, ""},
      {"granite_tool_call_token", F::granite,
       "<|tool_call|>[{\"name\": \"get_time\", \"arguments\": {\"tz\": \"X\"}}]",
       {{"get_time", R"({"tz":"X"})"}}, ""},
      {"functionary_v31", F::functionary_v31,
       "Sure<function=get_weather>{\"city\": \"Paris\"}</function><function=get_time>{}</function>",
       {{"get_weather", R"({"city":"Paris"})"}, {"get_time", "{}"}}, "Sure"},
      {"functionary_v31_malformed", F::functionary_v31, "<function=get_time>{tz: }</function>",
       {{"get_time", "null"}}, "", "", true},
      {"functionary_v32_from_start", F::functionary_v32,
       "all\nLet me look.>>>get_weather\n{\"city\": \"Paris\"}>>>get_time\n{\"tz\": \"CET\"}",
       {{"get_weather", R"({"city":"Paris"})"}, {"get_time", R"({"tz":"CET"})"}}, "Let me look."},
      {"functionary_v32_call_first", F::functionary_v32, "get_time\n{\"tz\": \"CET\"}",
       {{"get_time", R"({"tz":"CET"})"}}, "", "", false, false},
      {"deepseek_r1", F::deepseek,
       "<think>\nNeed the weather.\n</think>\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"東京\"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>",
       {{"get_weather", R"({"city":"東京"})"}, {"get_time", "{}"}}, "\n\n", "\nNeed the weather.\n"},
      {"deepseek_v31", F::deepseek,
       "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{\"tz\": \"CET\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
       {{"get_time", R"({"tz":"CET"})"}}, ""},
      {"deepseek_malformed", F::deepseek,
       "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n{\"tz\": \n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
       {{"get_time", "null"}}, "", "", true},
      {"qwen3_coder_typed", F::qwen3_coder,
       "Checking.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nNew York\n</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=metric>\ntrue\n</parameter>\n<parameter=tags>\n[\"a\", 1]\n</parameter>\n<parameter=zip>\n10001\n</parameter>\n</function>\n</tool_call>",
       {{"get_weather", R"({"city":"New York","days":3,"metric":true,"tags":["a",1],"zip":"10001"})"}}, "Checking.\n"},
      {"qwen3_coder_multiline_value", F::qwen3_coder,
       "<tool_call>\n<function=get_time>\n<parameter=tz>\nline one\nline two\n</parameter>\n</function>\n</tool_call>",
       {{"get_time", R"({"tz":"line one\nline two"})"}}, ""},
      {"harmony", F::harmony,
       "<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\":\"Paris\"}<|call|>",
       {{"get_weather", R"({"city":"Paris"})"}}, "", "Need weather."},
      {"harmony_final", F::harmony,
       "<|channel|>analysis<|message|>Easy.<|end|><|start|>assistant<|channel|>final<|message|>It is 12:00.<|return|>",
       {}, "It is 12:00.", "Easy."},
      {"harmony_recipient_first", F::harmony,
       "<|start|>assistant to=functions.get_time<|channel|>commentary json<|message|>{\"tz\": \"UTC\"}<|call|>",
       {{"get_time", R"({"tz":"UTC"})"}}, ""},
      {"command_r7b", F::command_r7b,
       "<|START_THINKING|>I will look it up.<|END_THINKING|><|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": \"get_time\", \"parameters\": {\"tz\": \"CET\"}}\n]<|END_ACTION|>",
       {{"get_time", R"({"tz":"CET"})"}}, "", "I will look it up."},
      {"command_r7b_response", F::command_r7b, "<|START_RESPONSE|>Hello!<|END_RESPONSE|>", {}, "Hello!"},
      // A malformed call in every format: reported, never run (arguments null, raw text kept).
      // Bare and fenced JSON cannot tell broken call JSON from prose or a code sample, so it
      // stays content: shown, never run.
      {"json_malformed_is_content", F::json,
       "{\"name\": \"get_time\", \"parameters\": {\"tz\": }}", {},
       "{\"name\": \"get_time\", \"parameters\": {\"tz\": }}"},
      {"fenced_json_malformed_is_content", F::fenced_json,
       "```json\n[{\"name\": \"get_time\", \"arguments\": {\"tz\": }}]\n```", {},
       "```json\n[{\"name\": \"get_time\", \"arguments\": {\"tz\": }}]\n```"},
      {"llama3_malformed", F::llama3,
       "<|python_tag|>{\"name\": \"get_time\", \"parameters\": {\"tz\": }}<|eom_id|>",
       {{"get_time", "null"}}, "", "", true},
      {"granite_malformed", F::granite,
       "<function_call> {\"name\": \"get_time\", \"arguments\": {\"tz\": }}",
       {{"get_time", "null"}}, "", "", true},
      {"functionary_v32_malformed", F::functionary_v32, ">>>get_time\n{\"tz\": }",
       {{"get_time", "null"}}, "", "", true},
      // Qwen3-Coder values are bounded by </function> too: a missing </parameter> is forgiven.
      {"qwen3_coder_unclosed_parameter", F::qwen3_coder,
       "<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</function>\n</tool_call>",
       {{"get_weather", R"({"days":3})"}}, ""},
      {"harmony_malformed", F::harmony,
       "<|start|>assistant<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>{\"tz\": }<|call|>",
       {{"get_time", "null"}}, "", "", true},
      {"command_r7b_malformed", F::command_r7b,
       "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"get_time\", \"parameters\": {\"tz\": }}]<|END_ACTION|>",
       {{"get_time", "null"}}, "", "", true},
      {"auto_mixed", F::auto_detect,
       "<think>hmm</think>Let me see [1]. <tool_call>{\"name\": \"get_time\", \"arguments\": {}}</tool_call>",
       {{"get_time", "{}"}}, "Let me see [1]. ", "hmm"},
      {"auto_plain_text", F::auto_detect, "No tools needed: 2 < 3 and {a} [b] ```", {},
       "No tools needed: 2 < 3 and {a} [b] ```"},
  };
}

class format_cases : public ::testing::TestWithParam<text_case> {};

TEST_P(format_cases, parses_whole_and_streamed) {
  const auto& c = GetParam();
  parse_options opts{.schemas = case_schemas()};
  auto got = parse(c.f, c.text, opts);
  ASSERT_EQ(got.calls.size(), c.calls.size()) << c.text;
  for (std::size_t i = 0; i < c.calls.size(); ++i) {
    EXPECT_EQ(got.calls[i].name, c.calls[i].name);
    EXPECT_EQ(got.calls[i].arguments, json::parse(c.calls[i].arguments)) << dump_json(got.calls[i].arguments);
    if (c.calls[i].arguments == "null") {
      EXPECT_FALSE(got.calls[i].raw_arguments.empty());
    }
  }
  EXPECT_EQ(got.content, c.content);
  EXPECT_EQ(got.reasoning, c.reasoning);
  EXPECT_EQ(!got.diagnostics.empty(), c.diagnostic);
  EXPECT_TRUE(testing::streams_like_whole(c.f, c.text, opts));
  // auto must find the same calls in every format's text
  auto via_auto = parse(format::auto_detect, c.text, opts);
  if (c.auto_finds) {
    EXPECT_EQ(via_auto.calls.size(), c.calls.size()) << "auto: " << c.text;
  }
}

INSTANTIATE_TEST_SUITE_P(all, format_cases, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.label; });

}  // namespace
}  // namespace tooluse::textcall
