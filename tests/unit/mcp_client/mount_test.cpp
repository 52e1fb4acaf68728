// mounted_server against tooluse's own MCP server (`tooluse mcp serve --stdio`), run as a
// real child process.
#include <gtest/gtest.h>
#include <signal.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>

#include "support/test_support.hpp"
#include "tooluse/mcp/mount.hpp"
#include "unit/mcp_client/log_sink.hpp"

using namespace tooluse;
using namespace std::chrono_literals;

namespace {

using tooluse::testing::log_sink;

class mount_test : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(TOOLUSE_CLI_PATH)) TOOLUSE_PEER_MISSING(std::string("tooluse CLI not built at ") + TOOLUSE_CLI_PATH);
  }
  mcp::server_config local() {
    return {.name = "local",
            .command = {TOOLUSE_CLI_PATH, "mcp", "serve", "--stdio", "--root", root.path().string()}};
  }
  // A server started through sh, which records its pid so a test can kill it.
  mcp::server_config killable() {
    std::string cmd = "echo $$ > '" + (root.path() / "pid").string() + "'; exec '" +
                      std::string(TOOLUSE_CLI_PATH) + "' mcp serve --stdio";
    return {.name = "local", .command = {"/bin/sh", "-c", cmd}};
  }
  int server_pid() { return std::stoi(tooluse::testing::read_file(root.path() / "pid")); }
  std::string call(const std::string& name, json args, bool* is_error = nullptr) {
    call_context ctx;
    auto r = registry.call({.name = name, .arguments = std::move(args)}, ctx);
    if (is_error) *is_error = r.is_error;
    return r.all_text();
  }
  tooluse::testing::temp_dir root;
  tool_registry registry;
  log_sink logs;
};


TEST_F(mount_test, mounts_tools_with_prefixed_names_and_verbatim_schemas) {
  auto m = mcp::mounted_server::mount(registry, local(), {.on_log = logs.fn()});
  ASSERT_TRUE(m) << m.error().message;
  auto entry = registry.find("local__calculator");
  ASSERT_TRUE(entry);
  auto listed = (*m)->connection()->list_tools();
  ASSERT_TRUE(listed);
  const json* original = nullptr;
  for (const auto& t : *listed)
    if (t["name"] == "calculator") original = &t;
  ASSERT_TRUE(original);
  EXPECT_EQ(entry->definition.input_schema, (*original)["inputSchema"]);
  EXPECT_EQ(entry->definition.description, (*original)["description"]);
  EXPECT_EQ(entry->definition.annotations.read_only, true);
  EXPECT_EQ(entry->definition.category, "local");
  EXPECT_EQ((*m)->tool_names().size(), listed->size());
  EXPECT_TRUE(registry.find("local__file_read"));
}

TEST_F(mount_test, forwards_calls_and_keeps_errors) {
  auto m = mcp::mounted_server::mount(registry, local(), {.on_log = logs.fn()});
  ASSERT_TRUE(m) << m.error().message;
  bool is_error = true;
  EXPECT_EQ(call("local__calculator", {{"expression", "6*7"}}, &is_error), "42");
  EXPECT_FALSE(is_error);
  call("local__calculator", {{"expression", "1+"}}, &is_error);
  EXPECT_TRUE(is_error);
  std::ofstream(root.path() / "note.txt") << "hello from the root";
  auto text = call("local__file_read", {{"path", "note.txt"}}, &is_error);
  EXPECT_FALSE(is_error) << text;
  EXPECT_NE(text.find("hello from the root"), std::string::npos);
}

TEST_F(mount_test, include_keeps_only_named_tools) {
  auto m = mcp::mounted_server::mount(registry, local(),
                                      {.include = {"local__calculator"}, .on_log = logs.fn()});
  ASSERT_TRUE(m);
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"local__calculator"}));
}

TEST_F(mount_test, unmount_removes_tools_and_stops_server) {
  auto m = mcp::mounted_server::mount(registry, local(), {.on_log = logs.fn()});
  ASSERT_TRUE(m);
  EXPECT_GT(registry.size(), 0u);
  m->reset();
  EXPECT_EQ(registry.size(), 0u);
}

TEST_F(mount_test, restarts_crashed_server_once_on_next_call) {
  auto m = mcp::mounted_server::mount(registry, killable(), {.on_log = logs.fn()});
  ASSERT_TRUE(m) << m.error().message;
  ASSERT_EQ(::kill(server_pid(), SIGKILL), 0);
  ASSERT_TRUE(logs.wait_for_text("will be restarted on the next call"));
  bool is_error = true;
  EXPECT_EQ(call("local__calculator", {{"expression", "2+2"}}, &is_error), "4");
  EXPECT_FALSE(is_error);
  EXPECT_TRUE(logs.wait_for_text("restarting the server"));
  ASSERT_EQ(::kill(server_pid(), SIGKILL), 0);  // the restarted one wrote its pid too
  ASSERT_TRUE(logs.wait_for_text("it will not be restarted"));
  auto text = call("local__calculator", {{"expression", "2+2"}}, &is_error);
  EXPECT_TRUE(is_error);
  EXPECT_NE(text.find("is down and was not restarted again"), std::string::npos) << text;
  EXPECT_NE(text.find("killed by signal 9"), std::string::npos) << text;
}

TEST_F(mount_test, reports_server_that_cannot_start) {
  auto m = mcp::mounted_server::mount(
      registry, {.name = "ghost", .command = {"tooluse-no-such-server"}}, {.on_log = logs.fn()});
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("cannot start stdio server `ghost`"), std::string::npos)
      << m.error().message;
}

TEST_F(mount_test, reports_server_that_exits_at_once) {
  auto m = mcp::mounted_server::mount(
      registry, {.name = "dies", .command = {"/bin/sh", "-c", "echo 'missing API key' >&2; exit 1"}},
      {.on_log = logs.fn()});
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("missing API key"), std::string::npos) << m.error().message;
}

TEST_F(mount_test, bound_mount_stops_server_with_registry) {
  auto reg = std::make_unique<tool_registry>();
  auto m = mcp::mounted_server::mount(*reg, killable(), {.on_log = logs.fn()});
  ASSERT_TRUE(m);
  mcp::bind_to_registry(*reg, {std::move(*m)});
  const int pid = server_pid();
  EXPECT_EQ(::kill(pid, 0), 0);
  reg.reset();
  EXPECT_NE(::kill(pid, 0), 0);  // stopped and reaped
}

TEST(mounted_tool_name, maps_rejected_characters_and_long_names) {
  EXPECT_EQ(mcp::mounted_tool_name("memory", "read_graph"), "memory__read_graph");
  EXPECT_EQ(mcp::mounted_tool_name("my server", "get/x.y"), "my_server__get_x.y");
  auto long_name = mcp::mounted_tool_name("s", std::string(200, 'a'));
  EXPECT_EQ(long_name.size(), 128u);
  EXPECT_NE(long_name, mcp::mounted_tool_name("s", std::string(201, 'a')));
  EXPECT_TRUE(is_valid_tool_name(long_name));
}

// A minimal MCP server in sh: its first tools/list offers tool `a` and then announces
// tools/list_changed; later lists offer `a` and `b`.
TEST(mounted_server, list_changed_refreshes_mounted_tools) {
  const std::string script = R"sh(n=0
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([^,}]*\).*/\1/p')
  method=$(printf '%s' "$line" | sed -n 's/.*"method":"\([^"]*\)".*/\1/p')
  tool_a='{"name":"a","description":"tool a","inputSchema":{"type":"object","properties":{}}}'
  tool_b='{"name":"b","description":"tool b","inputSchema":{"type":"object","properties":{}}}'
  case "$method" in
    initialize) echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"fake","version":"1"}}}';;
    tools/list) n=$((n+1))
      if [ $n = 1 ]; then
        echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"tools":['"$tool_a"']}}'
        echo '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'
      else
        echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"tools":['"$tool_a"','"$tool_b"']}}'
      fi;;
    notifications/*) ;;
    *) [ -n "$id" ] && echo '{"jsonrpc":"2.0","id":'"$id"',"error":{"code":-32601,"message":"method not found"}}';;
  esac
done)sh";
  tool_registry registry;
  std::mutex m;
  std::condition_variable cv;
  registry.on_change([&](const registry_event&) {
    std::lock_guard lock(m);
    cv.notify_all();
  });
  auto mount = mcp::mounted_server::mount(
      registry, {.name = "fake", .command = {"/bin/sh", "-c", script}},
      {.client = {.protocol_version = "2025-06-18"}, .on_log = [](std::string_view) {}});
  ASSERT_TRUE(mount) << mount.error().message;
  std::unique_lock lock(m);
  EXPECT_TRUE(cv.wait_for(lock, 20s, [&] { return registry.find("fake__b") != nullptr; }));
  EXPECT_TRUE(registry.find("fake__a"));
  lock.unlock();
  EXPECT_EQ((*mount)->tool_names(), (std::vector<std::string>{"fake__a", "fake__b"}));
}

}  // namespace
