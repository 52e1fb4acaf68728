// The many_agents example (examples/many_agents) against the fake model on loopback: every run
// of a few hundred started at once answers, the last line is the JSON the issue pins, and the
// runs' requests share pooled connections (counted where the server accepts them).
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/fake_model.hpp"
#include "support/test_support.hpp"

namespace tooluse::testing {
namespace {

struct outcome {
  int exit_code = -1;
  std::string out, err;
};

outcome run_many_agents(const std::vector<std::string>& args) {
  temp_dir dir;
  std::vector<std::string> argv_s = {TOOLUSE_MANY_AGENTS_PATH};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  auto out_path = dir.path() / "stdout.txt", err_path = dir.path() / "stderr.txt";
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  outcome r;
  char* empty_env[] = {nullptr};  // no proxy or API key from the runner's environment
  if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), empty_env) == 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&fa);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

json last_line_json(const std::string& out) {
  std::string s = out;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  auto j = parse_json(s.substr(s.rfind('\n') + 1));
  return j ? *j : json();
}

void expect_runs_share_connections(bool stream) {
  fake_llm_server server;
  server.keep_alive(true);
  server.record_requests(false);
  std::atomic<long> requests{0};
  server.set_responder(calculator_model(std::chrono::milliseconds(5), &requests));
  std::vector<std::string> args = {"--runs", "200", "--base-url", server.url("/v1"), "--model",
                                   "fake", "--max-connections", "16"};
  if (stream) args.push_back("--stream");
  auto r = run_many_agents(args);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  json j = last_line_json(r.out);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["runs"], 200);
  EXPECT_EQ(j["ok"], 200) << r.out << r.err;
  EXPECT_TRUE(j["wall_s"].is_number());
  EXPECT_GT(j["peak_rss_mb"].get<double>(), 0);
  EXPECT_EQ(requests.load(), 400) << "a tool call, then the answer, for each run";
  EXPECT_GE(server.connections(), 1);
  EXPECT_LE(server.connections(), 16) << "400 requests over at most the 16 connections allowed";
}

TEST(many_agents, two_hundred_runs_at_once_all_answer_over_shared_connections) {
  expect_runs_share_connections(false);
}

TEST(many_agents, streamed_runs_share_connections_too) { expect_runs_share_connections(true); }

TEST(many_agents, a_missing_endpoint_is_refused_with_usage) {
  auto r = run_many_agents({"--runs", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--base-url and --model are required"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tooluse::testing
