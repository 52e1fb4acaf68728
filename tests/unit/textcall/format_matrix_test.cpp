// Every format, through its own renderer: single and parallel calls, content before and after,
// nested arguments, unicode; parsed by the format and by auto, whole and in chunks of every size.
#include <gtest/gtest.h>

#include "textcall_test_util.hpp"

namespace tooluse::textcall {
namespace {

using testing::streams_like_whole;

tool_schemas matrix_schemas() {
  return {
      {"get_weather", json::parse(R"({"type":"object","properties":{"city":{"type":"string"},
          "unit":{"type":"string"},"days":{"type":"integer"}}})")},
      {"get_time", json::parse(R"({"type":"object","properties":{"tz":{"type":"string"}}})")},
      {"book.trip", json::parse(R"({"type":"object","properties":{"trip":{"type":"object"},
          "flags":{"type":"array"},"budget":{"type":"number"},"note":{"type":"string"}}})")},
  };
}

tool_call call(std::string name, json args) {
  tool_call c;
  c.name = std::move(name);
  c.arguments = std::move(args);
  return c;
}

std::vector<std::vector<tool_call>> call_sets() {
  return {
      {call("get_weather", {{"city", "Paris"}, {"days", 3}})},
      {call("get_weather", {{"city", "Paris"}, {"unit", "c"}}), call("get_time", {{"tz", "CET"}})},
      {call("book.trip", json::parse(R"({"trip":{"legs":[{"from":"A","to":"B"},{"from":"B",
          "to":"C","stops":[1,2]}]},"flags":[true,false,null],"budget":2.5})"))},
      {call("get_weather", {{"city", "Zürich 東京 🚀"}}),
       call("book.trip", {{"note", "quote \" back\\slash\nnew line 'single'"}})},
      {call("get_time", json::object())},
  };
}

void expect_calls(const parsed_text& got, const std::vector<tool_call>& want, format f) {
  ASSERT_EQ(got.calls.size(), want.size()) << to_string(f);
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got.calls[i].name, want[i].name) << to_string(f);
    EXPECT_EQ(got.calls[i].arguments, want[i].arguments) << to_string(f);
    EXPECT_EQ(got.calls[i].id, "call_" + std::to_string(i));
  }
}

class format_matrix : public ::testing::TestWithParam<format> {};

TEST_P(format_matrix, round_trips_rendered_calls_with_content_around) {
  format f = GetParam();
  parse_options opts{.schemas = matrix_schemas()};
  for (const auto& calls : call_sets()) {
    std::string text = "Let me check. " + render_calls(f, calls) + " Done.";
    auto got = parse(f, text, opts);
    expect_calls(got, calls, f);
    EXPECT_EQ(got.content, "Let me check.  Done.") << to_string(f) << ": " << text;
    EXPECT_TRUE(got.diagnostics.empty()) << to_string(f);
  }
}

TEST_P(format_matrix, auto_recognises_rendered_calls) {
  format f = GetParam();
  parse_options opts{.schemas = matrix_schemas()};
  for (const auto& calls : call_sets()) {
    std::string text = "Sure. " + render_calls(f, calls);
    auto got = parse(format::auto_detect, text, opts);
    expect_calls(got, calls, f);
    EXPECT_EQ(got.content, "Sure. ") << to_string(f) << ": " << text;
  }
}

TEST_P(format_matrix, streaming_in_every_chunk_size_matches_whole_text) {
  format f = GetParam();
  parse_options opts{.schemas = matrix_schemas()};
  auto sets = call_sets();
  std::string text = "Before <b>[x] {y} " + render_calls(f, sets[1]) + " between " +
                     render_calls(f, sets[3]) + " after.";
  EXPECT_TRUE(streams_like_whole(f, text, opts)) << to_string(f);
  EXPECT_TRUE(streams_like_whole(format::auto_detect, text, opts)) << to_string(f);
  EXPECT_EQ(parse(f, text, opts).calls.size(), 4u) << to_string(f) << ": " << text;
}

TEST_P(format_matrix, renders_a_tools_block_naming_every_tool) {
  format f = GetParam();
  std::vector<tool> tools = {
      {.name = "get_weather", .description = "Weather for a city",
       .input_schema = matrix_schemas()["get_weather"]},
      {.name = "get_time", .description = "Time in a zone"}};
  std::string block = render_tools(f, tools);
  EXPECT_NE(block.find("get_weather"), std::string::npos) << to_string(f);
  EXPECT_NE(block.find("get_time"), std::string::npos) << to_string(f);
  EXPECT_NE(block.find("Weather for a city"), std::string::npos) << to_string(f);
}

INSTANTIATE_TEST_SUITE_P(all, format_matrix, ::testing::ValuesIn(all_formats()),
                         [](const auto& info) {
                           std::string n(to_string(info.param));
                           for (char& c : n)
                             if (c == '-' || c == '.') c = '_';
                           return n;
                         });

TEST(text_format, parses_format_names_and_aliases) {
  for (format f : all_formats()) EXPECT_EQ(parse_format(to_string(f)).value(), f);
  EXPECT_EQ(parse_format("auto").value(), format::auto_detect);
  EXPECT_EQ(parse_format("gpt-oss").value(), format::harmony);
  EXPECT_EQ(parse_format("qwen3_coder").value(), format::qwen3_coder);
  auto bad = parse_format("klingon");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, errc::invalid_argument);
  EXPECT_NE(bad.error().message.find("hermes"), std::string::npos);
}

}  // namespace
}  // namespace tooluse::textcall
