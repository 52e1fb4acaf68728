// client_config: the mcpServers shape, field errors, ${VAR} expansion.
#include <gtest/gtest.h>

#include <fstream>

#include "support/test_support.hpp"
#include "tooluse/mcp/client_config.hpp"

namespace config_parse_test {
using namespace tooluse;

namespace {

mcp::variable_lookup vars(std::map<std::string, std::string> values) {
  return [values](std::string_view name) -> std::optional<std::string> {
    auto it = values.find(std::string(name));
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

result<mcp::client_config> parse(const std::string& text,
                                 std::map<std::string, std::string> values = {}) {
  return mcp::parse_client_config(*parse_json(text), vars(std::move(values)));
}

}  // namespace

TEST(client_config, parses_claude_desktop_shape) {
  auto c = parse(R"({"mcpServers": {
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"],
               "env": {"MEMORY_FILE_PATH": "${HOME}/m.json"}, "cwd": "/tmp"},
    "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
    "off": {"command": "x", "disabled": true}}})",
                 {{"HOME", "/home/u"}, {"TOKEN", "s3cret"}});
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->servers.size(), 3u);
  const auto& m = c->servers[0];
  EXPECT_EQ(m.name, "memory");
  EXPECT_EQ(m.transport, mcp::server_transport_kind::stdio);
  EXPECT_EQ(m.command, (std::vector<std::string>{"npx", "-y", "@modelcontextprotocol/server-memory"}));
  EXPECT_EQ(m.env.at("MEMORY_FILE_PATH"), "/home/u/m.json");
  EXPECT_EQ(m.cwd, "/tmp");
  const auto& r = c->servers[1];
  EXPECT_EQ(r.transport, mcp::server_transport_kind::http);
  EXPECT_EQ(r.url, "https://example.com/mcp");
  EXPECT_EQ(r.headers.at("Authorization"), "Bearer s3cret");
  EXPECT_TRUE(c->servers[2].disabled);
  EXPECT_FALSE(m.disabled);
}

TEST(client_config, accepts_explicit_types) {
  auto c = parse(R"({"mcpServers": {
    "a": {"type": "stdio", "command": "srv"},
    "b": {"type": "http", "url": "http://127.0.0.1:1/mcp"},
    "c": {"type": "streamable-http", "url": "http://127.0.0.1:2/mcp"}}})");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->servers[0].transport, mcp::server_transport_kind::stdio);
  EXPECT_EQ(c->servers[1].transport, mcp::server_transport_kind::http);
  EXPECT_EQ(c->servers[2].transport, mcp::server_transport_kind::http);
}

TEST(client_config, accepts_vscode_servers_key) {
  auto c = parse(R"({"servers": {"a": {"command": "srv"}}})");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->servers.at(0).name, "a");
}

TEST(client_config, errors_name_server_and_field) {
  struct bad {
    const char* text;
    const char* message;
  } cases[] = {
      {R"({"mcpServers": {"m": {"command": "x", "args": "-y pkg"}}})",
       "mcpServers.m.args: expected array, got string \"-y pkg\""},
      {R"({"mcpServers": {"m": {"command": 3}}})", "mcpServers.m.command: expected string, got integer 3"},
      {R"({"mcpServers": {"m": {"command": "x", "env": {"K": 1}}}})",
       "mcpServers.m.env.K: expected string, got integer 1"},
      {R"({"mcpServers": {"m": {"url": "ftp://x"}}})",
       "mcpServers.m.url: must start with http:// or https://, not \"ftp://x\""},
      {R"({"mcpServers": {"m": {}}})",
       "mcpServers.m: needs \"command\" (stdio) or \"url\" (Streamable HTTP)"},
      {R"({"mcpServers": {"m": {"command": "x", "url": "http://a"}}})",
       "mcpServers.m: has both \"command\" and \"url\"; keep one (or set \"type\")"},
      {R"({"mcpServers": {"m": {"type": "stdio", "url": "http://a"}}})",
       "mcpServers.m: missing \"command\" (stdio servers need one)"},
      {R"({"mcpServers": {"m": {"type": "ws", "url": "http://a"}}})",
       "mcpServers.m.type: must be \"stdio\", \"http\" or \"streamable-http\", not \"ws\""},
      {R"({"mcpServers": {"m": {"command": "x", "disabled": "yes"}}})",
       "mcpServers.m.disabled: expected boolean, got string \"yes\""},
      {R"({"mcpServers": []})", "mcpServers: expected an object of servers, got array"},
      {R"({"tools": {}})", "the MCP config has no \"mcpServers\" object"},
  };
  for (const auto& b : cases) {
    auto c = parse(b.text);
    ASSERT_FALSE(c) << b.text;
    EXPECT_EQ(c.error().message, b.message);
  }
}

TEST(client_config, rejects_old_sse_transport) {
  auto c = parse(R"({"mcpServers": {"old": {"type": "sse", "url": "http://a/sse"}}})");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, errc::unsupported);
}

TEST(client_config, unset_variable_names_it_but_not_other_values) {
  auto c = parse(R"({"mcpServers": {"gh": {"command": "x", "env": {"TOKEN": "${GH_TOKEN}"}}}})");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, errc::not_found);
  EXPECT_EQ(c.error().message,
            "mcpServers.gh.env.TOKEN: environment variable GH_TOKEN is not set (set it, or "
            "write ${GH_TOKEN:-default})");
}

TEST(client_config, expands_variables_defaults_and_dollars) {
  auto lookup = vars({{"A", "1"}});
  EXPECT_EQ(*mcp::expand_variables("x${A}y", lookup), "x1y");
  EXPECT_EQ(*mcp::expand_variables("${B:-two}", lookup), "two");
  EXPECT_EQ(*mcp::expand_variables("${A:-two}", lookup), "1");
  EXPECT_EQ(*mcp::expand_variables("cost $5 $$HOME", lookup), "cost $5 $HOME");
  EXPECT_FALSE(mcp::expand_variables("${A", lookup));
  EXPECT_FALSE(mcp::expand_variables("${A-B}", lookup));
}

TEST(client_config, load_reports_file_name) {
  tooluse::testing::temp_dir dir;
  auto path = dir.path() / "mcp.json";
  std::ofstream(path) << "{\"mcpServers\": {\"m\": {\"command\": ";
  auto c = mcp::load_client_config(path);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, errc::parse_error);
  EXPECT_NE(c.error().message.find(path.string()), std::string::npos);
  EXPECT_EQ(mcp::load_client_config(dir.path() / "none.json").error().code, errc::io_error);
}
}  // namespace config_parse_test
