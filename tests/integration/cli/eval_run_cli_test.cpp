// `tooluse eval run` against the scripted model server: it asks BFCL's questions with their
// functions as tools, writes BFCL result files that `eval score` scores, resumes after kill -9
// without asking again what was answered, stops at --max-cost naming the amount, and draws a
// progress bar on a terminal.
#include <gtest/gtest.h>

#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>

#include "integration/agent/terminal_session.hpp"
#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"
#include "support/test_support.hpp"
#include "tooluse/json.hpp"

namespace tooluse::testing {
namespace {

std::vector<json> read_lines(const std::filesystem::path& p) {
  std::vector<json> out;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

/// A model that answers every simple question with its first possible answer (so a correct
/// run scores 100%), found by the question's text.
class answering_model {
 public:
  answering_model() {
    auto questions = read_lines(data_dir() / "bfcl-2024-08" / "gorilla_openfunctions_v1_test_simple.json");
    auto answers = read_lines(data_dir() / "bfcl-2024-08" / "possible_answer" / "gorilla_openfunctions_v1_test_simple.json");
    for (std::size_t i = 0; i < questions.size(); ++i) truth_[questions[i]["question"].get<std::string>()] = answers[i]["ground_truth"];
  }
  scripted_response answer(const recorded_request& req) {
    json body = req.json_body();
    std::string question = body["messages"].back()["content"].is_string()
                               ? body["messages"].back()["content"].get<std::string>()
                               : body["messages"].back()["content"][0]["text"].get<std::string>();
    std::string tool = body["tools"][0]["function"]["name"];
    auto it = truth_.find(question);
    if (it == truth_.end()) return openai_response({.text = "I cannot help with that."}, false);
    json args = json::object();
    for (const auto& [param, values] : it->second.begin().value().items())
      for (const auto& v : values)
        if (!(v.is_string() && v.get<std::string>().empty())) {
          args[param] = v;
          break;
        }
    return openai_response({.calls = {{"call_1", tool, dump_json(args)}}, .input_tokens = 1000, .output_tokens = 100}, false);
  }

 private:
  std::map<std::string, json> truth_;
};

class eval_run_cli : public ::testing::Test {
 protected:
  std::vector<std::string> run_args(int limit, std::vector<std::string> extra = {}) {
    std::vector<std::string> a = {"eval", "run", "--data", (data_dir() / "bfcl-2024-08").string(), "--out",
                                  (dir.path() / "out").string(), "--categories", "simple", "--limit",
                                  std::to_string(limit), "--provider", "openai", "--base-url", server.url("/v1"),
                                  "--model", "fake-model", "--concurrency", "1"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }
  std::filesystem::path result_file() const {
    return dir.path() / "out" / "fake-model" / "gorilla_openfunctions_v1_test_simple_result.json";
  }
  json score() {
    auto r = run_tooluse({"eval", "score", "--data", (data_dir() / "bfcl-2024-08").string(), "--results",
                          (dir.path() / "out" / "fake-model").string(), "--model", "fake-model", "--format", "native",
                          "--json"},
                         {}, dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
  }
  temp_dir dir;
  fake_llm_server server;
  answering_model model;
};

TEST_F(eval_run_cli, answers_are_written_in_bfcl_format_and_score_fully) {
  server.set_responder([&](const recorded_request& r) { return model.answer(r); });
  auto r = run_tooluse(run_args(4), {}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("answered 4 questions"), std::string::npos) << r.out;
  auto lines = read_lines(result_file());
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[1]["id"], "simple_1");
  ASSERT_TRUE(lines[1]["result"].is_array());
  EXPECT_TRUE(lines[1]["result"][0].contains("math.factorial")) << lines[1];  // the dotted name, back from math_factorial
  EXPECT_EQ(lines[1]["input_token_count"], 1000);
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[1].json_body()["tools"][0]["function"]["name"], "math_factorial");
  auto s = score();
  EXPECT_EQ(s["categories"]["simple"]["correct_count"], 4);
  EXPECT_EQ(s["categories"]["simple"]["total_count"], 4);
}

TEST_F(eval_run_cli, a_run_killed_mid_way_resumes_without_asking_again) {
  std::mutex mu;
  std::condition_variable cv;
  int seen = 0;
  bool release = false;
  server.set_responder([&](const recorded_request& r) {
    std::unique_lock lock(mu);
    ++seen;
    cv.notify_all();
    if (seen == 3) cv.wait(lock, [&] { return release; });  // the third question hangs
    return model.answer(r);
  });
  {
    background_tooluse first(run_args(5), dir.path());
    std::unique_lock lock(mu);
    // With one question in flight at a time, the third request means two answers are on disk.
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(60), [&] { return seen == 3; }));
    lock.unlock();
    first.signal(SIGKILL);
    EXPECT_EQ(first.wait(), 128 + SIGKILL);
    std::lock_guard g(mu);
    release = true;
    cv.notify_all();
  }
  EXPECT_EQ(read_lines(result_file()).size(), 2u);
  auto r = run_tooluse(run_args(5), {}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("answered 3 questions (2 already there)"), std::string::npos) << r.out;
  auto lines = read_lines(result_file());
  ASSERT_EQ(lines.size(), 5u);
  for (std::size_t i = 0; i < lines.size(); ++i) EXPECT_EQ(lines[i]["id"], "simple_" + std::to_string(i));
  EXPECT_EQ(score()["categories"]["simple"]["correct_count"], 5);
}

TEST_F(eval_run_cli, max_cost_stops_the_run_and_names_the_amount) {
  server.set_responder([&](const recorded_request& r) { return model.answer(r); });
  std::ofstream(dir.path() / "prices.json") << R"({"models": {"fake-model": {"input": 10.0, "output": 10.0}}})";
  // Each answer costs 1,100 tokens at $10 per million: $0.011. A second would pass $0.02.
  auto r = run_tooluse(run_args(10, {"--max-cost", "0.02", "--prices", (dir.path() / "prices.json").string()}), {},
                       dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("--max-cost $0.0200"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stopped with $0.0110 spent"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("9 questions not asked"), std::string::npos) << r.err;
  EXPECT_EQ(read_lines(result_file()).size(), 1u);
}

TEST_F(eval_run_cli, a_terminal_gets_a_progress_bar) {
  server.set_responder([&](const recorded_request& r) { return model.answer(r); });
  terminal_session t(run_args(3), dir.path(), {});
  ASSERT_TRUE(t.started());
  EXPECT_TRUE(t.wait_for("3/3 answered")) << t.output();
  EXPECT_EQ(t.finish(), 0) << t.output();
  EXPECT_NE(t.output().find("[##########"), std::string::npos) << t.output();
  // Without a terminal (a pipe), no bar.
  auto r = run_tooluse(run_args(3), {}, dir.path());
  EXPECT_EQ(r.err.find("answered  $"), std::string::npos) << r.err;
}

TEST_F(eval_run_cli, a_model_error_is_reported_and_retried_next_time) {
  server.set_responder([&](const recorded_request&) { return error_response(400, "bad request from the test"); });
  auto r = run_tooluse(run_args(2), {}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("2 questions failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bad request from the test"), std::string::npos) << r.err;
  server.set_responder([&](const recorded_request& q) { return model.answer(q); });
  auto again = run_tooluse(run_args(2), {}, dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_lines(result_file()).size(), 2u);
}

}  // namespace
}  // namespace tooluse::testing
