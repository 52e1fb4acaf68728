// Seed 000's GAIA question (Eliud Kipchoge's marathon pace to the Moon's perigee, rounded to the
// nearest 1000 hours: 17). The scripted model issues the searches and calculations the seed
// shows; the search tools are local stand-ins returning the seed's facts, the calculator is the
// real built-in one, and the loop runs against the fake server over loopback.
#include <gtest/gtest.h>

#include "support/fake_llm_server.hpp"
#include "tooluse/agent/agent.hpp"
#include "tooluse/builtin/calculator.hpp"
#include "tooluse/llm/openai_chat.hpp"

namespace tooluse::testing {
namespace {

void register_seed_tools(tool_registry& tools) {
  json query_schema = json::parse(
      R"({"type":"object","properties":{"query":{"type":"string"}},"required":["query"]})");
  tools.add({.name = "search_web", .description = "Search the web for the given query.",
             .input_schema = query_schema},
            [](const json&, call_context&) {
              return tool_result::text(
                  R"([{"title":"Eliud Kipchoge - Wikipedia","url":"https://en.wikipedia.org/wiki/Eliud_Kipchoge","content":"Kipchoge set the marathon world record of 2:01:09 in Berlin on 25 September 2022."}])");
            });
  tools.add({.name = "search_wikipedia",
             .description = "Search Wikipedia for a query and return titles of wikipedia pages",
             .input_schema = query_schema},
            [](const json&, call_context&) {
              return tool_result::text(R"(["Moon","Lunar distance","Orbit of the Moon"])");
            });
  tools.add({.name = "get_wikipedia_page", .description = "Get a wikipedia page by title",
             .input_schema = json::parse(R"({"type":"object","properties":{"title":{"type":"string"}},"required":["title"]})")},
            [](const json& args, call_context&) {
              if (args.value("title", "") != "Moon") return tool_result::error("no such page");
              return tool_result::text(
                  "Perigee: 356,400 km (356,400-370,400 km) ... varies from around 356,400 km "
                  "(perigee) to 406,700 km (apogee).");
            });
}

TEST(gaia_agent, kipchoge_to_the_moon_is_17_thousand_hours) {
  fake_llm_server server;
  auto turn = [&](std::vector<fake_tool_call> calls, std::string text = "") {
    server.push(openai_response({.text = std::move(text), .calls = std::move(calls)}, true));
  };
  turn({{"call_1", "search_web", R"({"query":"Eliud Kipchoge marathon world record"})"}});
  turn({{"call_2", "calculator", R"({"expression":"(2*3600 + 1*60 + 9) / 42.195"})"}});
  turn({{"call_3", "search_wikipedia", R"({"query":"Moon"})"},
        {"call_4", "get_wikipedia_page", R"({"title":"Moon"})"}});
  turn({{"call_5", "calculator", R"({"expression":"356400 * (2*3600 + 1*60 + 9) / 42.195 / 3600"})"}});
  turn({{"call_6", "calculator", R"j({"expression":"round(356400 * 7269 / 42.195 / 3600 / 1000)"})j"}});
  turn({}, "17");

  tool_registry tools;
  builtin::register_calculator(tools);
  register_seed_tools(tools);
  llm::openai_chat model({.base_url = server.url("/v1"), .model = "gpt-4o-mini"});
  std::string streamed;
  agent a(model, tools,
          {.system = "You are a general AI assistant. Use the tools; use the calculator for all "
                     "arithmetic.",
           .max_turns = 8,
           .stream = true,
           .on_event = [&](const agent_event& e) {
             if (e.what == agent_event::kind::text_delta) streamed += e.text;
           }});
  auto r = a.run(
      "If Eliud Kipchoge could maintain his record-making marathon pace indefinitely, how many "
      "thousand hours would it take him to run the distance between the Earth and the Moon at "
      "its closest approach? Use the minimum perigee value on the Wikipedia page for the Moon. "
      "Round your result to the nearest 1000 hours.");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->answer, "17");
  EXPECT_EQ(r->turns, 6);
  ASSERT_EQ(r->tool_calls.size(), 6u);
  // The real calculator did the arithmetic the model asked for.
  EXPECT_EQ(r->tool_calls[1].result.all_text().substr(0, 7), "172.271");
  EXPECT_EQ(r->tool_calls[4].result.all_text().substr(0, 6), "17054.");
  EXPECT_EQ(r->tool_calls[5].result.all_text(), "17");
  for (const auto& c : r->tool_calls) EXPECT_FALSE(c.result.is_error) << c.result.all_text();
  // The last request carried every result back with its id, in call order.
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 6u);
  std::vector<std::string> ids;
  json last = reqs.back().json_body();
  for (const auto& m : last["messages"])
    if (m["role"] == "tool") ids.push_back(m["tool_call_id"]);
  EXPECT_EQ(ids, (std::vector<std::string>{"call_1", "call_2", "call_3", "call_4", "call_5",
                                           "call_6"}));
  EXPECT_EQ(last["messages"][0]["role"], "system");
  EXPECT_EQ(streamed, "17");
  EXPECT_EQ(r->usage.input_tokens, 60);
}

}  // namespace
}  // namespace tooluse::testing
