// Durable runs survive kill -9 at every step boundary. A real `tooluse run` with a store
// (SQLite file, or a throwaway PostgreSQL cluster) makes three sequential calls of an MCP tool
// with a side effect (tests/support/servers/durable_tool_server.cpp: it logs every execution and
// applies its effect once per idempotency key). The process is killed at a boundary, observed
// without sleeping: it stops itself there (TOOLUSE_TEST_PAUSE_AT raises SIGSTOP after the step
// is journaled; waitpid sees the stop) or, mid-call, the tool blocks opening a FIFO the test
// opens too. `tooluse runs resume` must then end with the same answer, no model request
// repeated, and every completed call executed exactly once.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "integration/durable/durable_process.hpp"
#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"
#include "support/postgres_fixture.hpp"

namespace tooluse::testing {
namespace {

const std::vector<std::string> texts = {"one", "two", "three"};
const std::string expected_answer = "done: ok one, ok two, ok three";

// model answers from the conversation alone, so a resumed run gets the same replies: call
// append(texts[n]) while fewer than three results came back, then answer with the results.
scripted_response model(const recorded_request& req) {
  json body = req.json_body();
  std::vector<std::string> results;
  for (const auto& m : body["messages"])
    if (m["role"] == "tool") results.push_back(m["content"].get<std::string>());
  fake_turn t;
  if (results.size() < texts.size()) {
    size_t n = results.size();
    t.calls = {
        {"call_" + std::to_string(n + 1), "durable__append", R"({"text":")" + texts[n] + R"("})"}};
  } else {
    t.text = "done: " + results[0] + ", " + results[1] + ", " + results[2];
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

int count(const std::vector<std::string>& v, const std::string& s) {
  return int(std::count(v.begin(), v.end(), s));
}

enum class kill_at {
  none,
  before_model_request,
  after_model_response,
  during_tool_call,
  after_tool_result,
  waiting_for_approval
};

struct crash_case {
  const char* name;
  kill_at at;
  std::string pause;  ///< TOOLUSE_TEST_PAUSE_AT
};

// PrintTo names a case in test listings (not a byte dump).
void PrintTo(const crash_case& c, std::ostream* os) { *os << c.name; }

const crash_case cases[] = {
    {"no_crash", kill_at::none, ""},
    {"before_model_request", kill_at::before_model_request, "model_request:2"},
    {"after_model_response", kill_at::after_model_response, "model_response:2"},
    {"during_tool_call", kill_at::during_tool_call, ""},
    {"after_tool_result", kill_at::after_tool_result, "tool_finished:2"},
    {"waiting_for_approval", kill_at::waiting_for_approval, "approval_waiting:1"},
};

class durable_crash : public ::testing::TestWithParam<std::tuple<std::string, crash_case>> {
 protected:
  static void SetUpTestSuite() { cluster = new postgres_cluster(); }
  static void TearDownTestSuite() { delete cluster; }
  static postgres_cluster* cluster;

  fake_llm_server server;
  temp_dir dir;
  std::map<std::string, std::string> env = {{"OPENAI_API_KEY", "sk-test"}};

  std::string store() {
    if (std::get<0>(GetParam()) == "sqlite") return (dir.path() / "runs.db").string();
    return cluster->url(std::string("crash_") + std::get<1>(GetParam()).name);
  }

  std::vector<std::string> run_args(const std::string& store, const std::string& id, bool confirm) {
    std::ofstream(dir.path() / "mcp.json") << json{
        {"mcpServers",
         {{"durable",
           {{"command", DURABLE_TOOL_SERVER_PATH},
            {"args", {dir.path().string()}}}}}}}.dump();
    std::vector<std::string> a = {"run",
                                  "Append one, two, three.",
                                  "--provider",
                                  "openai",
                                  "--base-url",
                                  server.url("/v1"),
                                  "--model",
                                  "fake-model",
                                  "--no-stream",
                                  "--mcp",
                                  "mcp.json",
                                  "--tools",
                                  "durable__append",
                                  "--store",
                                  store,
                                  "--run-id",
                                  id};
    if (confirm) a.insert(a.end(), {"--confirm", "durable__append"});
    return a;
  }
};
postgres_cluster* durable_crash::cluster = nullptr;

TEST_P(durable_crash, resume_ends_with_the_same_answer_and_runs_completed_calls_once) {
  const auto& [backend, c] = GetParam();
  if (backend == "postgres") TOOLUSE_REQUIRE_POSTGRES(*cluster);
  server.set_responder(model);
  const std::string s = store(), id = std::string("crash-") + c.name;
  const bool approval = c.at == kill_at::waiting_for_approval;
  if (c.at == kill_at::during_tool_call) {
    ASSERT_EQ(::mkfifo((dir.path() / "fifo").c_str(), 0600), 0);
    std::ofstream(dir.path() / "block_text") << "two";
  }
  auto run_env = env;
  if (!c.pause.empty()) run_env["TOOLUSE_TEST_PAUSE_AT"] = c.pause;
  pid_t pid = spawn_tooluse(run_args(s, id, approval), run_env, dir.path(), "first");
  ASSERT_GT(pid, 0);
  if (c.at == kill_at::none) {
    int st = 0;
    waitpid(pid, &st, 0);
    ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << read_file(dir.path() / "first.err");
    EXPECT_EQ(read_file(dir.path() / "first.out"), expected_answer + "\n");
  } else if (c.at == kill_at::during_tool_call) {
    // Opening the FIFO returns once the tool, mid-call after its side effect, opens it too.
    int fd = ::open((dir.path() / "fifo").c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    kill9(pid);
    ::close(fd);  // the orphaned tool returns into a closed pipe and exits
  } else {
    ASSERT_TRUE(wait_stopped(pid)) << read_file(dir.path() / "first.err");
    kill9(pid);
  }
  EXPECT_NE(read_file(dir.path() / "first.err").find("run: " + id), std::string::npos);

  cli_outcome r{.exit_code = 0, .out = read_file(dir.path() / "first.out")};
  for (int round = 0; c.at != kill_at::none && round < 5; ++round) {
    if (approval) {
      auto a = run_tooluse({"runs", "approve", id, "--store", s}, env, dir.path());
      ASSERT_EQ(a.exit_code, 0) << a.err;
    }
    r = run_tooluse({"runs", "resume", id, "--store", s}, env, dir.path());
    if (r.exit_code != 3) break;  // 3: the next call waits for approval
    ASSERT_TRUE(approval) << r.err;
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected_answer + "\n");

  // No model request was sent twice: three tool turns and the answer.
  EXPECT_EQ(server.requests().size(), 4u);
  // Each call's effect happened once, under the key RUN_ID/CALL_ID.
  auto effects = lines(dir.path() / "effects.log");
  ASSERT_EQ(effects.size(), 3u);
  auto execs = lines(dir.path() / "executions.log");
  for (int i = 0; i < 3; ++i) {
    std::string line = id + "/call_" + std::to_string(i + 1) + " " + texts[size_t(i)];
    EXPECT_EQ(effects[size_t(i)], line);
    // The call killed mid-way ran again with the same key; every completed call ran once.
    int expected = c.at == kill_at::during_tool_call && i == 1 ? 2 : 1;
    EXPECT_EQ(count(execs, line), expected) << line;
  }
  EXPECT_EQ(execs.size(), c.at == kill_at::during_tool_call ? 4u : 3u);

  auto shown = run_tooluse({"runs", "show", id, "--store", s, "--json"}, env, dir.path());
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  json j = json::parse(shown.out);
  EXPECT_EQ(j["status"], "done");
  EXPECT_EQ(j["answer"], expected_answer);
}

// Two processes resuming the same run: the second is refused while the first holds the
// run's lock (here stopped right after a journal step), and makes no model request and no
// tool call; the first then finishes the run with every call's effect once.
class durable_resume_lock : public durable_crash {};

TEST_P(durable_resume_lock, a_second_resume_of_a_running_run_is_refused) {
  const auto& backend = std::get<0>(GetParam());
  if (backend == "postgres") TOOLUSE_REQUIRE_POSTGRES(*cluster);
  server.set_responder(model);
  const std::string s = store(), id = "lock-" + backend;
  auto paused = env;
  paused["TOOLUSE_TEST_PAUSE_AT"] = "tool_finished:1";
  pid_t first = spawn_tooluse(run_args(s, id, false), paused, dir.path(), "first");
  ASSERT_GT(first, 0);
  ASSERT_TRUE(wait_stopped(first)) << read_file(dir.path() / "first.err");
  kill9(first);  // a crashed run: its lock went with the process

  paused["TOOLUSE_TEST_PAUSE_AT"] = "tool_finished:1";
  pid_t resumer =
      spawn_tooluse({"runs", "resume", id, "--store", s}, paused, dir.path(), "resumer");
  ASSERT_GT(resumer, 0);
  ASSERT_TRUE(wait_stopped(resumer)) << read_file(dir.path() / "resumer.err");
  const size_t requests = server.requests().size();
  const size_t executions = lines(dir.path() / "executions.log").size();

  auto second = run_tooluse({"runs", "resume", id, "--store", s}, env, dir.path());
  EXPECT_NE(second.exit_code, 0);
  EXPECT_NE(second.err.find("is being run by another process"), std::string::npos) << second.err;
  EXPECT_EQ(server.requests().size(), requests);
  EXPECT_EQ(lines(dir.path() / "executions.log").size(), executions);

  ::kill(resumer, SIGCONT);
  int st = 0;
  ASSERT_EQ(waitpid(resumer, &st, 0), resumer);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << read_file(dir.path() / "resumer.err");
  EXPECT_EQ(read_file(dir.path() / "resumer.out"), expected_answer + "\n");
  auto effects = lines(dir.path() / "effects.log");
  EXPECT_EQ(effects.size(), 3u);
  EXPECT_EQ(lines(dir.path() / "executions.log").size(), 3u);

  // Once it ended, the lock is free again: a resume of the finished run is not refused.
  auto again = run_tooluse({"runs", "resume", id, "--store", s}, env, dir.path());
  EXPECT_EQ(again.err.find("is being run by another process"), std::string::npos) << again.err;
}

const crash_case lock_case = {"resume_lock", kill_at::none, ""};

INSTANTIATE_TEST_SUITE_P(all, durable_resume_lock,
                         ::testing::Combine(::testing::Values("sqlite", "postgres"),
                                            ::testing::Values(lock_case)),
                         [](const auto& info) { return std::get<0>(info.param); });

std::string case_name(const ::testing::TestParamInfo<std::tuple<std::string, crash_case>>& info) {
  return std::get<0>(info.param) + "_" + std::get<1>(info.param).name;
}

INSTANTIATE_TEST_SUITE_P(all, durable_crash,
                         ::testing::Combine(::testing::Values("sqlite", "postgres"),
                                            ::testing::ValuesIn(cases)),
                         case_name);

}  // namespace
}  // namespace tooluse::testing
