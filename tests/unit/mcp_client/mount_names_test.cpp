// Mounted names against what is already in the registry, with minimal MCP servers in sh: two
// tools of one server that map to one name, a server tool whose name a local tool or another
// server already holds (found by this test: the later one silently replaced it, and unmounting
// the later server then removed the earlier one's tool), `include`, a custom separator, and
// mount_servers skipping disabled servers and naming the server that fails.
#include <gtest/gtest.h>

#include <mutex>

#include "tooluse/mcp/mount.hpp"
#include "unit/mcp_client/log_sink.hpp"

using namespace tooluse;

namespace {

// sh_server is an MCP server in sh offering `tools` (names); tools/call answers with
// "<label>:<tool name>".
mcp::server_config sh_server(const std::string& name, const std::vector<std::string>& tools,
                             const std::string& label) {
  std::string list;
  for (const auto& t : tools)
    list += std::string(list.empty() ? "" : ",") + R"({"name":")" + t +
            R"(","inputSchema":{"type":"object","properties":{}}})";
  const std::string script = R"sh(while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([^,}]*\).*/\1/p')
  method=$(printf '%s' "$line" | sed -n 's/.*"method":"\([^"]*\)".*/\1/p')
  tool=$(printf '%s' "$line" | sed -n 's/.*"name":"\([^"]*\)".*/\1/p')
  case "$method" in
    initialize) echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}}';;
    tools/list) echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"tools":[)sh" + list + R"sh(]}}';;
    tools/call) echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"content":[{"type":"text","text":")sh" +
                             label + R"sh(:'"$tool"'"}]}}';;
    notifications/*) ;;
    *) [ -n "$id" ] && echo '{"jsonrpc":"2.0","id":'"$id"',"error":{"code":-32601,"message":"method not found"}}';;
  esac
done)sh";
  return {.name = name, .command = {"/bin/sh", "-c", script}};
}

// log_lines is a log_sink with the mount options these tests use (protocol 2025-06-18).
struct log_lines : tooluse::testing::log_sink {
  mcp::mount_options options() { return {.client = {.protocol_version = "2025-06-18"}, .on_log = fn()}; }
};

std::string call(tool_registry& registry, const std::string& name) {
  call_context ctx;
  return registry.call({.name = name, .arguments = json::object()}, ctx).all_text();
}

TEST(mount_names, two_tools_of_one_server_mapping_to_one_name_keep_the_first) {
  tool_registry registry;
  log_lines log;
  auto m = mcp::mounted_server::mount(registry, sh_server("s", {"get/x", "get_x", "ok"}, "S"),
                                      log.options());
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ((*m)->tool_names(), (std::vector<std::string>{"s__get_x", "s__ok"}));
  EXPECT_EQ(call(registry, "s__get_x"), "S:get/x");
  EXPECT_TRUE(log.has("skipping tool \"get_x\": its name \"s__get_x\" is taken"));
}

TEST(mount_names, a_local_tool_with_the_mounted_name_is_kept) {
  tool_registry registry;
  registry.add({.name = "s__ok", .description = "local"},
               [](const json&, call_context&) { return tool_result::text("local"); });
  log_lines log;
  auto m = mcp::mounted_server::mount(registry, sh_server("s", {"ok", "other"}, "S"), log.options());
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ((*m)->tool_names(), (std::vector<std::string>{"s__other"}));
  EXPECT_EQ(call(registry, "s__ok"), "local");
  EXPECT_TRUE(log.has("skipping tool \"ok\": its name \"s__ok\" is taken"));
  (*m)->unmount();
  ASSERT_NE(registry.find("s__ok"), nullptr);  // unmounting leaves what it did not mount
  EXPECT_EQ(call(registry, "s__ok"), "local");
  EXPECT_EQ(registry.find("s__other"), nullptr);
}

TEST(mount_names, a_second_server_cannot_take_a_name_the_first_mounted) {
  tool_registry registry;
  log_lines log;
  // "a" + "__" + "b__c" and "a__b" + "__" + "c" are both "a__b__c".
  auto first = mcp::mounted_server::mount(registry, sh_server("a", {"b__c"}, "A"), log.options());
  ASSERT_TRUE(first) << first.error().message;
  auto second = mcp::mounted_server::mount(registry, sh_server("a__b", {"c", "d"}, "B"), log.options());
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ((*second)->tool_names(), (std::vector<std::string>{"a__b__d"}));
  EXPECT_EQ(call(registry, "a__b__c"), "A:b__c");
  (*second)->unmount();
  EXPECT_EQ(call(registry, "a__b__c"), "A:b__c");  // still the first server's
  EXPECT_EQ((*first)->tool_names(), (std::vector<std::string>{"a__b__c"}));
}

TEST(mount_names, include_and_separator_shape_the_mounted_set) {
  tool_registry registry;
  log_lines log;
  auto options = log.options();
  options.separator = ".";
  options.include = {"gh.list", "gh.missing"};
  auto m = mcp::mounted_server::mount(registry, sh_server("gh", {"list", "create", "delete"}, "G"),
                                      options);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ((*m)->tool_names(), (std::vector<std::string>{"gh.list"}));
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"gh.list"}));
  EXPECT_EQ(call(registry, "gh.list"), "G:list");
  EXPECT_EQ((*m)->name(), "gh");
}

TEST(mount_servers, skips_disabled_servers_and_names_the_one_that_fails) {
  tool_registry registry;
  log_lines log;
  mcp::client_config config;
  config.servers.push_back(sh_server("one", {"t"}, "1"));
  config.servers.push_back(sh_server("off", {"t"}, "X"));
  config.servers.back().disabled = true;
  auto ok = mcp::mount_servers(registry, config, log.options());
  ASSERT_TRUE(ok) << ok.error().message;
  ASSERT_EQ(ok->size(), 1u);
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"one__t"}));

  auto off = mcp::mounted_server::mount(registry, config.servers[1], log.options());
  ASSERT_FALSE(off);
  EXPECT_EQ(off.error().code, errc::invalid_argument);
  EXPECT_EQ(off.error().message, "MCP server \"off\" is disabled");

  tool_registry other;
  mcp::client_config broken;
  broken.servers.push_back(sh_server("fine", {"t"}, "F"));
  broken.servers.push_back({.name = "gone", .command = {"/nonexistent/tooluse-test-server"}});
  auto failed = mcp::mount_servers(other, broken, log.options());
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().message.rfind("MCP server \"gone\": ", 0), 0u) << failed.error().message;
  EXPECT_EQ(other.find("fine__t"), nullptr);  // the servers mounted before it are unmounted
}

}  // namespace
