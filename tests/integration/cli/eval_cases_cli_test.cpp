// A team's own cases over the registry's tools: `eval run --cases` asks the scripted model with
// the built-in calculator as the tool, `eval score --cases` checks the answers with BFCL's rules
// (one call, several in any order, none where no tool fits) and reports why a case failed.
#include <gtest/gtest.h>

#include <fstream>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"
#include "support/test_support.hpp"
#include "tooluse/json.hpp"

namespace tooluse::testing {
namespace {

const char* cases_text =
    R"({"id": "add", "question": "What is 2+2?", "tools": ["calculator"], "ground_truth": [{"calculator": {"expression": ["2+2"]}}]}
{"id": "joke", "question": "Tell me a joke.", "tools": ["calculator"], "ground_truth": []}
{"id": "two", "question": "Compute 3*3 and 4*4.", "tools": ["calculator"], "ground_truth": [{"calculator": {"expression": ["3*3"]}}, {"calculator": {"expression": ["4*4"]}}]}
{"id": "wrong", "question": "Compute 5*5 and 6*6.", "ground_truth": [{"calculator": {"expression": ["5*5"]}}, {"calculator": {"expression": ["6*6"]}}]}
)";

scripted_response answer(const recorded_request& req) {
  json body = req.json_body();
  auto content = body["messages"].back()["content"];
  std::string q = content.is_string() ? content.get<std::string>() : content[0]["text"].get<std::string>();
  auto call = [](const std::string& id, const std::string& e) {
    return fake_tool_call{id, "calculator", dump_json(json{{"expression", e}})};
  };
  if (q == "What is 2+2?") return openai_response({.calls = {call("c1", "2 + 2")}}, false);
  if (q == "Compute 3*3 and 4*4.") return openai_response({.calls = {call("c1", "4*4"), call("c2", "3*3")}}, false);
  if (q == "Compute 5*5 and 6*6.") return openai_response({.calls = {call("c1", "5*5"), call("c2", "7*7")}}, false);
  return openai_response({.text = "Why did the function return? It had no arguments."}, false);
}

TEST(eval_cases_cli, own_cases_run_against_the_registry_tools_and_score_with_bfcl_rules) {
  temp_dir dir;
  fake_llm_server server;
  server.set_responder(answer);
  auto cases = dir.path() / "mycases.jsonl";
  std::ofstream(cases) << cases_text;
  auto run = run_tooluse({"eval", "run", "--cases", cases.string(), "--out", (dir.path() / "out").string(),
                          "--tools", "calculator", "--provider", "openai", "--base-url", server.url("/v1"), "--model",
                          "fake-model"},
                         {}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("answered 4 questions"), std::string::npos) << run.out;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "out" / "fake-model" / "mycases_result.json"));
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[0].json_body()["tools"][0]["function"]["name"], "calculator");

  auto score = run_tooluse({"eval", "score", "--cases", cases.string(), "--results",
                            (dir.path() / "out" / "fake-model").string(), "--model", "fake-model", "--tools",
                            "calculator", "--json"},
                           {}, dir.path());
  ASSERT_EQ(score.exit_code, 0) << score.err;
  auto j = json::parse(score.out);
  EXPECT_EQ(j["categories"]["cases"]["correct_count"], 2);  // "2 + 2" matches "2+2"; 3*3/4*4 in any order
  EXPECT_EQ(j["categories"]["cases"]["total_count"], 3);
  EXPECT_EQ(j["categories"]["cases_irrelevance"]["correct_count"], 1);
  ASSERT_EQ(j["failures"].size(), 1u);
  EXPECT_EQ(j["failures"][0]["entry_id"], "wrong");
  EXPECT_EQ(j["failures"][0]["error_type"], "parallel_function_checker_no_order:cannot_find_match");
}

TEST(eval_cases_cli, a_case_naming_an_unknown_tool_is_refused_with_its_line) {
  temp_dir dir;
  auto cases = dir.path() / "bad.jsonl";
  std::ofstream(cases) << R"({"id": "a", "question": "q", "ground_truth": [{"teleport": {"to": ["Mars"]}}]})" << "\n";
  auto r = run_tooluse({"eval", "score", "--cases", cases.string(), "--results", dir.path().string(), "--model", "m",
                        "--tools", "calculator"},
                       {}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.jsonl:1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("teleport"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tooluse::testing
