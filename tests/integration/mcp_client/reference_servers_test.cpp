// server-filesystem and server-memory (from npm) mounted into a tool_registry from an
// mcpServers config, called as tooluse tools.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "npm_peers.hpp"
#include "support/test_support.hpp"
#include "tooluse/mcp/mount.hpp"

using namespace tooluse;

namespace {

tool_result call(tool_registry& reg, const std::string& name, json args) {
  call_context ctx;
  return reg.call({.name = name, .arguments = std::move(args)}, ctx);
}

result<mcp::client_config> config_for(const std::string& server, const json& entry) {
  return mcp::parse_client_config(json{{"mcpServers", {{server, entry}}}});
}

}  // namespace

TEST(server_filesystem, list_read_write_inside_temp_root) {
  TOOLUSE_SKIP_WITHOUT_PEER("filesystem");
  tooluse::testing::temp_dir dir;
  auto root = std::filesystem::canonical(dir.path()).string();
  std::ofstream(root + "/hello.txt") << "hello from tooluse";
  auto config = config_for("fs", {{"command", tooluse::testing::node_binary().string()},
                                  {"args", {tooluse::testing::server_script("filesystem").string(), root}}});
  ASSERT_TRUE(config) << config.error().message;
  tool_registry reg;
  auto mounts = mcp::mount_servers(reg, *config, {.on_log = [](std::string_view) {}});
  ASSERT_TRUE(mounts) << mounts.error().message;
  ASSERT_TRUE(reg.find("fs__read_text_file"));

  auto listed = call(reg, "fs__list_directory", {{"path", root}});
  EXPECT_FALSE(listed.is_error) << listed.all_text();
  EXPECT_NE(listed.all_text().find("hello.txt"), std::string::npos);
  auto read = call(reg, "fs__read_text_file", {{"path", root + "/hello.txt"}});
  EXPECT_EQ(read.all_text(), "hello from tooluse");
  auto wrote = call(reg, "fs__write_file", {{"path", root + "/new.txt"}, {"content", "written"}});
  EXPECT_FALSE(wrote.is_error) << wrote.all_text();
  EXPECT_EQ(tooluse::testing::read_file(root + "/new.txt"), "written");
  auto outside = call(reg, "fs__read_text_file", {{"path", "/etc/hostname"}});
  EXPECT_TRUE(outside.is_error);  // the server refuses paths outside its root
  EXPECT_NE(outside.all_text().find("denied"), std::string::npos) << outside.all_text();
}

TEST(server_memory, create_entities_then_read_graph) {
  TOOLUSE_SKIP_WITHOUT_PEER("memory");
  tooluse::testing::temp_dir dir;
  auto file = (dir.path() / "memory.jsonl").string();
  ::setenv("TOOLUSE_TEST_MEMORY_FILE", file.c_str(), 1);
  // The env value comes from our environment through ${VAR}, as secrets would.
  auto config = config_for("memory", {{"command", tooluse::testing::node_binary().string()},
                                      {"args", {tooluse::testing::server_script("memory").string()}},
                                      {"env", {{"MEMORY_FILE_PATH", "${TOOLUSE_TEST_MEMORY_FILE}"}}}});
  ASSERT_TRUE(config) << config.error().message;
  tool_registry reg;
  auto mounts = mcp::mount_servers(reg, *config, {.on_log = [](std::string_view) {}});
  ASSERT_TRUE(mounts) << mounts.error().message;
  auto created = call(reg, "memory__create_entities",
                      {{"entities", {{{"name", "Ada Lovelace"},
                                      {"entityType", "person"},
                                      {"observations", {"wrote the first program"}}}}}});
  EXPECT_FALSE(created.is_error) << created.all_text();
  auto graph = call(reg, "memory__read_graph", json::object());
  EXPECT_FALSE(graph.is_error) << graph.all_text();
  EXPECT_NE(graph.all_text().find("Ada Lovelace"), std::string::npos) << graph.all_text();
  EXPECT_NE(graph.all_text().find("wrote the first program"), std::string::npos);
  EXPECT_NE(tooluse::testing::read_file(file).find("Ada Lovelace"), std::string::npos);
}
