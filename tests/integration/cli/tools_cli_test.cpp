// `tooluse tools list|call|batch` contracts not covered elsewhere, through the real binary: the
// text layout of batch results, calls without arguments or with ids, calls read from stdin,
// --confirm tools refused without --yes, the flags that gate tools (--network, --shell,
// --tools) as list shows them, and the usage errors of a malformed calls file.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>

#include "support/cli_process.hpp"
#include "tooluse/json.hpp"

namespace tooluse::testing {
namespace {

class tools_cli : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir.path() / name) << text;
    return (dir.path() / name).string();
  }
  cli_outcome tooluse(const std::vector<std::string>& args, const std::string& in = "") {
    return run_tooluse(args, {}, dir.path(), in.empty() ? "/dev/null" : write("stdin.txt", in));
  }
  std::set<std::string> listed(const std::vector<std::string>& flags) {
    std::vector<std::string> args = {"tools", "list", "--json"};
    args.insert(args.end(), flags.begin(), flags.end());
    auto r = tooluse(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::set<std::string> names;
    for (const auto& t : json::parse(r.out)) names.insert(t["name"].get<std::string>());
    return names;
  }
  temp_dir dir;
};

TEST_F(tools_cli, batch_text_numbers_each_result_with_its_time_then_the_wall_time) {
  auto calls = write("calls.json", R"([{"name": "calculator", "arguments": {"expression": "6*7"}},
                                        {"name": "calculator", "arguments": {"expression": "1/0"}}])");
  auto r = tooluse({"tools", "batch", calls});
  EXPECT_EQ(r.exit_code, 1);
  std::regex layout(
      "\\[1\\] calculator \\([0-9]+\\.[0-9]{2} ms\\)\n42\n"
      "\\[2\\] calculator \\([0-9]+\\.[0-9]{2} ms\\) error\n[^\n]*division by zero[^\n]*\n"
      "wall time: [0-9]+\\.[0-9]{2} ms\n");
  EXPECT_TRUE(std::regex_match(r.out, layout)) << r.out;
}

TEST_F(tools_cli, batch_reads_calls_from_stdin_and_a_call_without_arguments_gets_an_object) {
  auto r = tooluse({"tools", "batch", "-", "--json", "--tools", "calculator,datetime"},
                   R"([{"id": "mine", "name": "datetime"},
                       {"name": "calculator", "arguments": {"expression": "2+2"}}])");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  json doc = json::parse(r.out);
  ASSERT_EQ(doc["results"].size(), 2u);
  EXPECT_EQ(doc["results"][0]["name"], "datetime");
  EXPECT_EQ(doc["results"][0]["is_error"], false) << doc;
  EXPECT_EQ(doc["results"][1]["content"][0], json({{"type", "text"}, {"text", "4"}}));
}

TEST_F(tools_cli, batch_refuses_confirmed_tools_unless_approved) {
  auto calls = write("calls.json", R"([{"name": "calculator", "arguments": {"expression": "1+1"}}])");
  auto refused = tooluse({"tools", "batch", calls, "--json", "--confirm", "calculator"});
  EXPECT_EQ(refused.exit_code, 1);
  json doc = json::parse(refused.out);
  EXPECT_EQ(doc["results"][0]["is_error"], true);
  EXPECT_EQ(doc["results"][0]["content"][0]["text"],
            "the call to tool \"calculator\" was rejected: the user did not approve "
            "\"calculator\" (no terminal to ask on; the user can pass --yes)");
  // --yes as every command that runs tools spells it; --approve, the older spelling, still works.
  for (const char* flag : {"--yes", "-y", "--approve"}) {
    auto approved = tooluse({"tools", "batch", calls, "--json", "--confirm", "calculator", flag});
    EXPECT_EQ(approved.exit_code, 0) << flag << approved.out;
    EXPECT_EQ(json::parse(approved.out)["results"][0]["content"][0]["text"], "2") << flag;
  }
}

TEST_F(tools_cli, batch_calls_file_errors_name_the_call_and_the_file) {
  auto nameless = write("nameless.json", R"([{"name": "calculator"}, {"arguments": {}}])");
  auto r = tooluse({"tools", "batch", nameless});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "tooluse: " + nameless + ": call 2: needs a string \"name\"\n");
  auto number = write("number.json", R"([{"name": 5}])");
  EXPECT_EQ(tooluse({"tools", "batch", number}).err,
            "tooluse: " + number + ": call 1: needs a string \"name\"\n");
  auto broken = write("broken.json", "[{");
  auto b = tooluse({"tools", "batch", broken});
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_EQ(b.err.rfind("tooluse: " + broken + ": ", 0), 0u) << b.err;
  auto missing = tooluse({"tools", "batch", "absent.json"});
  EXPECT_EQ(missing.err, "tooluse: cannot read \"absent.json\"\n");
  auto ok = write("ok.json", "[]");
  auto parallel = tooluse({"tools", "batch", ok, "--parallel", "0"});
  EXPECT_EQ(parallel.exit_code, 2);
  EXPECT_EQ(parallel.err, "tooluse: --parallel must be at least 1\n");
  auto empty = tooluse({"tools", "batch", ok, "--json"});
  EXPECT_EQ(empty.exit_code, 0);
  EXPECT_EQ(json::parse(empty.out)["results"], json::array());
}

TEST_F(tools_cli, list_shows_gated_tools_only_with_their_flag_and_marks_dangerous_ones) {
  auto plain = listed({});
  EXPECT_TRUE(plain.count("calculator"));
  EXPECT_FALSE(plain.count("web_search"));
  EXPECT_FALSE(plain.count("shell"));
  auto network = listed({"--network"});
  EXPECT_TRUE(network.count("web_search"));
  EXPECT_GT(network.size(), plain.size());
  auto shell = listed({"--shell"});
  EXPECT_TRUE(shell.count("shell"));

  auto text = tooluse({"tools", "list", "--shell", "--tools", "shell,calculator",
                       "--confirm", "calculator"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("shell [dangerous]\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("calculator [dangerous]\n"), std::string::npos) << text.out;
  auto bad = tooluse({"tools", "list", "--confirm", "nope"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "tooluse: --confirm: no tool named \"nope\"\n");
  auto shell_hint = tooluse({"tools", "list", "--tools", "shell"});
  EXPECT_EQ(shell_hint.exit_code, 2);
  EXPECT_NE(shell_hint.err.find("add --shell to enable it"), std::string::npos) << shell_hint.err;
}

TEST_F(tools_cli, call_prints_tool_errors_on_stderr_and_results_on_stdout) {
  auto ok = tooluse({"tools", "call", "calculator", "expression=2**8"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "256\n");
  EXPECT_EQ(ok.err, "");
  auto json_error = tooluse({"tools", "call", "calculator", "expression=1/0", "--json"});
  EXPECT_EQ(json_error.exit_code, 1);
  json r = json::parse(json_error.out);
  EXPECT_EQ(r["isError"], true);
  EXPECT_NE(r["content"][0]["text"].get<std::string>().find("division by zero"), std::string::npos);
  // A --confirm tool asks, as in every command that runs tools: no terminal here, so --yes.
  auto confirmed = tooluse({"tools", "call", "calculator", "expression=3", "--confirm", "calculator"});
  EXPECT_EQ(confirmed.exit_code, 2) << confirmed.err;
  confirmed =
      tooluse({"tools", "call", "calculator", "expression=3", "--confirm", "calculator", "--yes"});
  EXPECT_EQ(confirmed.exit_code, 0) << confirmed.err;
  EXPECT_EQ(confirmed.out, "3\n");
  auto not_object = tooluse({"tools", "call", "calculator", "42"});
  EXPECT_EQ(not_object.exit_code, 2);
  EXPECT_EQ(not_object.err.rfind("tooluse: arguments for \"calculator\": ", 0), 0u) << not_object.err;
}

}  // namespace
}  // namespace tooluse::testing
