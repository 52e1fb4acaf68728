// mount reads a server's Tool objects through a wire type: a malformed tool is skipped with a
// log line naming its path (it used to throw a JSON type error out of the mount), the others
// are mounted, and fields a newer revision adds are ignored. The server is a minimal MCP
// server in sh, a real subprocess.
#include <gtest/gtest.h>

#include <mutex>

#include "tooluse/mcp/mount.hpp"
#include "unit/mcp_client/log_sink.hpp"

namespace mount_wire_test {
using namespace tooluse;

namespace {

mcp::server_config sh_server(const std::string& tools_json) {
  const std::string script = R"sh(while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([^,}]*\).*/\1/p')
  method=$(printf '%s' "$line" | sed -n 's/.*"method":"\([^"]*\)".*/\1/p')
  case "$method" in
    initialize) echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}}';;
    tools/list) echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"tools":)sh" + tools_json + R"sh(}}';;
    notifications/*) ;;
    *) [ -n "$id" ] && echo '{"jsonrpc":"2.0","id":'"$id"',"error":{"code":-32601,"message":"method not found"}}';;
  esac
done)sh";
  return {.name = "s", .command = {"/bin/sh", "-c", script}};
}

// log_lines is a log_sink with the mount options these tests use (protocol 2025-06-18).
struct log_lines : tooluse::testing::log_sink {
  mcp::mount_options options() { return {.client = {.protocol_version = "2025-06-18"}, .on_log = fn()}; }
};

TEST(mount_wire, a_malformed_tool_is_skipped_naming_its_path) {
  tool_registry registry;
  log_lines log;
  auto m = mcp::mounted_server::mount(
      registry,
      sh_server(R"([{"name":"a","description":5},)"
                R"({"name":"b","annotations":{"readOnlyHint":"yes"}},)"
                R"({"name":"c","inputSchema":{"type":"object"},"icons":[{"src":"x"}],)"
                R"("annotations":{"title":"C","readOnlyHint":true,"newHint":1},"execution":{}}])"),
      log.options());
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ((*m)->tool_names(), (std::vector<std::string>{"s__c"}));
  EXPECT_TRUE(log.has("skipping a tool: tools[0].description: expected string, got integer 5"));
  EXPECT_TRUE(log.has(
      "skipping a tool: tools[1].annotations.readOnlyHint: expected boolean, got string \"yes\""));
  auto c = registry.find("s__c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->definition.title, "C");
  EXPECT_EQ(c->definition.annotations.read_only, true);
}

}  // namespace
}  // namespace mount_wire_test
