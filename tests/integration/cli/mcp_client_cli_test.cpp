// `tooluse mcp list|call` against tooluse's own server, through the real binaries: over stdio
// (--server) and over Streamable HTTP (`mcp serve --http` with a bearer --token, reached with
// --url and --header). What list prints (text and --json), how call shows results and errors,
// and the usage errors of the flags that build the server's address.
#include <gtest/gtest.h>

#include <memory>

#include "support/cli_process.hpp"
#include "tooluse/json.hpp"

namespace tooluse::testing {
namespace {

const std::string stdio_server =
    std::string(TOOLUSE_CLI_PATH) + " mcp serve --stdio --tools calculator,datetime";

class mcp_cli : public ::testing::Test {
 protected:
  cli_outcome tooluse(const std::vector<std::string>& args) { return run_tooluse(args, {}, dir.path()); }
  temp_dir dir;
};

TEST_F(mcp_cli, list_prints_each_tool_with_its_parameters_and_first_line) {
  auto r = tooluse({"mcp", "list", "-q", "--server", stdio_server});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines;
  for (size_t at = 0, nl; (nl = r.out.find('\n', at)) != std::string::npos; at = nl + 1)
    lines.push_back(r.out.substr(at, nl - at));
  ASSERT_EQ(lines.size(), 2u) << r.out;
  auto calc = lines[0].starts_with("calculator") ? lines[0] : lines[1];
  EXPECT_EQ(calc.rfind("calculator(expression)  ", 0), 0u) << calc;
  auto dt = lines[0].starts_with("datetime") ? lines[0] : lines[1];
  EXPECT_EQ(dt.rfind("datetime(", 0), 0u) << dt;
}

TEST_F(mcp_cli, list_json_is_the_servers_tool_array) {
  auto r = tooluse({"mcp", "list", "--json", "--server", stdio_server, "--protocol", "2025-11-25"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json tools = json::parse(r.out);
  ASSERT_TRUE(tools.is_array());
  ASSERT_EQ(tools.size(), 2u);
  for (const auto& t : tools) {
    EXPECT_TRUE(t["name"] == "calculator" || t["name"] == "datetime") << t;
    EXPECT_EQ(t["inputSchema"]["type"], "object") << t;
    EXPECT_TRUE(t["description"].is_string()) << t;
  }
}

TEST_F(mcp_cli, call_shows_tool_errors_with_exit_1_and_unknown_tools_too) {
  auto err = tooluse({"mcp", "call", "--server", stdio_server, "--json", "calculator",
                      "expression=1/0"});
  EXPECT_EQ(err.exit_code, 1);
  json r = json::parse(err.out);
  EXPECT_EQ(r["isError"], true);
  EXPECT_EQ(r["content"][0]["type"], "text");
  EXPECT_FALSE(r["content"][0]["text"].get<std::string>().empty());

  // A mistyped tool is answered with the nearest one the server has (exit 2, as `tools call`).
  auto unknown = tooluse({"mcp", "call", "-q", "--server", stdio_server, "calculater", "x=1"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.out, "");
  EXPECT_EQ(unknown.err.rfind("tooluse: the server has no tool \"calculater\"; did you mean "
                              "\"calculator\"?\nIts tools: ",
                              0),
            0u)
      << unknown.err;

  // A tool the server does not offer (--tools left it out) is not callable either.
  auto hidden = tooluse({"mcp", "call", "-q", "--server", stdio_server, "text_stats", "text=x"});
  EXPECT_EQ(hidden.exit_code, 2);
  EXPECT_EQ(hidden.err.rfind("tooluse: the server has no tool \"text_stats\"", 0), 0u)
      << hidden.err;
}

TEST_F(mcp_cli, call_arguments_that_are_not_an_object_are_a_usage_error) {
  auto array = tooluse({"mcp", "call", "-q", "--server", stdio_server, "calculator", "42"});
  EXPECT_EQ(array.exit_code, 2);
  EXPECT_EQ(array.err.rfind("tooluse: mcp call calculator: ", 0), 0u) << array.err;
  auto pair = tooluse({"mcp", "call", "-q", "--server", stdio_server, "calculator", "expression"});
  EXPECT_EQ(pair.exit_code, 2);
  EXPECT_NE(pair.err.find("key=value"), std::string::npos) << pair.err;
}

// Regression: --env (and --header) took every word after it, the tool name included.
TEST_F(mcp_cli, a_repeatable_flag_takes_one_value_and_leaves_the_tool_and_arguments) {
  auto r = tooluse({"mcp", "call", "-q", "--server", stdio_server, "--env", "A=1", "--env", "B=2",
                    "calculator", "expression=6*7"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "42\n");
}

TEST_F(mcp_cli, address_flags_are_checked_before_anything_starts) {
  auto both = tooluse({"mcp", "list", "--server", stdio_server, "--url", "http://127.0.0.1:1/mcp"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_EQ(both.err,
            "tooluse: mcp list: give exactly one of --server 'CMD ARGS' and --url URL\n");
  auto neither = tooluse({"mcp", "call", "calculator"});
  EXPECT_EQ(neither.exit_code, 2);
  EXPECT_EQ(neither.err,
            "tooluse: mcp call: give exactly one of --server 'CMD ARGS' and --url URL\n");
  auto header = tooluse({"mcp", "list", "--url", "http://127.0.0.1:1/mcp", "--header", "NoColon"});
  EXPECT_EQ(header.exit_code, 2);
  EXPECT_EQ(header.err, "tooluse: mcp list: --header needs 'Name: value', got \"NoColon\"\n");
  auto empty_name = tooluse({"mcp", "list", "--url", "http://127.0.0.1:1/mcp", "--header", ": v"});
  EXPECT_EQ(empty_name.exit_code, 2);
  auto env = tooluse({"mcp", "list", "--server", stdio_server, "--env", "=value"});
  EXPECT_EQ(env.exit_code, 2);
  EXPECT_EQ(env.err, "tooluse: mcp list: --env needs NAME=value, got \"=value\"\n");
  auto quote = tooluse({"mcp", "list", "--server", "server 'unterminated"});
  EXPECT_EQ(quote.exit_code, 2);
  EXPECT_EQ(quote.err.rfind("tooluse: mcp list: --server: ", 0), 0u) << quote.err;
  auto blank = tooluse({"mcp", "list", "--server", "   "});
  EXPECT_EQ(blank.exit_code, 2);
  EXPECT_NE(blank.err.find("empty server command"), std::string::npos) << blank.err;
  // A URL without a scheme is refused with the fix, as --base-url is.
  auto no_scheme = tooluse({"mcp", "list", "--url", "127.0.0.1:3000/mcp"});
  EXPECT_EQ(no_scheme.exit_code, 2);
  EXPECT_EQ(no_scheme.err,
            "tooluse: mcp list: --url \"127.0.0.1:3000/mcp\" has no http:// or "
            "https://; add it, e.g. http://127.0.0.1:3000/mcp\n");
}

TEST_F(mcp_cli, a_stdio_server_that_exits_at_once_fails_with_1) {
  auto r = tooluse({"mcp", "list", "-q", "--server", "/bin/false", "--timeout", "20s"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("tooluse: ", 0), 0u) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(mcp_cli, serve_usage_errors_name_the_bad_address) {
  auto no_port = tooluse({"mcp", "serve", "--http", "localhost"});
  EXPECT_EQ(no_port.exit_code, 2);
  EXPECT_EQ(no_port.err, "tooluse: mcp serve: --http needs HOST:PORT, e.g. 127.0.0.1:8080\n");
  auto bad_port = tooluse({"mcp", "serve", "--http", "127.0.0.1:99999"});
  EXPECT_EQ(bad_port.exit_code, 2);
  EXPECT_EQ(bad_port.err, "tooluse: mcp serve: bad port in \"127.0.0.1:99999\"\n");
  auto word_port = tooluse({"mcp", "serve", "--http", "127.0.0.1:http"});
  EXPECT_EQ(word_port.exit_code, 2);
  auto oauth = tooluse({"mcp", "serve", "--http", "127.0.0.1:0", "--oauth-issuer",
                        "http://127.0.0.1:1"});
  EXPECT_EQ(oauth.exit_code, 2);
  EXPECT_EQ(oauth.err,
            "tooluse: mcp serve: --oauth-issuer needs a fixed port or --oauth-resource URL\n");
}

// The HTTP server as a background process: its endpoint comes from its log line.
class mcp_http_cli : public mcp_cli {
 protected:
  void SetUp() override {
    server_ = std::make_unique<background_tooluse>(
        std::vector<std::string>{"mcp", "serve", "--http", "127.0.0.1:0", "--tools", "calculator",
                                 "--token", "s3cret"},
        dir.path());
    std::string line = server_->wait_for_line("MCP endpoint ");
    auto at = line.find("http://");
    ASSERT_NE(at, std::string::npos) << server_->stderr_so_far();
    url_ = line.substr(at);
  }
  std::unique_ptr<background_tooluse> server_;
  std::string url_;
};

TEST_F(mcp_http_cli, list_and_call_over_http_with_the_bearer_token) {
  auto list = tooluse({"mcp", "list", "--url", url_, "--header", "Authorization: Bearer s3cret"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(list.out.rfind("calculator(expression)", 0), 0u) << list.out;
  auto call = tooluse({"mcp", "call", "--url", url_, "--header", "Authorization:Bearer s3cret",
                       "calculator", "expression=2**10"});
  ASSERT_EQ(call.exit_code, 0) << call.err;
  EXPECT_EQ(call.out, "1024\n");
  auto json_call = tooluse({"mcp", "call", "--url", url_, "--header", "Authorization: Bearer s3cret",
                            "--json", "calculator", R"({"expression":"3*3"})"});
  ASSERT_EQ(json_call.exit_code, 0) << json_call.err;
  EXPECT_EQ(json::parse(json_call.out)["content"][0]["text"], "9");
}

TEST_F(mcp_http_cli, a_url_without_a_path_suggests_the_mcp_path) {
  std::string origin = url_.substr(0, url_.find('/', url_.find("://") + 3));
  ASSERT_NE(origin, url_);
  auto r = tooluse({"mcp", "list", "--url", origin, "--header", "Authorization: Bearer s3cret",
                    "--timeout", "20s"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("\nThe URL has no path; MCP servers usually answer at one: try --url " +
                       origin + "/mcp\n"),
            std::string::npos)
      << r.err;
}

TEST_F(mcp_http_cli, a_missing_or_wrong_token_fails_with_1) {
  auto none = tooluse({"mcp", "list", "--url", url_, "--timeout", "20s"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_EQ(none.out, "");
  EXPECT_NE(none.err.find("requires authorization"), std::string::npos) << none.err;
  auto wrong = tooluse({"mcp", "call", "--url", url_, "--header", "Authorization: Bearer nope",
                        "calculator", "expression=1"});
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_EQ(wrong.out, "");
}

}  // namespace
}  // namespace tooluse::testing
