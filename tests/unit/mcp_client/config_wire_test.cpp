// The mcpServers config is decoded through a wire type: a field of the wrong type is named by
// its path from the servers key (`mcpServers.github.command: expected string, got integer 3`),
// odd server names in the bracket form, and settings other clients keep in the same file are
// ignored.
#include <gtest/gtest.h>

#include "tooluse/mcp/client_config.hpp"

namespace tooluse {
namespace {

result<mcp::client_config> parse(const std::string& text) {
  return mcp::parse_client_config(*parse_json(text), [](std::string_view name) {
    return name == "HOME_DIR" ? std::optional<std::string>("/home/u") : std::nullopt;
  });
}

std::string error_of(const std::string& text) {
  auto c = parse(text);
  if (c) return "";
  EXPECT_EQ(c.error().code, errc::invalid_argument) << c.error().message;
  return c.error().message;
}

TEST(client_config_wire, wrong_types_are_named_by_their_path) {
  EXPECT_EQ(error_of(R"({"mcpServers": {"github": {"command": 3}}})"),
            "mcpServers.github.command: expected string, got integer 3");
  EXPECT_EQ(error_of(R"({"mcpServers": {"a": {"command": "x"}, "b": {"command": "y", "args": ["-v", ["n"]]}}})"),
            "mcpServers.b.args[1]: expected string, got array");
  EXPECT_EQ(error_of(R"({"servers": {"w": {"url": "http://x", "auth": {"scope": ["a", "b"]}}}})"),
            "servers.w.auth.scope: expected string, got array");
  EXPECT_EQ(error_of(R"({"mcpServers": {"my server.v2": {"command": "x", "env": {"A": null}}}})"),
            R"(mcpServers["my server.v2"].env.A: expected string, got null)");
}

TEST(client_config_wire, other_clients_settings_are_ignored) {
  auto c = parse(R"({"mcpServers": {"fs": {"command": "npx", "args": ["${HOME_DIR}"],
                       "alwaysAllow": ["read"], "autoApprove": [], "timeout": 60},
                     "web": {"url": "https://x/mcp", "note": {"by": "ide"},
                       "auth": {"clientId": "c", "audience": "x"}}},
                     "globalShortcut": "Ctrl+Space"})");
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->servers.size(), 2u);
  EXPECT_EQ(c->servers[0].command, (std::vector<std::string>{"npx", "/home/u"}));
  EXPECT_EQ(c->servers[1].auth.client_id, "c");
}

}  // namespace
}  // namespace tooluse
