// `tooluse run --mcp CONFIG.json`: the scripted model calls a tool that lives on an MCP server
// run over stdio; the test checks what the model was offered and sent back, and the answer.
// Also `tooluse mcp list/call` against the same servers.
#include <gtest/gtest.h>

#include <fstream>

#include <csignal>

#include "npm_peers.hpp"
#include "task_server.hpp"
#include "support/test_support.hpp"
#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

class agent_mcp : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(TOOLUSE_CLI_PATH)) TOOLUSE_PEER_MISSING(std::string("tooluse CLI not built at ") + TOOLUSE_CLI_PATH);
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
  // task_server_config mounts tests/programs/task_mcp_server.cpp (tools that run only as MCP
  // tasks) as server "tasks"; its tools write what they saw to `events`.
  std::string task_server_config(const task_events& events) {
    return write_config({{"tasks",
                          {{"command", TOOLUSE_TASK_SERVER},
                           {"args", {"--stdio", "--events", events.path()}}}}});
  }
  std::vector<std::string> run_args(const std::string& config, const std::string& tool) {
    return {"run", "Run the job", "--provider", "openai", "--base-url", server.url("/v1"),
            "--model", "fake-model", "--no-stream", "--mcp", config, "--tools", tool};
  }
  fake_llm_server server;
  temp_dir dir;
};


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

// A mounted tool whose server runs it only as a task (taskSupport required): the agent waits for
// the task like for any call.
TEST_F(agent_mcp, run_waits_for_a_tool_that_runs_as_a_task) {
  task_events events(dir.path());
  auto config = task_server_config(events);
  server.push(openai_response(
      {.calls = {{"call_1", "tasks__long_job", R"({"seconds":0.2,"label":"a1"})"}}}, false));
  server.push(openai_response({.text = "The job finished."}, false));
  auto r = run_tooluse(run_args(config, "tasks__long_job"), {{"OPENAI_API_KEY", "sk-test"}},
                       dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "The job finished.\n");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(tool_messages(reqs[1].json_body()),
            (std::vector<std::string>{"long_job a1 finished"}));
  EXPECT_TRUE(events.wait_for("finished a1")) << events.seen();
}

// --timeout stops the run; the task on the server is cancelled and its tool sees it.
TEST_F(agent_mcp, run_timeout_cancels_the_task_on_its_server) {
  task_events events(dir.path());
  auto config = task_server_config(events);
  server.push(openai_response(
      {.calls = {{"call_1", "tasks__long_job", R"({"label":"t1"})"}}}, false));
  auto args = run_args(config, "tasks__long_job");
  args.insert(args.end(), {"--timeout", "3s"});
  auto r = run_tooluse(args, {{"OPENAI_API_KEY", "sk-test"}}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("the run was stopped at its --timeout of 3s"), std::string::npos) << r.err;
  EXPECT_TRUE(events.wait_for("started t1")) << events.seen();
  EXPECT_TRUE(events.wait_for("stopped t1")) << events.seen();
  EXPECT_EQ(server.requests().size(), 1u);  // the model was not asked again
}

// Ctrl-C (SIGINT) while a task runs: the task is cancelled on the server, exit status 130.
TEST_F(agent_mcp, sigint_cancels_the_task_on_its_server) {
  task_events events(dir.path());
  auto config = task_server_config(events);
  server.push(openai_response(
      {.calls = {{"call_1", "tasks__long_job", R"({"label":"i1"})"}}}, false));
  background_tooluse proc(run_args(config, "tasks__long_job"), dir.path(),
                         {{"OPENAI_API_KEY", "sk-test"}});
  ASSERT_TRUE(events.wait_for("started i1")) << events.seen();
  proc.signal(SIGINT);
  EXPECT_EQ(proc.wait(), 130) << proc.stderr_so_far();
  EXPECT_TRUE(events.wait_for("stopped i1")) << events.seen();
  EXPECT_NE(proc.stderr_so_far().find("tooluse: the run was interrupted"), std::string::npos)
      << proc.stderr_so_far();
}

// `tooluse mcp serve --task-tool NAME=required --task-store FILE`: a native tool served only as
// a task, its record in a SQLite file; `tooluse mcp call --task` shows its status and result.
TEST_F(agent_mcp, mcp_serve_runs_a_native_tool_as_a_task) {
  const std::string srv = std::string(TOOLUSE_CLI_PATH) +
                          " mcp serve --stdio --tools calculator --task-tool calculator=required "
                          "--task-store " + (dir.path() / "tasks.db").string();
  auto list = run_tooluse({"mcp", "list", "-q", "--json", "--server", srv}, {}, dir.path());
  ASSERT_EQ(list.exit_code, 0) << list.err;
  auto tools = parse_json(list.out);
  ASSERT_TRUE(tools && tools->is_array() && tools->size() == 1u) << list.out;
  EXPECT_EQ((*tools)[0]["execution"]["taskSupport"], "required") << list.out;
  auto r = run_tooluse({"mcp", "call", "--server", srv, "--task", "calculator", "expression=6*7"},
                       {}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "42\n");
  EXPECT_NE(r.err.find(": completed"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "tasks.db"));
  auto bad = run_tooluse({"mcp", "serve", "--stdio", "--task-tool", "no_such_tool"}, {}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--task-tool no_such_tool: no such tool"), std::string::npos) << bad.err;
}

}  // namespace

}  // namespace tooluse::testing
