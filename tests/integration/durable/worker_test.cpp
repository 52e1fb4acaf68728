// Four `tooluse worker` processes on one PostgreSQL queue run the tool calls of a `tooluse run
// --queue`; one worker is killed with kill -9 in the middle of a call (after the call's side
// effect). Its lease expires, another worker takes the call over with the same idempotency key,
// and the run ends with every call's result: none lost, each effect once.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "integration/durable/durable_process.hpp"
#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"
#include "support/postgres_fixture.hpp"

namespace tooluse::testing::worker_test {
namespace {

constexpr int calls = 12;

// First request: twelve parallel append calls; then the answer lists their results.
scripted_response model(const recorded_request& req) {
  json body = req.json_body();
  std::vector<std::string> results;
  for (const auto& m : body["messages"])
    if (m["role"] == "tool") results.push_back(m["content"].get<std::string>());
  fake_turn t;
  if (results.empty()) {
    for (int i = 1; i <= calls; ++i)
      t.calls.push_back({"call_" + std::to_string(i), "durable__append",
                         R"({"text":"t)" + std::to_string(i) + R"("})"});
  } else {
    t.text = "done:";
    for (const auto& r : results) t.text += " " + r;
  }
  return openai_response(t, false);
}

std::vector<std::string> lines(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

TEST(durable_workers, a_worker_killed_mid_call_loses_no_call_and_repeats_no_effect) {
  postgres_cluster cluster;
  TOOLUSE_REQUIRE_POSTGRES(cluster);
  fake_llm_server server;
  server.set_responder(model);
  temp_dir dir;
  std::string url = cluster.url("workers");
  std::ofstream(dir.path() / "mcp.json") << json{
      {"mcpServers",
       {{"durable",
         {{"command", DURABLE_TOOL_SERVER_PATH},
          {"args", {dir.path().string()}}}}}}}.dump();
  ASSERT_EQ(::mkfifo((dir.path() / "fifo").c_str(), 0600), 0);
  std::ofstream(dir.path() / "block_text") << "t5";
  std::map<std::string, std::string> env = {{"OPENAI_API_KEY", "sk-test"}};

  std::vector<pid_t> workers;
  for (int i = 0; i < 4; ++i) {
    workers.push_back(spawn_tooluse(
        {"worker", "--store", url, "--queue", "q", "--mcp", "mcp.json", "--tools",
         "durable__append", "--lease", "1500ms", "--batch", "1", "--id", "w" + std::to_string(i)},
        env, dir.path(), "worker" + std::to_string(i)));
    ASSERT_GT(workers.back(), 0);
  }
  pid_t run = spawn_tooluse(
      {"run", "Append t1 to t12.", "--provider", "openai", "--base-url", server.url("/v1"),
       "--model", "fake-model", "--no-stream", "--mcp", "mcp.json", "--tools", "durable__append",
       "--store", url, "--queue", "q", "--run-id", "queued-run"},
      env, dir.path(), "run");
  ASSERT_GT(run, 0);

  // The worker running t5 blocks after its side effect; kill it there.
  int fd = ::open((dir.path() / "fifo").c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  pid_t victim = std::stoi(read_file(dir.path() / "blocker_pid"));
  auto it = std::find(workers.begin(), workers.end(), victim);
  ASSERT_NE(it, workers.end()) << "the blocked call runs in pid " << victim;
  kill9(victim);
  workers.erase(it);
  ::close(fd);

  int st = 0;
  waitpid(run, &st, 0);
  for (pid_t w : workers) ::kill(w, SIGTERM);
  for (pid_t w : workers) waitpid(w, nullptr, 0);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << read_file(dir.path() / "run.err");
  std::string answer = read_file(dir.path() / "run.out");
  if (!answer.empty() && answer.back() == '\n') answer.back() = ' ';
  for (int i = 1; i <= calls; ++i)
    EXPECT_NE(answer.find("ok t" + std::to_string(i) + " "), std::string::npos) << answer;

  auto effects = lines(dir.path() / "effects.log");
  auto execs = lines(dir.path() / "executions.log");
  EXPECT_EQ(effects.size(), size_t(calls));
  for (int i = 1; i <= calls; ++i) {
    std::string line = "queued-run/call_" + std::to_string(i) + " t" + std::to_string(i);
    EXPECT_EQ(std::count(effects.begin(), effects.end(), line), 1) << line;
    EXPECT_EQ(std::count(execs.begin(), execs.end(), line), i == 5 ? 2 : 1) << line;
  }
  // The takeover is visible in a surviving worker's log.
  std::string logs;
  for (int i = 0; i < 4; ++i)
    logs += read_file(dir.path() / ("worker" + std::to_string(i) + ".err"));
  EXPECT_NE(logs.find("taking over queued-run/call_5 (attempt 2)"), std::string::npos) << logs;
}

}  // namespace
}  // namespace tooluse::testing
