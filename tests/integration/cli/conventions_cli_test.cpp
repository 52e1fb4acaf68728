// The CLI as a gh or kubectl user expects it, each point run through the real binary as a user
// would type it: suggestions for mistyped commands and flags, SDK environment defaults, a base
// URL without a scheme, a question on stdin, gated tools that say which flag enables them, a
// refused --tool-choice, one tool-argument convention, durations with units, a checked config
// (and the sample config of docs/cli.md running), chat's /help, quiet output off a terminal.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

class conventions_cli : public ::testing::Test {
 protected:
  fake_llm_server server;
  temp_dir dir;

  cli_outcome tooluse(const std::vector<std::string>& args,
                      const std::map<std::string, std::string>& env = {},
                      const std::string& stdin_text = "") {
    std::string in = "/dev/null";
    if (!stdin_text.empty()) {
      in = (dir.path() / "stdin.txt").string();
      std::ofstream(in) << stdin_text;
    }
    return run_tooluse(args, env, dir.path(), in);
  }

  std::filesystem::path write(const std::string& name, const std::string& text) {
    auto p = dir.path() / name;
    std::ofstream(p) << text;
    return p;
  }
};

TEST_F(conventions_cli, mistyped_command_suggests_the_nearest_and_exits_2) {
  auto r = tooluse({"tool", "list"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command \"tool\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean \"tools\"?"), std::string::npos) << r.err;
  auto sub = tooluse({"tools", "lst"});
  EXPECT_EQ(sub.exit_code, 2);
  EXPECT_NE(sub.err.find("did you mean \"list\"?"), std::string::npos) << sub.err;
}

TEST_F(conventions_cli, mistyped_flag_suggests_the_nearest_and_exits_2) {
  auto r = tooluse({"run", "What is 2*3?", "--max-turn", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown flag --max-turn"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean --max-turns?"), std::string::npos) << r.err;
  EXPECT_TRUE(server.requests().empty());
  // A value that looks like a command is not mistaken for one.
  auto v = tooluse({"tools", "list", "--root", "tool"});
  EXPECT_EQ(v.err.find("unknown command"), std::string::npos) << v.err;
}

TEST_F(conventions_cli, openai_base_url_from_the_environment_as_the_sdk_reads_it) {
  server.push(openai_response({.text = "6"}, false));
  auto r = tooluse({"run", "What is 2*3?", "--no-stream", "--model", "m"},
                   {{"OPENAI_BASE_URL", server.url("/v1")}, {"OPENAI_API_KEY", "sk-test"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "6\n");
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].target, "/v1/chat/completions");
}

TEST_F(conventions_cli, anthropic_base_url_from_the_environment) {
  server.push(anthropic_response({.text = "6"}, false));
  auto r = tooluse({"run", "What is 2*3?", "--no-stream", "--model", "m"},
                   {{"ANTHROPIC_BASE_URL", server.url()}, {"ANTHROPIC_API_KEY", "sk-ant-test"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].target, "/v1/messages");
}

TEST_F(conventions_cli, base_url_without_a_scheme_says_to_add_http) {
  auto r = tooluse({"run", "hi", "--base-url", "localhost:8080/v1", "--model", "m"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("add http://"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("http://localhost:8080/v1"), std::string::npos) << r.err;
}

TEST_F(conventions_cli, run_reads_a_question_piped_on_stdin) {
  server.push(openai_response({.text = "6"}, false));
  auto r = tooluse({"run", "--base-url", server.url("/v1"), "--model", "m", "--no-stream"}, {},
                   "What is 2*3?\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(server.requests().size(), 1u);
  auto body = server.requests()[0].json_body();
  EXPECT_EQ(body["messages"].back()["content"], "What is 2*3?");
}

TEST_F(conventions_cli, a_network_tool_says_network_enables_it) {
  auto r = tooluse({"tools", "call", "web_search", "query=tooluse"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("add --network"), std::string::npos) << r.err;
  auto run = tooluse({"run", "hi", "--base-url", server.url("/v1"), "--tools", "web_search"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("add --network"), std::string::npos) << run.err;
}

TEST_F(conventions_cli, bogus_tool_choice_is_refused_before_any_request) {
  auto r = tooluse({"run", "hi", "--base-url", server.url("/v1"), "--model", "m", "--tools",
                    "calculator", "--tool-choice", "bogus"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--tool-choice \"bogus\""), std::string::npos) << r.err;
  EXPECT_TRUE(server.requests().empty());
  server.push(openai_response({.text = "ok"}, false));
  auto named = tooluse({"run", "hi", "--base-url", server.url("/v1"), "--model", "m", "--tools",
                        "calculator", "--tool-choice", "calculator", "--no-stream"});
  EXPECT_EQ(named.exit_code, 0) << named.err;
}

TEST_F(conventions_cli, tools_call_takes_json_key_value_or_stdin) {
  auto json_args = tooluse({"tools", "call", "calculator", R"({"expression":"2*3"})"});
  EXPECT_EQ(json_args.exit_code, 0) << json_args.err;
  EXPECT_EQ(json_args.out, "6\n");
  auto pairs = tooluse({"tools", "call", "calculator", "expression=2*21"});
  EXPECT_EQ(pairs.exit_code, 0) << pairs.err;
  EXPECT_EQ(pairs.out, "42\n");
  auto piped = tooluse({"tools", "call", "calculator", "-"}, {}, R"({"expression":"10-3"})");
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, "7\n");
  auto bad = tooluse({"tools", "call", "calculator", "expression"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("key=value"), std::string::npos) << bad.err;
}

TEST_F(conventions_cli, mcp_call_takes_stdin_too) {
  std::string server_cmd = std::string(TOOLUSE_CLI_PATH) + " mcp serve --stdio --tools calculator";
  auto r = tooluse({"mcp", "call", "--server", server_cmd, "--timeout", "30s", "calculator", "-"},
                   {}, R"({"expression":"6*7"})");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "42\n");
}

TEST_F(conventions_cli, durations_take_units_everywhere) {
  auto calls = write("calls.json", R"([{"name":"calculator","arguments":{"expression":"1+1"}}])");
  auto bare = tooluse({"tools", "batch", calls.string(), "--timeout", "5"});
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_NE(bare.err.find("500ms, 2s, 1m"), std::string::npos) << bare.err;
  auto ok = tooluse({"tools", "batch", calls.string(), "--timeout", "5s"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  auto mcp = tooluse({"mcp", "list", "--server", "x", "--timeout", "2 minutes"});
  EXPECT_EQ(mcp.exit_code, 2);
  EXPECT_NE(mcp.err.find("--timeout"), std::string::npos) << mcp.err;
}

TEST_F(conventions_cli, worker_lease_is_a_duration_and_lease_ms_a_deprecated_alias) {
  auto bare = tooluse({"worker", "--queue", "q", "--lease", "30"});
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_NE(bare.err.find("--lease"), std::string::npos) << bare.err;
  EXPECT_NE(bare.err.find("has no unit"), std::string::npos) << bare.err;
  // A good --lease is accepted; the worker then asks for its PostgreSQL store.
  auto ok = tooluse({"worker", "--queue", "q", "--lease", "30s"});
  EXPECT_EQ(ok.exit_code, 2);
  EXPECT_NE(ok.err.find("needs --store postgresql://"), std::string::npos) << ok.err;
  auto old = tooluse({"worker", "--queue", "q", "--lease-ms", "1500"});
  EXPECT_EQ(old.exit_code, 2);
  EXPECT_NE(old.err.find("--lease-ms is deprecated; use --lease 1500ms"), std::string::npos)
      << old.err;
  EXPECT_NE(old.err.find("needs --store postgresql://"), std::string::npos) << old.err;
  auto help = tooluse({"worker", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--lease DURATION"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("(default 10s)"), std::string::npos) << help.out;
  EXPECT_EQ(help.out.find("--lease-ms"), std::string::npos) << help.out;
}

TEST_F(conventions_cli, no_option_takes_bare_milliseconds_or_seconds) {
  // Every flag of every command, as completion lists them: none is named for a unit.
  auto r = tooluse({"completion", "bash"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::regex unit_flag(R"(--[a-z0-9-]*-(ms|msec|millis|milliseconds|s|sec|secs|seconds)\b)");
  std::smatch m;
  EXPECT_FALSE(std::regex_search(r.out, m, unit_flag)) << m.str();
  EXPECT_NE(r.out.find("--lease"), std::string::npos);
  auto man = tooluse({"man"});
  ASSERT_EQ(man.exit_code, 0) << man.err;
  EXPECT_NE(man.out.find("\\-\\-lease\\fR \\fIDURATION"), std::string::npos);
  EXPECT_EQ(man.out.find("lease\\-ms"), std::string::npos);
}

TEST_F(conventions_cli, every_flag_docs_cli_md_names_exists) {
  std::string doc = read_file(std::filesystem::path(TOOLUSE_SOURCE_DIR) / "docs" / "cli.md");
  ASSERT_FALSE(doc.empty());
  auto r = tooluse({"completion", "bash"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> flags;
  std::regex flag(R"(--[a-z][a-z0-9-]*)");
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), flag), end; it != end; ++it)
    flags.insert(it->str());
  int checked = 0;
  for (std::sregex_iterator it(doc.begin(), doc.end(), flag), end; it != end; ++it) {
    // The mistyped flag of the suggestions example; the deprecated aliases (hidden from
    // completion) the docs name so their users know what to write instead.
    if (it->str() == "--max-turn" || it->str() == "--lease-ms" || it->str() == "--approve")
      continue;
    ++checked;
    EXPECT_TRUE(flags.count(it->str())) << it->str() << " is in docs/cli.md but no command has it";
  }
  EXPECT_GT(checked, 50);
}

TEST_F(conventions_cli, config_with_unknown_key_names_key_and_file) {
  auto cfg = write("bad.toml", "provider = \"openai\"\nmax_turn = 8\n");
  auto r = tooluse({"run", "hi", "--config", cfg.string(), "--base-url", server.url("/v1")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown key \"max_turn\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean \"max_turns\"?"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(cfg.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 2"), std::string::npos) << r.err;
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(conventions_cli, config_with_wrong_type_names_key_and_file) {
  auto cfg = write("bad.toml", "max_turns = \"eight\"\n[openai]\nmodel = 4\n");
  auto r = tooluse({"run", "hi", "--config", cfg.string(), "--base-url", server.url("/v1")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("max_turns must be an integer, got the string \"eight\""), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(cfg.string()), std::string::npos) << r.err;
  auto nested = write("nested.toml", "[openai]\nmodle = \"x\"\n");
  auto n = tooluse({"run", "hi", "--config", nested.string(), "--base-url", server.url("/v1")});
  EXPECT_EQ(n.exit_code, 2);
  EXPECT_NE(n.err.find("unknown key \"openai.modle\"; did you mean \"openai.model\"?"),
            std::string::npos)
      << n.err;
}

// The ```toml block of docs/cli.md, used as is; the flag points it at the fake server.
TEST_F(conventions_cli, sample_config_in_the_docs_runs) {
  std::string doc = read_file(std::filesystem::path(TOOLUSE_SOURCE_DIR) / "docs" / "cli.md");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(doc, m, std::regex("```toml\n([^`]*)```"))) << "no toml block";
  auto cfg = write("config.toml", m[1].str());
  server.push(openai_response({.calls = {{"c1", "calculator", R"({"expression":"2*3"})"}}}, true));
  server.push(openai_response({.text = "6"}, true));
  auto r =
      tooluse({"run", "What is 2*3?", "--config", cfg.string(), "--base-url", server.url("/v1")},
              {{"DEEPSEEK_API_KEY", "sk-deepseek"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "6\n");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  auto body = reqs[0].json_body();
  EXPECT_EQ(body["model"], "deepseek-chat");
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["tools"].size(), 2u);
  EXPECT_EQ(reqs[0].header("authorization"), "Bearer sk-deepseek");
}

TEST_F(conventions_cli, chat_help_lists_the_commands) {
  auto r = tooluse({"chat", "--base-url", server.url("/v1"), "--model", "m"}, {},
                   "/help\n/tols\n/exit\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* c : {"/help", "/tools", "/reset", "/exit"})
    EXPECT_NE(r.out.find(c), std::string::npos) << c << " missing from:\n" << r.out;
  EXPECT_NE(r.err.find("did you mean /tools?"), std::string::npos) << r.err;
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(conventions_cli, output_off_a_terminal_is_quiet_and_parseable) {
  server.push(openai_response({.calls = {{"c1", "calculator", R"({"expression":"2*3"})"}}}, true));
  server.push(openai_response({.text = "6"}, true));
  auto r = tooluse({"run", "What is 2*3?", "--base-url", server.url("/v1"), "--model", "m",
                    "--tools", "calculator"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "6\n");
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("\x1b["), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("waiting for the model"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[tool] calculator -> 6"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tooluse::testing
