// docs/cli.md's exit-code table, run against the binary: every command in a row's examples is
// run as written (in a folder holding the files the examples name: runs.db with a run waiting
// for an approval, an index docs.sqlite) and must end with the row's code; every error is
// "tooluse: ..." in the CLI's own words, never the parser's. The table is read from the doc, so
// a row added there is tested, and a code the binary no longer gives fails here.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"
#include "support/response_gate.hpp"

namespace tooluse::testing {
namespace {

struct table_row {
  int code = -1;
  std::vector<std::string> examples;  // each a command line starting with "tooluse "
};

// documented_exit_codes reads the table that follows "**Exit codes**" in docs/cli.md.
std::vector<table_row> documented_exit_codes() {
  std::ifstream in(std::string(TOOLUSE_SOURCE_DIR) + "/docs/cli.md");
  std::vector<table_row> rows;
  bool in_table = false;
  const std::regex row_re(R"(^\s*\|\s*(\d+)\s*\|.*\|(.*)\|\s*$)");
  const std::regex example_re("`(tooluse[^`]*)`");
  for (std::string line; std::getline(in, line);) {
    if (line.find("**Exit codes**") != std::string::npos) in_table = true;
    if (!in_table) continue;
    std::smatch m;
    if (std::regex_match(line, m, row_re)) {
      table_row row{std::stoi(m[1])};
      std::string cell = m[2];
      for (std::sregex_iterator it(cell.begin(), cell.end(), example_re), end; it != end; ++it)
        row.examples.push_back((*it)[1]);
      rows.push_back(row);
    } else if (!rows.empty() && line.find('|') == std::string::npos) {
      break;  // the table ended
    }
  }
  return rows;
}

// words splits a documented command line as a shell would ('...' and "..." quote).
std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool any = false;
  char quote = 0;
  for (char c : line) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        cur += c;
    } else if (c == '\'' || c == '"') {
      quote = c, any = true;
    } else if (c == ' ') {
      if (any || !cur.empty()) out.push_back(cur);
      cur.clear(), any = false;
    } else {
      cur += c;
    }
  }
  if (any || !cur.empty()) out.push_back(cur);
  return out;
}

class exit_codes_cli : public ::testing::Test {
 protected:
  void SetUp() override {
    env = {{"OPENAI_API_KEY", "sk-test"}, {"OPENAI_BASE_URL", server.url("/v1")}};
    // runs.db: a run that waits for an approval of a calculator call (exit 3 itself).
    server.push(
        openai_response({.calls = {{"call_w", "calculator", R"({"expression":"7*6"})"}}}, false));
    auto waiting =
        run({"run", "What is 7*6?", "--model", "fake-model", "--tools", "calculator", "--no-stream",
             "--store", "runs.db", "--run-id", "run-waiting", "--confirm", "calculator"});
    ASSERT_EQ(waiting.exit_code, 3) << waiting.err;
    // docs.sqlite: an index with one document.
    std::ofstream(dir.path() / "doc.txt") << "lighthouse keeper\n";
    auto added = run({"index", "add", "doc.txt", "--index", "docs.sqlite"});
    ASSERT_EQ(added.exit_code, 0) << added.err;
  }
  cli_outcome run(const std::vector<std::string>& args) {
    return run_tooluse(args, env, dir.path());
  }

  fake_llm_server server;
  temp_dir dir;
  std::map<std::string, std::string> env;
};

TEST_F(exit_codes_cli, every_documented_example_ends_with_its_code) {
  auto rows = documented_exit_codes();
  std::set<int> codes;
  for (const auto& r : rows) codes.insert(r.code);
  ASSERT_EQ(codes, (std::set<int>{0, 1, 2, 3, 130})) << "docs/cli.md's exit-code table changed";
  for (const auto& row : rows) {
    if (row.code == 130) continue;  // a signal: the next test
    ASSERT_FALSE(row.examples.empty()) << "code " << row.code << " has no example";
    for (const auto& example : row.examples) {
      auto argv = words(example);
      argv.erase(argv.begin());  // "tooluse"
      auto r = run(argv);
      SCOPED_TRACE(example);
      EXPECT_EQ(r.exit_code, row.code) << r.err;
      if (row.code == 0) {
        EXPECT_FALSE(r.out.empty());
      }
      if (row.code == 1) {
        EXPECT_FALSE(r.err.empty());
      }
      if (row.code == 2) {
        EXPECT_EQ(r.err.rfind("tooluse: ", 0), 0u) << r.err;
        EXPECT_EQ(r.out, "");
      }
      for (const char* parser_words :
           {"A subcommand is required", "was not expected", "were not expected",
            "Could not convert", "required INT missing", "Run with --help for more information"})
        EXPECT_EQ(r.err.find(parser_words), std::string::npos) << r.err;
    }
  }
}

TEST_F(exit_codes_cli, an_interrupted_run_exits_130) {
  auto rows = documented_exit_codes();
  auto row = std::find_if(rows.begin(), rows.end(), [](const auto& r) { return r.code == 130; });
  ASSERT_NE(row, rows.end());
  response_gate gate;
  gate_opener opener{gate};
  server.set_responder([&](const recorded_request&) {
    gate.wait();
    return openai_response({.text = "too late"}, false);
  });
  ASSERT_FALSE(row->examples.empty());
  auto argv = words(row->examples[0]);
  argv.erase(argv.begin());
  argv.insert(argv.end(), {"--model", "fake-model", "--no-stream"});
  background_tooluse proc(argv, dir.path(), env);
  ASSERT_TRUE(gate.wait_arrival()) << proc.stderr_so_far();
  proc.signal(SIGINT);
  EXPECT_EQ(proc.wait(), 130) << proc.stderr_so_far();
}

}  // namespace
}  // namespace tooluse::testing
