// `tooluse run` output contracts through the real binary against the fake model server: the
// answer on stdout with the [usage] line on stderr, the --json document's shape (tool calls with
// arguments, result, error flag and time; usage; a null cost for an unpriced model), --trace's
// JSON Lines, the cut-answer warning, and the usage errors that stop a run before any request.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

class run_cli : public ::testing::Test {
 protected:
  fake_llm_server server;
  temp_dir dir;

  void SetUp() override { server.check_requests(wire_format::openai_chat); }

  cli_outcome run(std::vector<std::string> extra, const std::string& question = "What is 6*7?",
                  const std::string& stdin_text = "") {
    std::vector<std::string> args = {"run"};
    if (!question.empty()) args.push_back(question);
    for (const char* a : {"--provider", "openai", "--model", "fake-model", "--no-stream"})
      args.push_back(a);
    if (std::find(extra.begin(), extra.end(), "--tools") == extra.end())
      args.insert(args.end(), {"--tools", "calculator"});
    args.push_back("--base-url");
    args.push_back(server.url("/v1"));
    args.insert(args.end(), extra.begin(), extra.end());
    std::string in = "/dev/null";
    if (!stdin_text.empty()) {
      in = (dir.path() / "stdin.txt").string();
      std::ofstream(in) << stdin_text;
    }
    return run_tooluse(args, {{"OPENAI_API_KEY", "sk-test"}}, dir.path(), in);
  }

  void script_one_call() {
    server.push(openai_response(
        {.calls = {{"call_1", "calculator", R"({"expression":"6*7"})"}}, .input_tokens = 20,
         .output_tokens = 7},
        false));
    server.push(openai_response({.text = "It is 42.", .input_tokens = 30, .output_tokens = 4},
                                false));
  }
};

TEST_F(run_cli, answer_on_stdout_and_calls_and_usage_on_stderr) {
  script_one_call();
  auto r = run({});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "It is 42.\n");
  EXPECT_NE(r.err.find("calculator"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[usage] 2 requests, 50 input tokens, 11 output tokens, cost unknown (the "
                       "model is not in the price catalog; see --prices)\n"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(server.failures().empty()) << server.failures()[0];
}

TEST_F(run_cli, json_gives_answer_turns_tool_calls_usage_and_a_null_cost) {
  script_one_call();
  auto r = run({"--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["answer"], "It is 42.");
  EXPECT_EQ(j["turns"], 2);
  ASSERT_EQ(j["tool_calls"].size(), 1u);
  const json& c = j["tool_calls"][0];
  EXPECT_EQ(c["name"], "calculator");
  EXPECT_EQ(c["arguments"], json({{"expression", "6*7"}}));
  EXPECT_EQ(c["result"], "42");
  EXPECT_EQ(c["is_error"], false);
  EXPECT_TRUE(c["ms"].is_number_integer()) << c;
  EXPECT_EQ(j["usage"]["input_tokens"], 50);
  EXPECT_EQ(j["usage"]["output_tokens"], 11);
  EXPECT_TRUE(j["cost"].is_null()) << j;
  EXPECT_FALSE(j.contains("run_id"));  // not a journaled run
  EXPECT_EQ(r.err.find("[usage]"), std::string::npos) << r.err;  // --json keeps stderr quiet
}

TEST_F(run_cli, json_of_a_call_whose_arguments_did_not_parse_shows_their_text) {
  server.push(openai_response({.calls = {{"call_1", "calculator", R"({"expression": )"}}}, false));
  server.push(openai_response({.text = "Sorry."}, false));
  auto r = run({"--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  ASSERT_EQ(j["tool_calls"].size(), 1u);
  EXPECT_EQ(j["tool_calls"][0]["arguments"], R"({"expression": )");
  EXPECT_EQ(j["tool_calls"][0]["is_error"], true);
}

TEST_F(run_cli, a_failed_run_in_json_carries_the_error_and_exits_1) {
  server.push(error_response(400, "model not found"));
  auto r = run({"--json"});
  EXPECT_EQ(r.exit_code, 1);
  json j = json::parse(r.out);
  EXPECT_NE(j["error"].get<std::string>().find("model not found"), std::string::npos) << j;
  EXPECT_EQ(j["answer"], "");
  EXPECT_EQ(j["tool_calls"], json::array());
  EXPECT_NE(r.err.find("tooluse: "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("[usage]"), std::string::npos) << r.err;

  server.push(error_response(400, "model not found"));
  auto text = run({});
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_EQ(text.out, "");
  EXPECT_NE(text.err.find("model not found"), std::string::npos) << text.err;
  EXPECT_NE(text.err.find("[usage] "), std::string::npos) << text.err;
}

TEST_F(run_cli, an_answer_cut_at_the_token_limit_is_flagged) {
  server.push(openai_response({.text = "The answer is", .finish = "length"}, false));
  auto r = run({});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "The answer is\n");
  EXPECT_NE(r.err.find("tooluse: warning: the answer was cut at the output token limit\n"),
            std::string::npos)
      << r.err;
}

TEST_F(run_cli, trace_writes_a_header_then_one_json_line_per_event) {
  script_one_call();
  auto trace = dir.path() / "trace.jsonl";
  auto r = run({"--trace", trace.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(trace);
  std::vector<json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0]["event"], "run");
  EXPECT_EQ(lines[0]["question"], "What is 6*7?");
  EXPECT_EQ(lines[0]["provider"], "openai");
  EXPECT_EQ(lines[0]["model"], "fake-model");
  EXPECT_EQ(lines[0]["tools"], json::array({"calculator"}));
  std::vector<std::string> events;
  for (const auto& l : lines) {
    EXPECT_TRUE(l["ts"].is_number()) << l;
    events.push_back(l["event"]);
  }
  EXPECT_NE(std::find(events.begin(), events.end(), "tool_call"), events.end());
  EXPECT_NE(std::find(events.begin(), events.end(), "tool_result"), events.end());
  EXPECT_EQ(events.back(), "answer");
}

TEST_F(run_cli, usage_errors_stop_before_any_request) {
  auto trace = run({"--trace", (dir.path() / "no/such/folder/t.jsonl").string()});
  EXPECT_EQ(trace.exit_code, 2);
  EXPECT_EQ(trace.err, "tooluse: cannot write the trace file \"" +
                           (dir.path() / "no/such/folder/t.jsonl").string() + "\"\n");
  auto confirm = run({"--confirm", "calculator,nope"});
  EXPECT_EQ(confirm.exit_code, 2);
  EXPECT_EQ(confirm.err, "tooluse: --confirm: no tool named \"nope\"\n");
  auto queue = run({"--queue", "q"});
  EXPECT_EQ(queue.exit_code, 2);
  EXPECT_EQ(queue.err, "tooluse: --queue needs --store postgresql://... (or TOOLUSE_STORE)\n");
  auto empty = run({}, "", "\n\n");
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_EQ(empty.err, "tooluse: run: the question read from stdin is empty\n");
  auto dash = run({}, "-", "");
  EXPECT_EQ(dash.exit_code, 2);
  EXPECT_EQ(dash.err, "tooluse: run: the question read from stdin is empty\n");
  auto unknown_tool = run({"--tools", "calculator,no_such_tool"});
  EXPECT_EQ(unknown_tool.exit_code, 2);
  EXPECT_NE(unknown_tool.err.find("no_such_tool"), std::string::npos) << unknown_tool.err;
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(run_cli, a_question_from_stdin_loses_its_trailing_newlines_only) {
  server.push(openai_response({.text = "ok"}, false));
  auto r = run({}, "-", "line one\nline two\r\n\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].json_body()["messages"].back()["content"], "line one\nline two");
}

}  // namespace
}  // namespace tooluse::testing
