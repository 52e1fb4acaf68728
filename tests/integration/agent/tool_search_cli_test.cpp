// Tool search over 500 tools mounted from an MCP server: the first request offers only the
// search tool and the always-loaded tools; after a search, the next requests add only the
// tools found. Also the Anthropic provider-native variant (defer_loading).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

class tool_search_cli : public ::testing::Test {
 protected:
  std::string write_config(int tools) {
    auto path = (dir.path() / "mcp.json").string();
    std::ofstream(path) << dump_json(json{
        {"mcpServers",
         {{"many", {{"command", TOOLUSE_MANY_TOOLS_SERVER}, {"args", {std::to_string(tools)}}}}}}});
    return path;
  }
  static std::vector<std::string> chat_tools(const json& body) {
    std::vector<std::string> out;
    for (const auto& t : body.value("tools", json::array())) out.push_back(t["function"]["name"]);
    return out;
  }
  fake_llm_server server;
  temp_dir dir;
};

TEST_F(tool_search_cli, five_hundred_tools_are_offered_through_search_then_only_the_ones_found) {
  server.check_requests(wire_format::openai_chat);
  auto config = write_config(500);
  server.push(openai_response(
      {.calls = {{"call_s", "search_tools", R"({"query":"weather forecast for a city"})"}}},
      false));
  server.push(openai_response(
      {.calls = {{"call_w", "many__get_weather_forecast", R"({"city":"Paris"})"}}}, false));
  server.push(openai_response({.text = "Sunny in Paris."}, false));
  auto r = run_tooluse({"run", "What is the weather forecast for Paris?", "--provider", "openai",
                        "--base-url", server.url("/v1"), "--model", "fake-model", "--no-stream",
                        "--mcp", config, "--always-load", "calculator", "--json"},
                       {{"OPENAI_API_KEY", "sk-test"}}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(server.failures().empty()) << server.failures().front();
  auto out = json::parse(r.out);
  EXPECT_EQ(out["answer"], "Sunny in Paris.");
  ASSERT_EQ(out["tool_calls"].size(), 2u);
  EXPECT_NE(out["tool_calls"][0]["result"].get<std::string>().find("many__get_weather_forecast"),
            std::string::npos)
      << out["tool_calls"][0]["result"];
  EXPECT_EQ(out["tool_calls"][1]["result"], R"(get_weather_forecast ok {"city":"Paris"})");

  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 3u);
  // First request: the always-loaded tool and the search tool, nothing else.
  EXPECT_EQ(chat_tools(reqs[0].json_body()),
            (std::vector<std::string>{"calculator", "search_tools"}));
  // Then: those plus the tools the search found (at most 5), the forecast tool among them.
  auto second = chat_tools(reqs[1].json_body());
  EXPECT_LE(second.size(), 7u);
  EXPECT_EQ(second.front(), "calculator");
  EXPECT_EQ(second.back(), "search_tools");
  EXPECT_NE(std::find(second.begin(), second.end(), "many__get_weather_forecast"), second.end());
  EXPECT_EQ(chat_tools(reqs[2].json_body()), second);
}

TEST_F(tool_search_cli, below_the_threshold_every_tool_is_sent) {
  auto config = write_config(10);
  server.push(openai_response({.text = "ok"}, false));
  auto r = run_tooluse({"run", "hi", "--provider", "openai", "--base-url", server.url("/v1"),
                        "--model", "fake-model", "--no-stream", "--mcp", config, "--tools",
                        "calculator", "--tool-search-threshold", "32"},
                       {{"OPENAI_API_KEY", "sk-test"}}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto tools = chat_tools(server.requests().at(0).json_body());
  EXPECT_EQ(tools, std::vector<std::string>{"calculator"});
}

TEST_F(tool_search_cli, anthropic_native_search_defers_all_but_the_always_loaded_tools) {
  auto config = write_config(100);
  server.push(anthropic_response({.text = "ok"}, false));
  auto r = run_tooluse({"run", "hi", "--provider", "anthropic", "--base-url", server.url(""),
                        "--model", "fake-model", "--no-stream", "--mcp", config, "--always-load",
                        "calculator", "--tool-search", "native"},
                       {{"ANTHROPIC_API_KEY", "sk-ant-test"}}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto req = server.requests().at(0);
  EXPECT_EQ(req.header("anthropic-beta"), "advanced-tool-use-2025-11-20");
  json tools = req.json_body()["tools"];
  ASSERT_GT(tools.size(), 100u);
  EXPECT_EQ(tools[0], json::parse(R"({"type":"tool_search_tool_bm25_20251119",
                                      "name":"tool_search_tool_bm25"})"));
  for (size_t i = 1; i < tools.size(); ++i)
    EXPECT_EQ(tools[i].value("defer_loading", false), tools[i]["name"] != "calculator")
        << tools[i]["name"];
}

}  // namespace
}  // namespace tooluse::testing
