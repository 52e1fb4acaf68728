// Stdio MCP servers and what they get of ours: only an allowlist of environment variables (no
// API keys) plus their entry's `env`; with "sandbox", a real sandbox (bubblewrap, seccomp,
// rlimits) whose limits are named when one stops the server.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "support/test_support.hpp"
#include "tooluse/mcp/client_config.hpp"
#include "tooluse/mcp/stdio_client_transport.hpp"
#include "tooluse/sandbox/check.hpp"
#include "unit/mcp_client/stdio_recorder.hpp"

namespace stdio_sandbox_test {
using namespace tooluse;

namespace {
using tooluse::testing::recorder;
using tooluse::testing::shell;

// keys sets the host's API keys for one test.
struct keys {
  keys() {
    ::setenv("OPENAI_API_KEY", "sk-openai-host-secret", 1);
    ::setenv("ANTHROPIC_API_KEY", "sk-ant-host-secret", 1);
  }
  ~keys() {
    ::unsetenv("OPENAI_API_KEY");
    ::unsetenv("ANTHROPIC_API_KEY");
  }
};

const char* const print_env = "env >&2; echo done >&2; exec cat >/dev/null";

void sandbox_or_skip() {
  static const auto report = sandbox::check();
  if (!report.usable) TOOLUSE_PEER_MISSING("the sandbox does not work here (tooluse sandbox check)");
}

TEST(stdio_server_environment, a_server_gets_only_the_allowlist_and_its_env) {
  keys k;
  recorder r;
  auto o = shell(print_env, r);
  o.env = {{"MODE", "ro"}};
  mcp::stdio_client_transport t(o);
  ASSERT_TRUE(t.start(r.handlers()));
  ASSERT_TRUE(r.wait([&] { return !r.logs.empty() && r.logs.back() == "done"; }));
  t.close();
  EXPECT_FALSE(r.logged("OPENAI_API_KEY"));
  EXPECT_FALSE(r.logged("ANTHROPIC_API_KEY"));
  EXPECT_FALSE(r.logged("sk-"));
  EXPECT_TRUE(r.logged("MODE=ro"));
  EXPECT_TRUE(r.logged("PATH="));
  for (const auto& line : r.logs) {
    if (line == "done") continue;
    const std::string name = line.substr(0, line.find('='));
    // sh itself adds PWD (and may add OLDPWD, SHLVL, _); nothing else of ours.
    EXPECT_TRUE(name == "HOME" || name == "LOGNAME" || name == "PATH" || name == "SHELL" ||
                name == "TERM" || name == "USER" || name == "MODE" || name == "PWD" ||
                name == "OLDPWD" || name == "SHLVL" || name == "_")
        << line;
  }
}

TEST(stdio_server_environment, more_variables_pass_only_when_named) {
  keys k;
  recorder r;
  auto o = shell(print_env, r);
  o.inherit_env.push_back("OPENAI_API_KEY");
  mcp::stdio_client_transport t(o);
  ASSERT_TRUE(t.start(r.handlers()));
  ASSERT_TRUE(r.wait([&] { return !r.logs.empty() && r.logs.back() == "done"; }));
  t.close();
  EXPECT_TRUE(r.logged("OPENAI_API_KEY=sk-openai-host-secret"));
  EXPECT_FALSE(r.logged("ANTHROPIC_API_KEY"));
}

TEST(stdio_server_sandbox, a_sandboxed_server_sees_nothing_of_ours) {
  sandbox_or_skip();
  keys k;
  tooluse::testing::temp_dir dir;
  std::ofstream(dir.path() / "outside.txt") << "keep";
  std::filesystem::create_directories(dir.path() / "work");
  recorder r;
  auto o = shell(
      "id -u >&2; ls /root /home 2>&1 | cat >&2; echo x > ../outside.txt 2>/dev/null; env >&2; "
      "python3 -c \"import socket; socket.create_connection(('1.1.1.1', 80), timeout=1)\" 2>&1 "
      "| tail -1 >&2; echo done >&2; exec cat >/dev/null",
      r);
  o.cwd = (dir.path() / "work").string();
  o.env = {{"MODE", "ro"}};
  o.sandbox = sandbox::policy{};
  mcp::stdio_client_transport t(o);
  ASSERT_TRUE(t.start(r.handlers()));
  ASSERT_TRUE(r.wait([&] { return !r.logs.empty() && r.logs.back() == "done"; })) << r.logs.size();
  t.close();
  EXPECT_FALSE(r.logged("sk-"));
  EXPECT_FALSE(r.logged("USER="));  // inside, not even the allowlist: only PATH, HOME, LANG, env
  EXPECT_TRUE(r.logged("MODE=ro"));
  EXPECT_TRUE(r.logged("1000"));
  EXPECT_TRUE(r.logged("/root': No such file or directory"));
  EXPECT_TRUE(r.logged("Network is unreachable"));
  EXPECT_EQ(tooluse::testing::read_file(dir.path() / "outside.txt"), "keep");
}

TEST(stdio_server_sandbox, a_server_stopped_by_a_limit_is_reported_with_its_name) {
  sandbox_or_skip();
  recorder r;
  tooluse::testing::temp_dir dir;
  auto o = shell("while :; do :; done", r);
  o.cwd = dir.path().string();
  o.sandbox = sandbox::policy{.cpu_seconds = 1};
  mcp::stdio_client_transport t(o);
  ASSERT_TRUE(t.start(r.handlers()));
  ASSERT_TRUE(r.wait([&] { return r.closed.has_value(); }));
  EXPECT_NE(r.closed->message.find("the cpu time limit (1 s) was reached"), std::string::npos)
      << r.closed->message;
}

TEST(stdio_server_sandbox, tooluse_mcp_server_runs_in_the_sandbox) {
  sandbox_or_skip();
  if (!std::filesystem::exists(TOOLUSE_CLI_PATH)) TOOLUSE_PEER_MISSING(std::string("tooluse CLI not built at ") + TOOLUSE_CLI_PATH);
  recorder r;
  tooluse::testing::temp_dir dir;
  // The sanitized build reserves terabytes of address space for its shadow memory, so the
  // address-space limit is off for this server; the other limits hold.
  mcp::stdio_client_transport t({.command = {TOOLUSE_CLI_PATH, "mcp", "serve", "--stdio"},
                                 .cwd = dir.path().string(),
                                 .name = "tooluse",
                                 .on_log = r.logger(),
                                 .sandbox = sandbox::policy{.memory_limit_mb = 0}});
  ASSERT_TRUE(t.start(r.handlers()));
  json init = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
               {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                           {"clientInfo", {{"name", "test"}, {"version", "1"}}}}}};
  ASSERT_TRUE(t.send(init));
  ASSERT_TRUE(r.wait([&] { return !r.messages.empty() || r.closed; })) << r.logs.size();
  ASSERT_FALSE(r.messages.empty()) << (r.closed ? r.closed->message : "");
  EXPECT_TRUE(r.messages[0]["result"].contains("serverInfo"));
  t.close();
}

TEST(stdio_server_sandbox, the_config_reads_sandbox_true_or_a_policy) {
  auto c = mcp::parse_client_config(json::parse(R"({"mcpServers": {
      "a": {"command": "x", "sandbox": true},
      "b": {"command": "x", "sandbox": {"memory_limit_mb": 64, "network": false, "write": ["/srv/out"]}},
      "c": {"command": "x", "sandbox": false},
      "d": {"command": "x"}}})"));
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->servers.size(), 4u);
  ASSERT_TRUE(c->servers[0].sandbox);
  EXPECT_EQ(c->servers[0].sandbox->memory_limit_mb, 512u);
  ASSERT_TRUE(c->servers[1].sandbox);
  EXPECT_EQ(c->servers[1].sandbox->memory_limit_mb, 64u);
  EXPECT_EQ(c->servers[1].sandbox->write_paths.at(0), "/srv/out");
  EXPECT_FALSE(c->servers[2].sandbox);
  EXPECT_FALSE(c->servers[3].sandbox);
}

TEST(stdio_server_sandbox, config_errors_name_the_field) {
  auto bad = mcp::parse_client_config(json::parse(R"({"mcpServers": {"s": {"command": "x", "sandbox": {"cpu_seconds": -1}}}})"));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "mcpServers.s.sandbox.cpu_seconds: expected a non-negative integer");
  auto http = mcp::parse_client_config(json::parse(R"({"mcpServers": {"h": {"url": "http://x", "sandbox": true}}})"));
  ASSERT_FALSE(http);
  EXPECT_NE(http.error().message.find("mcpServers.h.sandbox: applies to stdio servers only"), std::string::npos)
      << http.error().message;
}

}  // namespace
}  // namespace stdio_sandbox_test
