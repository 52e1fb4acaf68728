// mcpServers configs beyond config_parse_test.cpp: ${VAR} expansion's edge cases and errors,
// every field of stdio and http servers (cwd, headers, auth), the field errors for each, the
// order of servers, load errors prefixed with the file; split_command's words and errors;
// mounted tool names (separators, the 128-character limit) and which authorizer a server gets.
#include <gtest/gtest.h>

#include <fstream>

#include "support/test_support.hpp"
#include "tooluse/mcp/client_transport.hpp"
#include "tooluse/mcp/mount.hpp"

using namespace tooluse;

namespace {

mcp::variable_lookup vars(std::map<std::string, std::string> v) {
  return [v = std::move(v)](std::string_view name) -> std::optional<std::string> {
    auto it = v.find(std::string(name));
    if (it == v.end()) return std::nullopt;
    return it->second;
  };
}

result<mcp::client_config> parse(const char* text,
                                 const mcp::variable_lookup& lookup = vars({})) {
  return mcp::parse_client_config(json::parse(text), lookup);
}

TEST(expand_variables, replaces_every_occurrence_and_leaves_other_dollars) {
  auto lookup = vars({{"HOME", "/home/ada"}, {"N", "3"}, {"EMPTY", ""}});
  struct row {
    const char* in;
    const char* out;
  } rows[] = {
      {"", ""},
      {"plain", "plain"},
      {"${HOME}/${N}/${HOME}", "/home/ada/3//home/ada"},
      {"[${EMPTY}]", "[]"},                  // set but empty is not unset
      {"${EMPTY:-fallback}", ""},            // ... so the default is not used
      {"${UNSET:-}", ""},                    // an empty default
      {"${UNSET:-a:-b}", "a:-b"},            // the default runs to the brace
      {"${UNSET:-${N}", "${N"},              // a default is not expanded again
      {"$", "$"},                            // a dollar at the end
      {"$HOME", "$HOME"},                    // only the braced form expands
      {"$$${N}", "$3"},
      {"a$$$$b", "a$$b"},
  };
  for (const auto& r : rows) {
    auto got = mcp::expand_variables(r.in, lookup);
    ASSERT_TRUE(got) << r.in << ": " << got.error().message;
    EXPECT_EQ(*got, r.out) << r.in;
  }
}

TEST(expand_variables, errors_name_the_variable_or_the_bad_text) {
  auto lookup = vars({});
  auto unset = mcp::expand_variables("x ${API_KEY} y", lookup);
  ASSERT_FALSE(unset);
  EXPECT_EQ(unset.error().code, errc::not_found);
  EXPECT_EQ(unset.error().message,
            "environment variable API_KEY is not set (set it, or write ${API_KEY:-default})");
  auto open = mcp::expand_variables("Bearer ${TOKEN", lookup);
  ASSERT_FALSE(open);
  EXPECT_EQ(open.error().code, errc::invalid_argument);
  EXPECT_EQ(open.error().message, "unterminated \"${\" in \"Bearer ${TOKEN\"");
  for (auto [text, shown] : {std::pair{"${}", "${}"}, {"${A-B}", "${A-B}"}, {"${ A}", "${ A}"},
                             {"${:-x}", "${}"}}) {
    auto bad = mcp::expand_variables(text, lookup);
    ASSERT_FALSE(bad) << text;
    EXPECT_EQ(bad.error().code, errc::invalid_argument);
    EXPECT_EQ(bad.error().message, std::string("bad variable name \"") + shown + "\"") << text;
  }
  // Without a lookup every variable is unset.
  EXPECT_EQ(mcp::expand_variables("${A:-d}", nullptr).value(), "d");
  EXPECT_EQ(mcp::expand_variables("${A}", nullptr).error().code, errc::not_found);
}

TEST(expand_variables, the_environment_lookup_reads_the_process_environment) {
  ::setenv("TOOLUSE_TEST_CFG_VAR", "from-env", 1);
  auto lookup = mcp::environment_lookup();
  EXPECT_EQ(lookup("TOOLUSE_TEST_CFG_VAR"), "from-env");
  EXPECT_EQ(mcp::expand_variables("${TOOLUSE_TEST_CFG_VAR}", lookup).value(), "from-env");
  ::unsetenv("TOOLUSE_TEST_CFG_VAR");
  EXPECT_EQ(lookup("TOOLUSE_TEST_CFG_VAR"), std::nullopt);
}

TEST(client_config_fields, a_stdio_server_expands_command_args_env_and_cwd) {
  auto c = parse(R"({"mcpServers": {"fs": {
      "command": "${BIN:-npx}", "args": ["-y", "${PKG}", "--root=${HOME}"],
      "env": {"TOKEN": "${SECRET}", "MODE": "ro"}, "cwd": "${HOME}/work"}}})",
                 vars({{"PKG", "@scope/server"}, {"HOME", "/h"}, {"SECRET", "s3"}}));
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->servers.size(), 1u);
  const auto& s = c->servers[0];
  EXPECT_EQ(s.transport, mcp::server_transport_kind::stdio);
  EXPECT_EQ(s.command, (std::vector<std::string>{"npx", "-y", "@scope/server", "--root=/h"}));
  EXPECT_EQ(s.env, (std::map<std::string, std::string>{{"MODE", "ro"}, {"TOKEN", "s3"}}));
  EXPECT_EQ(s.cwd, "/h/work");
  EXPECT_FALSE(s.disabled);
  EXPECT_TRUE(s.url.empty());
}

TEST(client_config_fields, an_http_server_reads_headers_and_every_auth_field) {
  auto c = parse(R"({"mcpServers": {"api": {
      "type": "streamableHttp", "url": "https://${HOST}/mcp",
      "headers": {"X-Team": "${TEAM:-core}"},
      "auth": {"grant": "client_credentials", "clientId": "id-1", "clientSecret": "${CS}",
               "scope": "read write", "privateKeyFile": "/k.pem", "tokenCommand": "gh auth token"}}}})",
                 vars({{"HOST", "example.com"}, {"CS", "shh"}}));
  ASSERT_TRUE(c) << c.error().message;
  const auto& s = c->servers.at(0);
  EXPECT_EQ(s.transport, mcp::server_transport_kind::http);
  EXPECT_EQ(s.url, "https://example.com/mcp");
  EXPECT_EQ(s.headers.at("X-Team"), "core");
  EXPECT_TRUE(s.auth.enabled);
  EXPECT_EQ(s.auth.grant, "client_credentials");
  EXPECT_EQ(s.auth.client_id, "id-1");
  EXPECT_EQ(s.auth.client_secret, "shh");
  EXPECT_EQ(s.auth.scope, "read write");
  EXPECT_EQ(s.auth.private_key_file, "/k.pem");
  EXPECT_EQ(s.auth.token_command, "gh auth token");
  EXPECT_TRUE(s.command.empty());
}

TEST(client_config_fields, auth_false_turns_oauth_off_and_servers_keep_the_file_order) {
  auto c = parse(R"({"mcpServers": {
      "zeta": {"url": "http://127.0.0.1:1/mcp", "auth": false},
      "alpha": {"command": "a", "disabled": true},
      "mid": {"type": "http", "url": "http://x/mcp", "auth": true}}})");
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->servers.size(), 3u);
  EXPECT_EQ(c->servers[0].name, "zeta");
  EXPECT_FALSE(c->servers[0].auth.enabled);
  EXPECT_EQ(c->servers[1].name, "alpha");
  EXPECT_TRUE(c->servers[1].disabled);
  EXPECT_EQ(c->servers[2].name, "mid");
  EXPECT_TRUE(c->servers[2].auth.enabled);
  auto empty = parse(R"({"mcpServers": {}})");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->servers.empty());
}

TEST(client_config_fields, each_bad_field_is_named_with_its_server) {
  struct bad {
    const char* text;
    errc code;
    const char* message;
  } cases[] = {
      {R"([])", errc::invalid_argument, "the MCP config must be a JSON object with \"mcpServers\""},
      {R"({"mcpServers": {"": {"command": "x"}}})", errc::invalid_argument,
       "a server in mcpServers has an empty name"},
      {R"({"mcpServers": {"s": "npx server"}})", errc::invalid_argument,
       "mcpServers.s: expected object, got string \"npx server\""},
      {R"({"mcpServers": {"s": {"type": 1, "command": "x"}}})", errc::invalid_argument,
       "mcpServers.s.type: expected string, got integer 1"},
      {R"({"mcpServers": {"s": {"command": "${NONE:-}"}}})", errc::invalid_argument,
       "mcpServers.s.command: is empty"},
      {R"({"mcpServers": {"s": {"command": "x", "args": ["a", 2]}}})", errc::invalid_argument,
       "mcpServers.s.args[1]: expected string, got integer 2"},
      {R"({"mcpServers": {"s": {"command": "x", "env": ["A=1"]}}})", errc::invalid_argument,
       "mcpServers.s.env: expected object, got array"},
      {R"({"mcpServers": {"s": {"command": "x", "cwd": false}}})", errc::invalid_argument,
       "mcpServers.s.cwd: expected string, got boolean false"},
      {R"({"mcpServers": {"s": {"command": "x", "args": ["${MISSING}"]}}})", errc::not_found,
       "mcpServers.s.args[0]: environment variable MISSING is not set (set it, or write "
       "${MISSING:-default})"},
      {R"({"mcpServers": {"s": {"type": "http", "command": "x"}}})", errc::invalid_argument,
       "mcpServers.s: missing \"url\" (http servers need one)"},
      {R"({"mcpServers": {"s": {"url": "${H:-localhost}/mcp"}}})", errc::invalid_argument,
       "mcpServers.s.url: must start with http:// or https://, not \"localhost/mcp\""},
      {R"({"mcpServers": {"s": {"url": "http://x", "headers": {"A": ["b"]}}}})",
       errc::invalid_argument, "mcpServers.s.headers.A: expected string, got array"},
      {R"({"mcpServers": {"s": {"url": "http://x", "headers": "A: b"}}})", errc::invalid_argument,
       "mcpServers.s.headers: expected object, got string \"A: b\""},
      {R"({"mcpServers": {"s": {"url": "http://x", "headers": {"Authorization": "Bearer ${T"}}}})",
       errc::invalid_argument,
       "mcpServers.s.headers.Authorization: unterminated \"${\" in \"Bearer ${T\""},
      {R"({"mcpServers": {"s": {"url": "http://x", "auth": "oauth"}}})", errc::invalid_argument,
       "mcpServers.s.auth: expected object or false, got string \"oauth\""},
      {R"({"mcpServers": {"s": {"url": "http://x", "auth": {"grant": "password"}}}})",
       errc::invalid_argument,
       "mcpServers.s.auth.grant: must be \"authorization_code\" or \"client_credentials\", not \"password\""},
      {R"({"mcpServers": {"s": {"url": "http://x", "auth": {"clientId": 12}}}})",
       errc::invalid_argument, "mcpServers.s.auth.clientId: expected string, got integer 12"},
      {R"({"mcpServers": {"s": {"url": "http://x", "auth": {"clientSecret": "${CS}"}}}})",
       errc::not_found,
       "mcpServers.s.auth.clientSecret: environment variable CS is not set (set it, or "
       "write ${CS:-default})"},
      {R"({"servers": 3})", errc::invalid_argument, "servers: expected an object of servers, got integer 3"},
  };
  for (const auto& b : cases) {
    auto c = parse(b.text);
    ASSERT_FALSE(c) << b.text;
    EXPECT_EQ(c.error().code, b.code) << b.text;
    EXPECT_EQ(c.error().message, b.message) << b.text;
  }
}

TEST(client_config_fields, the_first_bad_server_stops_the_parse) {
  auto c = parse(R"({"mcpServers": {"good": {"command": "x"}, "bad": {}, "worse": 1}})");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message,
            "mcpServers.bad: needs \"command\" (stdio) or \"url\" (Streamable HTTP)");
}

TEST(client_config_fields, load_prefixes_field_errors_with_the_file_and_reads_a_good_file) {
  tooluse::testing::temp_dir dir;
  auto bad = dir.path() / "bad.json";
  std::ofstream(bad) << R"({"mcpServers": {"m": {"command": "x", "args": "y"}}})";
  auto c = mcp::load_client_config(bad, vars({}));
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, errc::invalid_argument);
  EXPECT_EQ(c.error().message, bad.string() + ": mcpServers.m.args: expected array, got string \"y\"");

  auto good = dir.path() / "good.json";
  std::ofstream(good) << R"({"mcpServers": {"m": {"command": "${B}"}}})";
  auto ok = mcp::load_client_config(good, vars({{"B", "/bin/srv"}}));
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->servers.at(0).command.at(0), "/bin/srv");

  auto missing = mcp::load_client_config(dir.path() / "none.json");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "cannot read MCP config " + (dir.path() / "none.json").string());
}

TEST(split_command, splits_words_like_a_shell_without_expansion) {
  struct row {
    const char* line;
    std::vector<std::string> words;
  } rows[] = {
      {"npx -y @modelcontextprotocol/server-memory", {"npx", "-y", "@modelcontextprotocol/server-memory"}},
      {"  srv\t--a\n--b  ", {"srv", "--a", "--b"}},
      {"srv 'two words' \"and three words\"", {"srv", "two words", "and three words"}},
      {"srv --name='a b'c", {"srv", "--name=a bc"}},
      {"srv ''", {"srv", ""}},                       // an empty quoted word is a word
      {"srv \"\"x", {"srv", "x"}},
      {R"(srv a\ b)", {"srv", "a b"}},               // an escaped space joins
      {R"(srv "say \"hi\"")", {"srv", "say \"hi\""}},  // escapes work in double quotes
      {R"(srv 'a\b')", {"srv", "a\\b"}},             // ... and not in single quotes
      {R"(srv "it's")", {"srv", "it's"}},
      {"srv $HOME ~ *.txt", {"srv", "$HOME", "~", "*.txt"}},
      {R"(srv trailing\)", {"srv", "trailing\\"}},    // a final backslash stays
  };
  for (const auto& r : rows) {
    auto got = mcp::split_command(r.line);
    ASSERT_TRUE(got) << r.line << ": " << got.error().message;
    EXPECT_EQ(*got, r.words) << r.line;
  }
}

TEST(split_command, an_open_quote_or_nothing_to_run_is_an_error_saying_what_to_do) {
  auto q = mcp::split_command("srv 'open");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().code, errc::invalid_argument);
  EXPECT_EQ(q.error().message, "unterminated ' quote in server command `srv 'open`; close the quote");
  auto dq = mcp::split_command("srv \"open");
  ASSERT_FALSE(dq);
  EXPECT_EQ(dq.error().message,
            "unterminated \" quote in server command `srv \"open`; close the quote");
  for (const char* empty : {"", "   ", "\t\n"}) {
    auto e = mcp::split_command(empty);
    ASSERT_FALSE(e) << '[' << empty << ']';
    EXPECT_EQ(e.error().message,
              "empty server command; give the program to run, e.g. `npx -y "
              "@modelcontextprotocol/server-memory`");
  }
}

TEST(mounted_tool_name, the_separator_is_configurable_and_also_mapped) {
  EXPECT_EQ(mcp::mounted_tool_name("gh", "issues.list", "."), "gh.issues.list");
  EXPECT_EQ(mcp::mounted_tool_name("gh", "list", "::"), "gh__list");
  EXPECT_EQ(mcp::mounted_tool_name("gh", "list", ""), "ghlist");
  EXPECT_EQ(mcp::mounted_tool_name("é", "ü"), "______");  // each UTF-8 byte becomes _
  EXPECT_EQ(mcp::mounted_tool_name("a-b", "C_d.9"), "a-b__C_d.9");
}

TEST(mounted_tool_name, names_up_to_128_characters_are_kept_and_longer_ones_hashed) {
  std::string exact = mcp::mounted_tool_name("s", std::string(125, 't'));
  EXPECT_EQ(exact, "s__" + std::string(125, 't'));
  EXPECT_EQ(exact.size(), 128u);
  std::string over = mcp::mounted_tool_name("s", std::string(126, 't'));
  EXPECT_EQ(over.size(), 128u);
  EXPECT_EQ(over.substr(0, 119), ("s__" + std::string(126, 't')).substr(0, 119));
  EXPECT_EQ(over[119], '_');
  EXPECT_EQ(over.find_first_not_of("0123456789abcdef", 120), std::string::npos) << over;
  // Two long names that differ only past the cut stay apart, and the hash is stable.
  std::string a = mcp::mounted_tool_name("s", std::string(150, 't') + "a");
  std::string b = mcp::mounted_tool_name("s", std::string(150, 't') + "b");
  EXPECT_NE(a, b);
  EXPECT_EQ(a, mcp::mounted_tool_name("s", std::string(150, 't') + "a"));
  // The hash is of the name before mapping: "x/y" and "x_y" differ once shortened.
  EXPECT_NE(mcp::mounted_tool_name("s", std::string(150, 't') + "x/y"),
            mcp::mounted_tool_name("s", std::string(150, 't') + "x_y"));
}

TEST(make_authorizer, only_an_http_server_without_a_static_token_gets_one) {
  mcp::server_config stdio{.name = "local", .command = {"srv"}};
  EXPECT_EQ(mcp::make_authorizer(stdio), nullptr);
  mcp::server_config off{.name = "r", .transport = mcp::server_transport_kind::http,
                         .url = "http://127.0.0.1:1/mcp"};
  off.auth.enabled = false;
  EXPECT_EQ(mcp::make_authorizer(off), nullptr);
  mcp::server_config header{.name = "r", .transport = mcp::server_transport_kind::http,
                            .url = "http://127.0.0.1:1/mcp",
                            .headers = {{"authorization", "Bearer x"}}};
  EXPECT_EQ(mcp::make_authorizer(header), nullptr);  // any case of the header name
  tooluse::testing::temp_dir dir;
  mcp::server_config oauth{.name = "r", .transport = mcp::server_transport_kind::http,
                           .url = "http://127.0.0.1:1/mcp"};
  EXPECT_NE(mcp::make_authorizer(oauth, (dir.path() / "tokens.json").string()), nullptr);
  oauth.auth.token_command = "echo tok";
  EXPECT_NE(mcp::make_authorizer(oauth), nullptr);
}

TEST(make_transport, a_stdio_server_without_a_command_is_named) {
  auto t = mcp::make_transport({.name = "empty"});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, errc::invalid_argument);
  EXPECT_EQ(t.error().message, "server \"empty\" has no command");
  auto blank = mcp::make_transport({.name = "blank", .command = {""}});
  ASSERT_FALSE(blank);
  EXPECT_EQ(blank.error().message, "server \"blank\" has no command");
}

}  // namespace
