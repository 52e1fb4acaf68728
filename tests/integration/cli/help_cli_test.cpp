// Every command's --help through the real binary: exit 0, the usage line names the command, the
// description and the options it documents appear on stdout and nothing on stderr; a command
// group without its subcommand, or a missing required argument, is a usage error (exit 2) that
// names what is missing; `tooluse --help` lists every top-level command.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/cli_process.hpp"

namespace tooluse::testing {
namespace {

struct help_case {
  std::vector<std::string> command;  // e.g. {"tools", "call"}
  std::string description;           // a phrase of the command's one-line description
  std::vector<std::string> options;  // options its help must document
};

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

const std::vector<help_case>& cases() {
  static const std::vector<help_case> all = {
      {{"run"}, "Answer a question with a model", {"--trace", "--timeout", "--json", "--tools"}},
      {{"chat"}, "Talk with a model", {"--no-history-file", "--network", "--shell"}},
      {{"tools"}, "List and call the built-in tools", {"list", "call", "batch", "lint"}},
      {{"tools", "list"}, "descriptions and schemas", {"--json", "--root", "--mcp"}},
      {{"tools", "call"}, "Call one tool", {"--json", "--confirm", "--timeout"}},
      {{"tools", "batch"}, "in parallel, in order", {"--parallel", "--timeout", "--yes"}},
      {{"tools", "lint"}, "models use them badly", {"--json", "--strict"}},
      {{"schema"}, "Validate instances", {"check", "export"}},
      {{"schema", "check"},
       "Validate a JSON instance",
       {"--coerce", "--clamp", "--format-assertion", "--root-name", "--max-errors"}},
      {{"schema", "export"}, "", {"--to", "--drop-unsupported", "--strict"}},
      {{"parse-calls"},
       "Find the tool calls",
       {"--format", "--schema", "--in-reasoning", "--chunk"}},
      {{"render-tools"}, "system-prompt block", {"--format", "--schema"}},
      {{"mcp"}, "Model Context Protocol", {"serve", "list", "call", "login", "logout"}},
      {{"mcp", "serve"},
       "Serve the built-in tools to MCP clients",
       {"--stdio", "--http", "--token", "--allowed-host", "--oauth-issuer", "--task-tool"}},
      {{"mcp", "list"},
       "List the tools of an MCP server",
       {"--server", "--url", "--header", "--env", "--cwd", "--protocol", "--quiet", "Exit status"}},
      {{"mcp", "call"}, "Call a tool of an MCP server", {"--task", "--timeout", "Exit status"}},
      {{"mcp", "login"}, "", {"--client-id", "--scope", "--port", "--no-browser", "--json"}},
      {{"mcp", "logout"}, "Forget the saved tokens", {"--json"}},
      {{"runs"}, "Durable runs", {"list", "show", "resume", "approve", "deny"}},
      {{"runs", "list"}, "newest first", {"--store", "--limit", "--json"}},
      {{"runs", "show"}, "", {"--store", "--json"}},
      {{"runs", "resume"}, "", {"--store", "--yes"}},
      {{"runs", "approve"}, "all of them without CALL_ID", {"--store", "call_id"}},
      {{"runs", "deny"}, "", {"--store", "--message"}},
      {{"index"}, "document_search index", {"add", "search", "remove", "list", "--index"}},
      {{"eval"}, "Berkeley Function Calling Leaderboard", {"score", "run", "formats"}},
      {{"eval", "score"}, "recorded BFCL outputs", {"--data", "--results", "--model", "--format", "--json", "--fail-under"}},
      {{"eval", "run"}, "write BFCL result files", {"--data", "--out", "--limit", "--concurrency", "--max-cost", "--tool-format"}},
      {{"index", "add"}, "Index files", {"paths"}},
      {{"index", "search"}, "BM25", {"--limit", "--json"}},
      {{"index", "remove"}, "Remove a document by id", {"id"}},
      {{"index", "list"}, "List the indexed documents", {"--limit"}},
      {{"trace"}, "", {}},
      {{"worker"},
       "PostgreSQL queue",
       {"--store", "--queue", "--id", "--lease", "--batch", "--threads", "--yes"}},
      {{"completion"}, "shell completion script", {}},
      {{"man"}, "man page", {}},
  };
  return all;
}

TEST(help_cli, every_command_documents_itself_and_its_options) {
  for (const auto& c : cases()) {
    std::vector<std::string> args = c.command;
    args.push_back("--help");
    auto r = run_tooluse(args);
    SCOPED_TRACE(joined(c.command));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("tooluse " + joined(c.command)), std::string::npos) << r.out;
    if (!c.description.empty()) {
      EXPECT_NE(r.out.find(c.description), std::string::npos) << r.out;
    }
    for (const auto& o : c.options) EXPECT_NE(r.out.find(o), std::string::npos) << o << "\n" << r.out;
  }
}

TEST(help_cli, short_h_is_the_same_help) {
  auto long_form = run_tooluse({"tools", "call", "--help"});
  auto short_form = run_tooluse({"tools", "call", "-h"});
  EXPECT_EQ(short_form.exit_code, 0);
  EXPECT_EQ(short_form.out, long_form.out);
}

TEST(help_cli, top_level_help_lists_every_command_and_the_footer) {
  auto r = run_tooluse({"--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"run", "chat", "tools", "schema", "parse-calls", "render-tools", "mcp",
                           "runs", "index", "eval", "trace", "worker", "completion", "man"})
    EXPECT_NE(r.out.find(std::string("  ") + name), std::string::npos) << name << "\n" << r.out;
  EXPECT_NE(r.out.find("Run 'tooluse COMMAND --help' for a command's options"), std::string::npos)
      << r.out;
  auto v = run_tooluse({"-V"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out.rfind("tooluse ", 0), 0u) << v.out;
}

TEST(help_cli, a_group_without_its_subcommand_is_a_usage_error) {
  for (const std::vector<std::string>& group :
       std::vector<std::vector<std::string>>{{"tools"}, {"schema"}, {"mcp"}, {"runs"}, {"index"}, {"eval"}}) {
    auto r = run_tooluse(group);
    SCOPED_TRACE(joined(group));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("subcommand"), std::string::npos) << r.err;
  }
}

TEST(help_cli, a_missing_required_argument_names_it_and_exits_2) {
  struct missing {
    std::vector<std::string> args;
    std::string named;
  };
  for (const auto& m : std::vector<missing>{{{"tools", "call"}, "name"},
                                             {{"index", "search"}, "query"},
                                             {{"index", "remove"}, "id"},
                                             {{"index", "add"}, "paths"},
                                             {{"mcp", "call", "--server", "x"}, "tool"},
                                             {{"worker"}, "--queue"},
                                             {{"schema", "check"}, "schema"},
                                             {{"eval", "score", "--data", "d", "--model", "m"}, "--results"}}) {
    auto r = run_tooluse(m.args);
    SCOPED_TRACE(joined(m.args));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("required"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(m.named), std::string::npos) << r.err;
  }
}

TEST(help_cli, an_option_without_its_value_or_with_a_bad_number_exits_2) {
  auto no_value = run_tooluse({"index", "search", "x", "--limit"});
  EXPECT_EQ(no_value.exit_code, 2);
  EXPECT_NE(no_value.err.find("--limit"), std::string::npos) << no_value.err;
  auto not_number = run_tooluse({"tools", "batch", "calls.json", "--parallel", "many"});
  EXPECT_EQ(not_number.exit_code, 2);
  EXPECT_NE(not_number.err.find("--parallel"), std::string::npos) << not_number.err;
  auto extra = run_tooluse({"runs", "list", "surplus", "words"});
  EXPECT_EQ(extra.exit_code, 2);
  EXPECT_FALSE(extra.err.empty());
}

}  // namespace
}  // namespace tooluse::testing
