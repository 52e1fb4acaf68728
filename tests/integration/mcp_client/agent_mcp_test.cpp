// `tooluse run --mcp CONFIG.json`: the scripted model calls a tool that lives on an MCP server
// run over stdio; the test checks what the model was offered and sent back, and the answer.
// Also `tooluse mcp list/call` against the same servers.
#include <gtest/gtest.h>

#include <fstream>

#include "npm_peers.hpp"
#include "support/test_support.hpp"
#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

class agent_mcp : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(TOOLUSE_CLI_PATH)) TOOLUSE_PEER_MISSING("tooluse CLI not built at " TOOLUSE_CLI_PATH);
  }
  std::string write_config(const json& servers) {
    auto path = (dir.path() / "mcp.json").string();
    std::ofstream(path) << dump_json(json{{"mcpServers", servers}}, 2);
    return path;
  }
  cli_outcome run(const std::string& config, const std::string& tool) {
    return run_tooluse({"run", "What is 2 + 40?", "--provider", "openai", "--base-url",
                        server.url("/v1"), "--model", "fake-model", "--no-stream", "--mcp", config,
                        "--tools", tool},
                       {{"OPENAI_API_KEY", "sk-test"}}, dir.path());
  }
  // tool_messages returns the text of the `tool` role messages in a Chat Completions body.
  static std::vector<std::string> tool_messages(const json& body) {
    std::vector<std::string> out;
    for (const auto& m : body["messages"])
      if (m["role"] == "tool") out.push_back(m["content"].get<std::string>());
    return out;
  }
  static std::vector<std::string> offered(const json& body) {
    std::vector<std::string> out;
    for (const auto& t : body["tools"]) out.push_back(t["function"]["name"]);
    return out;
  }
  fake_llm_server server;
  temp_dir dir;
};

}  // namespace

TEST_F(agent_mcp, run_calls_tool_of_tooluse_mcp_server_over_stdio) {
  auto config = write_config(
      {{"calc", {{"command", TOOLUSE_CLI_PATH}, {"args", {"mcp", "serve", "--stdio"}}}}});
  server.push(openai_response(
      {.calls = {{"call_1", "calc__calculator", R"({"expression":"2+40"})"}}}, false));
  server.push(openai_response({.text = "2 + 40 = 42."}, false));
  auto r = run(config, "calc__calculator");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "2 + 40 = 42.\n");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(offered(reqs[0].json_body()), (std::vector<std::string>{"calc__calculator"}));
  EXPECT_EQ(tool_messages(reqs[1].json_body()), (std::vector<std::string>{"42"}));
}

TEST_F(agent_mcp, run_calls_tool_of_npm_server_everything_over_stdio) {
  TOOLUSE_SKIP_WITHOUT_PEER("everything");
  auto config = write_config(
      {{"everything",
        {{"command", node_binary().string()}, {"args", {server_script("everything").string(), "stdio"}}}}});
  server.push(openai_response({.calls = {{"call_1", "everything__get-sum", R"({"a":2,"b":40})"}}}, false));
  server.push(openai_response({.text = "The sum is 42."}, false));
  auto r = run(config, "everything__get-sum");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "The sum is 42.\n");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  auto body = reqs[0].json_body();
  ASSERT_EQ(offered(body), (std::vector<std::string>{"everything__get-sum"}));
  EXPECT_EQ(body["tools"][0]["function"]["parameters"]["required"], json({"a", "b"}));
  auto results = tool_messages(reqs[1].json_body());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_NE(results[0].find("42"), std::string::npos) << results[0];
}

TEST_F(agent_mcp, run_reports_server_that_cannot_start) {
  auto config = write_config({{"ghost", {{"command", "tooluse-no-such-server"}}}});
  auto r = run(config, "ghost__x");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("cannot start stdio server `ghost`"), std::string::npos) << r.err;
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(agent_mcp, mcp_call_types_key_value_arguments_and_sets_exit_status) {
  std::string srv = std::string(TOOLUSE_CLI_PATH) + " mcp serve --stdio";
  auto ok = run_tooluse({"mcp", "call", "--server", srv, "calculator", "expression=6*7"}, {}, dir.path());
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "42\n");
  auto bad = run_tooluse({"mcp", "call", "--server", srv, "calculator", "expression=6*"}, {}, dir.path());
  EXPECT_EQ(bad.exit_code, 1);
  auto json_out = run_tooluse({"mcp", "call", "--server", srv, "--json", "calculator",
                               R"({"expression":"1+1"})"}, {}, dir.path());
  ASSERT_EQ(json_out.exit_code, 0) << json_out.err;
  EXPECT_EQ((*parse_json(json_out.out))["content"][0]["text"], "2");
  auto usage = run_tooluse({"mcp", "call", "calculator"}, {}, dir.path());
  EXPECT_EQ(usage.exit_code, 2);
  auto missing = run_tooluse({"mcp", "list", "--server", "tooluse-no-such-server"}, {}, dir.path());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("cannot start"), std::string::npos) << missing.err;
}

TEST_F(agent_mcp, mcp_call_types_numbers_for_server_everything) {
  TOOLUSE_SKIP_WITHOUT_PEER("everything");
  std::string srv = node_binary().string() + " " + server_script("everything").string() + " stdio";
  auto r = run_tooluse({"mcp", "call", "-q", "--server", srv, "get-sum", "a=2", "b=40"}, {}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("42"), std::string::npos) << r.out;
  auto list = run_tooluse({"mcp", "list", "-q", "--json", "--server", srv}, {}, dir.path());
  ASSERT_EQ(list.exit_code, 0) << list.err;
  auto tools = parse_json(list.out);
  ASSERT_TRUE(tools && tools->is_array());
  EXPECT_GE(tools->size(), 10u);
}

}  // namespace tooluse::testing
