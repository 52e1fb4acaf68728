// `tooluse mcp login URL` against a local authorization server, then `tooluse mcp call` with the
// stored token (refreshed when expired), then `tooluse mcp logout URL`; the token file is 0600.
// The browser step is played by the test: it reads the printed URL and follows it with GETs.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/cli_process.hpp"
#include "test_oauth_servers.hpp"
#include "tooluse/http/client.hpp"

namespace tooluse::testing {
namespace {

// login_process runs `tooluse mcp login URL --no-browser` with stderr on a pipe.
struct login_process {
  pid_t pid = -1;
  int err_fd = -1;
  std::string err;

  login_process(const std::string& url, const std::filesystem::path& home) {
    int p[2];
    EXPECT_EQ(::pipe(p), 0);
    std::vector<std::string> args = {TOOLUSE_CLI_PATH, "mcp",       "login", url,
                                     "--no-browser",   "--timeout", "60s"};
    std::vector<std::string> env = {"PATH=/usr/bin:/bin", "HOME=" + home.string(),
                                    "XDG_STATE_HOME=" + (home / "state").string()};
    std::vector<char*> argv, envp;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    auto out = (home / "login-stdout.txt").string();
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, p[1], 2);
    posix_spawn_file_actions_addclose(&fa, p[0]);
    EXPECT_EQ(posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data()), 0);
    posix_spawn_file_actions_destroy(&fa);
    ::close(p[1]);
    err_fd = p[0];
  }
  // printed_url reads stderr until the line with the authorization URL.
  std::string printed_url() {
    char buf[1024];
    for (;;) {
      auto at = err.find("\n  http");
      if (at != std::string::npos) {
        auto end = err.find('\n', at + 1);
        if (end != std::string::npos) return err.substr(at + 3, end - at - 3);
      }
      auto n = ::read(err_fd, buf, sizeof buf);
      if (n <= 0) return "";
      err.append(buf, static_cast<std::size_t>(n));
    }
  }
  int wait() {
    char buf[1024];
    ssize_t n;
    while ((n = ::read(err_fd, buf, sizeof buf)) > 0) err.append(buf, static_cast<std::size_t>(n));
    ::close(err_fd);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
};

TEST(cli_login, login_call_refresh_logout) {
  test_oauth_servers servers;
  servers.set_first_expires_in(1);  // expired by the time `mcp call` runs: it must refresh
  temp_dir home;
  login_process login(servers.mcp_url(), home.path());
  std::string url = login.printed_url();
  ASSERT_TRUE(url.starts_with(servers.issuer() + "/authorize?")) << login.err;
  // The browser: the authorization server redirects to the loopback callback.
  auto authz = http::send({.method = "GET", .url = url});
  ASSERT_TRUE(authz) << authz.error().message;
  ASSERT_EQ(authz->status, 302);
  auto callback = authz->header_value("location");
  ASSERT_TRUE(callback && callback->starts_with("http://127.0.0.1:")) << *callback;
  auto done = http::send({.method = "GET", .url = *callback});
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_EQ(done->status, 200);
  ASSERT_EQ(login.wait(), 0) << login.err;
  EXPECT_NE(read_file(home.path() / "login-stdout.txt").find("Logged in to " + servers.mcp_url()),
            std::string::npos);

  auto file = home.path() / "state" / "tooluse" / "mcp-tokens.json";
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto saved = json::parse(read_file(file));
  EXPECT_EQ(saved[servers.mcp_url()]["tokens"]["access_token"], "at-1");
  EXPECT_EQ(saved[servers.mcp_url()]["tokens"]["refresh_token"], "rt-1");

  std::map<std::string, std::string> env = {{"XDG_STATE_HOME", (home.path() / "state").string()}};
  auto call = run_tooluse({"mcp", "call", "--url", servers.mcp_url(), "--protocol", "2025-11-25",
                           "echo", "message=hello"},
                          env, home.path());
  EXPECT_EQ(call.exit_code, 0) << call.err;
  EXPECT_NE(call.out.find("echo: hello"), std::string::npos) << call.out;
  auto grants = servers.grants();
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(grants[1], "refresh_token");
  for (const auto& t : servers.tokens_seen()) EXPECT_NE(t, "at-1");  // refreshed before use
  saved = json::parse(read_file(file));
  EXPECT_EQ(saved[servers.mcp_url()]["tokens"]["access_token"], "at-2");
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // No secret in what the CLI printed.
  EXPECT_EQ(call.err.find("at-2"), std::string::npos);
  EXPECT_EQ(login.err.find("at-1"), std::string::npos);

  auto out = run_tooluse({"mcp", "logout", servers.mcp_url()}, env, home.path());
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("Logged out of"), std::string::npos);
  saved = json::parse(read_file(file));
  EXPECT_FALSE(saved.contains(servers.mcp_url()));
  auto again = run_tooluse({"mcp", "call", "--url", servers.mcp_url(), "--protocol", "2025-11-25",
                            "echo", "message=hello"},
                           env, home.path());
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.err.find("tooluse mcp login"), std::string::npos) << again.err;
}

}  // namespace
}  // namespace tooluse::testing
