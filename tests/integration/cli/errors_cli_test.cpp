// The CLI's one error path (apps/tooluse/errors.cpp) through the real binary: the parser's
// mistakes said in the CLI's words with the command's usage, a bare command group listing its
// subcommands, a group flag after the subcommand, invalid JSON shown where it breaks,
// unusable OpenTelemetry settings warned about, `tools call --timeout`,
// and the messages that name the fix (schema export, --max-cost help).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

class errors_cli : public ::testing::Test {
 protected:
  cli_outcome tooluse(const std::vector<std::string>& args,
                      const std::map<std::string, std::string>& env = {}) {
    return run_tooluse(args, env, dir.path());
  }
  temp_dir dir;
};

TEST_F(errors_cli, a_bare_group_lists_its_subcommands) {
  auto top = tooluse({});
  EXPECT_EQ(top.exit_code, 2);
  EXPECT_EQ(top.out, "");
  EXPECT_EQ(top.err.rfind("tooluse: \"tooluse\" needs a subcommand\n\nUsage: tooluse ", 0), 0u)
      << top.err;
  for (const char* line : {"\n  tools  ", "\n  run  ", "\n  runs  ", "\n  mcp  "})
    EXPECT_NE(top.err.find(line), std::string::npos) << line << "\n" << top.err;
  EXPECT_NE(top.err.find("\nRun 'tooluse COMMAND --help' for a command's options.\n"),
            std::string::npos)
      << top.err;

  auto tools = tooluse({"tools"});
  EXPECT_EQ(tools.exit_code, 2);
  EXPECT_EQ(tools.out, "");
  EXPECT_EQ(tools.err.rfind("tooluse: \"tooluse tools\" needs a subcommand\n\nUsage: tooluse tools "
                            "[OPTIONS] COMMAND\n\nCommands:\n  list    List the tools",
                            0),
            0u)
      << tools.err;
  for (const char* sub : {"\n  call    Call one tool", "\n  batch   ", "\n  lint    "})
    EXPECT_NE(tools.err.find(sub), std::string::npos) << sub << "\n" << tools.err;
}

TEST_F(errors_cli, an_unexpected_argument_names_it_and_the_command) {
  auto r = tooluse({"tools", "list", "extra"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "tooluse: unexpected argument \"extra\" for \"tooluse tools list\", which takes none\n"
            "Usage: tooluse tools list [OPTIONS]\n"
            "Run 'tooluse tools list --help' for its usage.\n");
  auto two = tooluse({"runs", "list", "surplus", "words"});
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_EQ(two.err.rfind("tooluse: unexpected arguments \"surplus\" and \"words\" for \"tooluse "
                          "runs list\", which takes none\n",
                          0),
            0u)
      << two.err;
}

TEST_F(errors_cli, a_value_of_the_wrong_type_says_what_the_option_takes) {
  auto cost = tooluse({"run", "x", "--max-cost", "1$"});
  EXPECT_EQ(cost.exit_code, 2);
  EXPECT_EQ(cost.err,
            "tooluse: --max-cost takes a number, got \"1$\"\n"
            "Run 'tooluse run --help' for its usage.\n");
  auto parallel = tooluse({"tools", "batch", "calls.json", "--parallel", "many"});
  EXPECT_EQ(parallel.exit_code, 2);
  EXPECT_EQ(parallel.err.rfind("tooluse: --parallel takes a whole number, got \"many\"\n", 0), 0u)
      << parallel.err;
}

TEST_F(errors_cli, a_missing_value_or_argument_is_named_with_the_usage) {
  auto limit = tooluse({"index", "search", "x", "--limit"});
  EXPECT_EQ(limit.exit_code, 2);
  EXPECT_EQ(limit.err,
            "tooluse: --limit needs a whole number\n"
            "Run 'tooluse index search --help' for its usage.\n");
  auto name = tooluse({"tools", "call"});
  EXPECT_EQ(name.exit_code, 2);
  EXPECT_EQ(name.err.rfind("tooluse: the argument name is required for \"tooluse tools call\"\n"
                           "Usage: tooluse tools call [OPTIONS] name",
                           0),
            0u)
      << name.err;
  auto queue = tooluse({"worker"});
  EXPECT_EQ(queue.exit_code, 2);
  EXPECT_EQ(queue.err.rfind("tooluse: --queue is required for \"tooluse worker\"\n", 0), 0u)
      << queue.err;
}

TEST_F(errors_cli, a_group_flag_may_follow_the_subcommand) {
  auto r = tooluse({"index", "search", "x", "--index", (dir.path() / "none.sqlite").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find("unknown flag"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.rfind("tooluse: no index \"" + (dir.path() / "none.sqlite").string() + "\"", 0),
            0u)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "none.sqlite"));
}

TEST_F(errors_cli, invalid_json_arguments_are_shown_where_they_break) {
  auto r = tooluse({"tools", "call", "calculator", "{bad json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "tooluse: arguments for \"calculator\": the argument is not valid JSON: a key must be "
            "a \"quoted string\" (line 1, column 2)\n"
            "  {bad json\n"
            "   ^\n"
            "Write a JSON object with quoted keys and strings ('{\"name\": \"Ada\", \"n\": 2}'), "
            "or key=value pairs (name=Ada n=2).\n");
  auto cut = tooluse({"tools", "call", "calculator", "{\"expression\": \"1+1\""});
  EXPECT_EQ(cut.exit_code, 2);
  EXPECT_NE(cut.err.find("the text ends before the JSON does (a missing }, ] or \") (line 1, "
                         "column 21)\n  {\"expression\": \"1+1\"\n                      ^\n"),
            std::string::npos)
      << cut.err;
  for (const auto& out : {r.err, cut.err}) {
    EXPECT_EQ(out.find("parse error"), std::string::npos) << out;
    EXPECT_EQ(out.find("last read"), std::string::npos) << out;
  }
  // A file read by a command is shown the same way, on the line where it breaks.
  std::ofstream(dir.path() / "calls.json") << "[\n  {\"name\": \"calculator\",}\n]\n";
  auto file = tooluse({"tools", "batch", "calls.json"});
  EXPECT_EQ(file.exit_code, 2);
  EXPECT_NE(file.err.find("a key must be a \"quoted string\" (line 2, column 25)\n"
                          "    {\"name\": \"calculator\",}\n"
                          "                          ^\n"),
            std::string::npos)
      << file.err;
}

TEST_F(errors_cli, unusable_telemetry_settings_are_warned_about) {
  auto no_scheme = tooluse({"tools", "call", "calculator", "expression=1+1"},
                           {{"OTEL_EXPORTER_OTLP_ENDPOINT", "127.0.0.1:4318"}});
  EXPECT_EQ(no_scheme.exit_code, 0) << no_scheme.err;
  EXPECT_EQ(no_scheme.out, "2\n");
  EXPECT_EQ(no_scheme.err,
            "tooluse: warning: OTEL_EXPORTER_OTLP_ENDPOINT \"127.0.0.1:4318\" has no http:// or "
            "https://, so no spans are exported; write http://127.0.0.1:4318\n");

  fake_llm_server collector;
  auto grpc = tooluse(
      {"tools", "call", "calculator", "expression=1+1"},
      {{"OTEL_EXPORTER_OTLP_ENDPOINT", collector.url()}, {"OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"}});
  EXPECT_EQ(grpc.exit_code, 0) << grpc.err;
  EXPECT_EQ(grpc.err,
            "tooluse: warning: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported, so no spans are "
            "exported; tooluse sends OTLP over HTTP (JSON): set "
            "OTEL_EXPORTER_OTLP_PROTOCOL=http/json and point the endpoint at the collector's "
            "HTTP port (4318)\n");
  EXPECT_TRUE(collector.requests().empty());
}

// The task server's long_job waits until it is cancelled: the call ends at --timeout.
TEST_F(errors_cli, tools_call_takes_a_timeout) {
  json config = {
      {"mcpServers",
       {{"jobs", {{"command", TOOLUSE_TASK_SERVER}, {"args", json::array({"--stdio"})}}}}}};
  std::ofstream(dir.path() / "jobs.json") << config.dump();
  auto start = std::chrono::steady_clock::now();
  auto r = tooluse(
      {"tools", "call", "--mcp", "jobs.json", "jobs__long_job", "label=t", "--timeout", "500ms"});
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("timed out"), std::string::npos) << r.err;
  EXPECT_LT(took, std::chrono::seconds(60));
  auto bare = tooluse({"tools", "call", "calculator", "expression=1", "--timeout", "5"});
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_NE(bare.err.find("has no unit"), std::string::npos) << bare.err;
}

TEST_F(errors_cli, schema_export_to_strict_names_drop_unsupported) {
  auto listed = tooluse({"tools", "list", "--json"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  json calculator;
  for (const auto& t : json::parse(listed.out))
    if (t["name"] == "calculator") calculator = t;
  ASSERT_FALSE(calculator.is_null());
  std::ofstream(dir.path() / "calc.json") << calculator.dump();
  auto strict = tooluse({"schema", "export", "calc.json", "--to", "openai-strict"});
  EXPECT_EQ(strict.exit_code, 2);
  EXPECT_NE(strict.err.find("\nAdd --drop-unsupported to leave out what strict mode cannot "
                            "express"),
            std::string::npos)
      << strict.err;
  auto dropped =
      tooluse({"schema", "export", "calc.json", "--to", "openai-strict", "--drop-unsupported"});
  EXPECT_EQ(dropped.exit_code, 0) << dropped.err;
}

// run --strict does not leave a keyword out silently: it names what the model does not see.
TEST_F(errors_cli, run_strict_names_what_strict_mode_leaves_out) {
  fake_llm_server server;
  server.push(openai_response({.text = "42"}, false));
  server.push(openai_response({.text = "42"}, false));
  std::vector<std::string> args = {"run",     "What is 6*7?", "--base-url", server.url("/v1"),
                                   "--model", "m",            "--tools",    "calculator",
                                   "--no-stream"};
  auto plain = tooluse(args, {{"OPENAI_API_KEY", "sk-test"}});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.err.find("--strict"), std::string::npos) << plain.err;
  args.push_back("--strict");
  auto r = tooluse(args, {{"OPENAI_API_KEY", "sk-test"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "42\n");
  EXPECT_NE(r.err.find("tooluse: note: --strict: the model sees tool \"calculator\" without what "
                       "strict mode cannot express ("),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("its calls are still checked against the full schema"), std::string::npos);
}

TEST_F(errors_cli, max_cost_help_says_the_run_stops_before_the_request) {
  auto r = tooluse({"run", "--help"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("stop before a request whose estimated cost would pass it"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("cost exceeds"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tooluse::testing
