// mounted_server's edges with tooluse's own MCP server as a real child: a crashed server whose
// restart fails, no restarts allowed, refreshing a server that is down, calls into a mount
// that was detached from its registry and then unmounted or destroyed, and make_transport for
// an http server whose URL is not http.
#include <gtest/gtest.h>
#include <signal.h>

#include <condition_variable>
#include <filesystem>

#include "support/test_support.hpp"
#include "tooluse/mcp/mount.hpp"
#include "unit/mcp_client/log_sink.hpp"

using namespace tooluse;
using namespace std::chrono_literals;

namespace {

using tooluse::testing::log_sink;

class mount_edges : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(TOOLUSE_CLI_PATH))
      TOOLUSE_PEER_MISSING(std::string("tooluse CLI not built at ") + TOOLUSE_CLI_PATH);
  }
  // A server started through sh that records its pid; once `mark` exists (after the first
  // start) it refuses to start again, saying why on stderr.
  mcp::server_config starts_once() {
    const std::string mark = (root.path() / "started").string();
    const std::string cmd = "if [ -e '" + mark +
                            "' ]; then echo 'second start refused: licence used up' >&2; exit 2; "
                            "fi; touch '" +
                            mark + "'; echo $$ > '" + (root.path() / "pid").string() + "'; exec '" +
                            std::string(TOOLUSE_CLI_PATH) + "' mcp serve --stdio";
    return {.name = "once", .command = {"/bin/sh", "-c", cmd}};
  }
  mcp::server_config local() {
    return {.name = "local", .command = {TOOLUSE_CLI_PATH, "mcp", "serve", "--stdio"}};
  }
  int server_pid() { return std::stoi(tooluse::testing::read_file(root.path() / "pid")); }
  tool_result call(const std::string& name, json args) {
    call_context ctx;
    return registry.call({.name = name, .arguments = std::move(args)}, ctx);
  }
  tooluse::testing::temp_dir root;
  tool_registry registry;
  log_sink logs;
};


TEST_F(mount_edges, a_restart_that_fails_says_why_the_server_went_away_and_why_it_stayed_down) {
  auto m = mcp::mounted_server::mount(registry, starts_once(), {.on_log = logs.fn()});
  ASSERT_TRUE(m) << m.error().message;
  ASSERT_EQ(::kill(server_pid(), SIGKILL), 0);
  ASSERT_TRUE(logs.wait_for_text("will be restarted on the next call"));
  auto r = call("once__calculator", {{"expression", "1+1"}});
  EXPECT_TRUE(r.is_error);
  const std::string text = r.all_text();
  EXPECT_NE(text.find("MCP server \"once\" went away ("), std::string::npos) << text;
  EXPECT_NE(text.find("killed by signal 9"), std::string::npos) << text;
  EXPECT_NE(text.find(") and could not be restarted: "), std::string::npos) << text;
  EXPECT_NE(text.find("second start refused: licence used up"), std::string::npos) << text;
  // The one restart is used up: the next call does not try again.
  auto again = call("once__calculator", {{"expression", "1+1"}});
  EXPECT_TRUE(again.is_error);
  EXPECT_NE(again.all_text().find("is down and was not restarted again"), std::string::npos)
      << again.all_text();
}

TEST_F(mount_edges, with_no_restarts_allowed_a_crash_is_final_and_refresh_fails) {
  mcp::mount_options o{.on_log = logs.fn(), .max_restarts = 0};
  auto cfg = starts_once();
  auto m = mcp::mounted_server::mount(registry, cfg, o);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_TRUE((*m)->refresh());  // while it runs
  ASSERT_EQ(::kill(server_pid(), SIGKILL), 0);
  ASSERT_TRUE(logs.wait_for_text("it will not be restarted"));
  EXPECT_EQ((*m)->connection(), nullptr);
  auto r = call("once__calculator", {{"expression", "1+1"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("MCP server \"once\" is down and was not restarted again"),
            std::string::npos)
      << r.all_text();
  auto refreshed = (*m)->refresh();
  ASSERT_FALSE(refreshed);
  EXPECT_EQ(refreshed.error().code, errc::io_error);
  EXPECT_EQ(refreshed.error().message, "MCP server \"once\" is not connected");
  EXPECT_FALSE(registry.names().empty());  // its tools stay listed, and say it is down
}

TEST_F(mount_edges, a_detached_mount_leaves_its_tools_which_then_say_it_is_gone) {
  auto m = mcp::mounted_server::mount(registry, local(), {.on_log = logs.fn()});
  ASSERT_TRUE(m) << m.error().message;
  const auto names = registry.names();
  ASSERT_FALSE(names.empty());
  (*m)->detach();
  EXPECT_TRUE((*m)->tool_names().empty());
  (*m)->unmount();
  EXPECT_EQ(registry.names(), names);  // detached: unmounting does not touch the registry
  auto r = call("local__calculator", {{"expression", "6*7"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text(), "MCP server \"local\" was unmounted");
  m->reset();  // the mount itself is gone now
  auto gone = call("local__calculator", {{"expression", "6*7"}});
  EXPECT_TRUE(gone.is_error);
  EXPECT_EQ(gone.all_text(), "the MCP server behind this tool was unmounted");
}

TEST_F(mount_edges, unmounting_twice_is_harmless) {
  auto m = mcp::mounted_server::mount(registry, local(), {.on_log = logs.fn()});
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ((*m)->name(), "local");
  ASSERT_NE((*m)->connection(), nullptr);
  (*m)->unmount();
  EXPECT_EQ((*m)->connection(), nullptr);
  EXPECT_TRUE(registry.names().empty());
  (*m)->unmount();
  EXPECT_TRUE(registry.names().empty());
}

TEST(mount_transport, an_http_server_whose_url_is_not_http_is_named) {
  mcp::server_config s{.name = "web",
                       .transport = mcp::server_transport_kind::http,
                       .url = "ftp://example.test/mcp"};
  auto t = mcp::make_transport(s);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, errc::invalid_argument);
  EXPECT_EQ(t.error().message.rfind("server \"web\": ", 0), 0u) << t.error().message;
  EXPECT_NE(t.error().message.find("ftp://example.test/mcp"), std::string::npos);
  s.url = "http://127.0.0.1:9/mcp";  // a good URL: made without connecting
  auto ok = mcp::make_transport(s);
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ((*ok)->describe(), "http://127.0.0.1:9/mcp");
}

}  // namespace
