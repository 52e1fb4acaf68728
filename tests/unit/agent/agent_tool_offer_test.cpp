// Which tools each request offers when the agent searches its tools: thresholds and modes, the
// search tool's own answers (bad arguments, no match, loaded tools), long descriptions cut on
// a character boundary, and allowed_tools keeping the search tool callable.
#include "tooluse/agent/agent.hpp"

#include <gtest/gtest.h>

#include "scripted_model.hpp"

namespace tooluse {
namespace {

using agent_testing::call;
using agent_testing::calls;
using agent_testing::scripted_model;
using agent_testing::text;

std::vector<std::string> names(const std::vector<tool>& tools) {
  std::vector<std::string> out;
  for (const auto& t : tools) out.push_back(t.name);
  return out;
}

struct tool_offer_fixture : ::testing::Test {
  tool_registry tools;
  scripted_model model;
  void SetUp() override {
    auto add = [&](std::string name, std::string description) {
      tools.add({.name = std::move(name), .description = std::move(description)},
                [](const json&, call_context&) { return tool_result::text("ok"); });
    };
    add("send_email", "Send an email message to a recipient");
    add("read_inbox", "Read the messages in the email inbox");
    add("get_weather", "Current weather forecast for a city");
    add("convert_currency", "Convert an amount between currencies");
  }
  result<run_result> run(agent_options o) {
    agent a(model, tools, std::move(o));
    return a.run("go");
  }
};

TEST_F(tool_offer_fixture, automatic_mode_searches_only_above_the_threshold) {
  model.answers.push_back(text("a"));
  model.answers.push_back(text("b"));
  ASSERT_TRUE(run({.tool_search = {.threshold = 4}}));
  EXPECT_EQ(names(model.requests[0].tools).size(), 4u);  // 4 tools, not more than 4: all sent
  ASSERT_TRUE(run({.tool_search = {.threshold = 3}}));
  EXPECT_EQ(names(model.requests[1].tools), std::vector<std::string>{"search_tools"});
}

TEST_F(tool_offer_fixture, off_sends_every_tool_and_always_searches_even_with_few) {
  model.answers.push_back(text("a"));
  model.answers.push_back(text("b"));
  ASSERT_TRUE(run({.tool_search = {.use = tool_search_options::mode::off, .threshold = 0}}));
  EXPECT_EQ(model.requests[0].tools.size(), 4u);
  ASSERT_TRUE(run({.tool_search = {.use = tool_search_options::mode::always,
                                   .always_loaded = {"get_weather"}, .tool_name = "find_tools"}}));
  EXPECT_EQ(names(model.requests[1].tools), (std::vector<std::string>{"get_weather", "find_tools"}));
  const tool& search = model.requests[1].tools[1];
  EXPECT_EQ(search.description.rfind("Search the 3 tools that are available but not loaded yet", 0), 0u)
      << search.description;
  EXPECT_NE(search.description.find("The best 5 matches are loaded"), std::string::npos);
  EXPECT_EQ(search.input_schema["required"], json::array({"query"}));
}

TEST_F(tool_offer_fixture, the_search_tool_answers_bad_arguments_and_misses_without_loading) {
  model.answers.push_back(calls({tool_call::from_text("s1", "search_tools", R"({"q": "email"})"),
                                 tool_call::from_text("s2", "search_tools", R"({"query": "zebra"})")}));
  model.answers.push_back(text("done"));
  auto r = run({.tool_search = {.use = tool_search_options::mode::always}});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->tool_calls.size(), 2u);
  EXPECT_TRUE(r->tool_calls[0].result.is_error);
  EXPECT_EQ(r->tool_calls[0].result.all_text(),
            "\"search_tools\" needs {\"query\": \"keywords\"}, e.g. {\"query\": \"send email\"}");
  EXPECT_FALSE(r->tool_calls[1].result.is_error);
  EXPECT_EQ(r->tool_calls[1].result.all_text(),
            "No tool matches \"zebra\". Try other words (synonyms, the action or the object involved).");
  EXPECT_EQ(names(model.requests[1].tools), std::vector<std::string>{"search_tools"});
}

TEST_F(tool_offer_fixture, found_tools_are_listed_and_offered_from_the_next_request_on) {
  model.answers.push_back(calls({tool_call::from_text("s1", "search_tools", R"({"query": "email inbox"})")}));
  model.answers.push_back(calls({tool_call::from_text("c1", "read_inbox", "{}")}));
  model.answers.push_back(text("done"));
  auto r = run({.tool_search = {.use = tool_search_options::mode::always, .max_results = 2}});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->tool_calls.size(), 2u);
  EXPECT_EQ(r->tool_calls[0].result.all_text(),
            "Loaded 2 tools; call them directly:\n"
            "- read_inbox: Read the messages in the email inbox\n"
            "- send_email: Send an email message to a recipient\n");
  EXPECT_EQ(names(model.requests[1].tools),
            (std::vector<std::string>{"read_inbox", "send_email", "search_tools"}));
  EXPECT_EQ(r->tool_calls[1].result.all_text(), "ok");
  EXPECT_EQ(names(model.requests[2].tools), names(model.requests[1].tools));
}

TEST_F(tool_offer_fixture, allowed_tools_keep_the_search_tool_callable) {
  model.answers.push_back(text("done"));
  auto r = run({.tool_search = {.use = tool_search_options::mode::always, .always_loaded = {"get_weather"}},
                .allowed_tools = {"get_weather", "send_email"}});
  ASSERT_TRUE(r);
  // send_email is not offered yet, so only get_weather and the search tool are allowed.
  EXPECT_EQ(model.requests[0].allowed_tools, (std::vector<std::string>{"get_weather", "search_tools"}));
}

TEST(tool_offer_descriptions, long_descriptions_are_cut_on_a_character_boundary) {
  tool_registry tools;
  std::string prefix = "Quantum flux " + std::string(186, 'a');  // 199 bytes
  std::string description = prefix + "\xc3\xa9\xc3\xa9 tail";   // the first é is bytes 199-200
  tools.add({.name = "flux", .description = description},
            [](const json&, call_context&) { return tool_result::text("ok"); });
  scripted_model model;
  model.answers.push_back(calls({tool_call::from_text("s1", "search_tools", R"({"query": "quantum flux"})")}));
  model.answers.push_back(text("done"));
  agent a(model, tools, {.tool_search = {.use = tool_search_options::mode::always}});
  auto r = a.run("go");
  ASSERT_TRUE(r) << r.error().message;
  std::string listed = r->tool_calls[0].result.all_text();
  // A cut at byte 200 would split the first é: the character is dropped whole instead.
  std::string expected = "- flux: " + prefix + "...\n";
  EXPECT_NE(listed.find(expected), std::string::npos) << listed;
  EXPECT_NO_THROW((void)json(listed).dump());
}

}  // namespace
}  // namespace tooluse
