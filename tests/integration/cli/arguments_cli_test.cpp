// The CLI's shared conventions (apps/tooluse/conventions.cpp) through the real binary:
// key=value arguments typed by the tool's input schema (integer, boolean, string that looks
// like a number, untyped JSON), the errors of a mistyped value or a word without "=", JSON
// objects given whole or on stdin, and durations with every unit, refused without one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/cli_process.hpp"

namespace tooluse::testing {
namespace {

class arguments_cli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ofstream(dir.path() / "notes.txt") << "one\ntwo\nthree\n";
    std::filesystem::create_directories(dir.path() / "sub");
    std::ofstream(dir.path() / "sub" / "deep.txt") << "x\n";
    std::ofstream(dir.path() / "123") << "a file named 123\n";
  }
  cli_outcome tooluse(std::vector<std::string> args, const std::string& in = "") {
    std::string stdin_path = "/dev/null";
    if (!in.empty()) {
      stdin_path = (dir.path() / "stdin.json").string();
      std::ofstream(stdin_path) << in;
    }
    args.insert(args.end(), {"--root", dir.path().string()});
    return run_tooluse(args, {}, dir.path(), stdin_path);
  }
  temp_dir dir;
};

TEST_F(arguments_cli, integers_and_booleans_are_typed_by_the_schema) {
  auto r = tooluse({"tools", "call", "file_read", "path=notes.txt", "start_line=2", "end_line=2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("two"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("three"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("one"), std::string::npos) << r.out;

  auto flat = tooluse({"tools", "call", "file_list", "recursive=false", "--json"});
  auto deep = tooluse({"tools", "call", "file_list", "recursive=true", "--json"});
  ASSERT_EQ(flat.exit_code, 0) << flat.err;
  ASSERT_EQ(deep.exit_code, 0) << deep.err;
  EXPECT_EQ(flat.out.find("deep.txt"), std::string::npos) << flat.out;
  EXPECT_NE(deep.out.find("deep.txt"), std::string::npos) << deep.out;
}

TEST_F(arguments_cli, a_string_property_keeps_text_that_looks_like_a_number) {
  auto r = tooluse({"tools", "call", "file_read", "path=123"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("a file named 123"), std::string::npos) << r.out;
}

TEST_F(arguments_cli, a_value_of_the_wrong_type_names_the_argument_and_the_type) {
  auto word = tooluse({"tools", "call", "file_read", "path=notes.txt", "start_line=two"});
  EXPECT_EQ(word.exit_code, 2);
  EXPECT_EQ(word.err, "tooluse: arguments for \"file_read\": argument start_line=two: expected "
                      "integer\n");
  auto fraction = tooluse({"tools", "call", "file_read", "path=notes.txt", "start_line=1.5"});
  EXPECT_EQ(fraction.exit_code, 2);
  EXPECT_NE(fraction.err.find("expected integer"), std::string::npos) << fraction.err;
  auto yes = tooluse({"tools", "call", "file_list", "recursive=yes"});
  EXPECT_EQ(yes.exit_code, 2);
  EXPECT_EQ(yes.err,
            "tooluse: arguments for \"file_list\": argument recursive=yes: expected boolean\n");
  // A value of the right type that breaks the schema's bounds is the schema's error.
  auto zero = tooluse({"tools", "call", "file_read", "path=notes.txt", "start_line=0"});
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_EQ(zero.err.rfind("tooluse: arguments for \"file_read\" do not match its schema:\n", 0), 0u)
      << zero.err;
  EXPECT_NE(zero.err.find("start_line"), std::string::npos) << zero.err;
}

TEST_F(arguments_cli, words_without_a_key_or_an_equals_sign_are_refused) {
  for (const std::string& bad : {std::string("=value"), std::string("novalue")}) {
    auto r = tooluse({"tools", "call", "calculator", bad});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_EQ(r.err, "tooluse: arguments for \"calculator\": expected a JSON object, key=value "
                     "pairs or - (stdin), got \"" + bad + "\"\n");
  }
  auto dash_and_pair = tooluse({"tools", "call", "calculator", "expression=1", "-"});
  EXPECT_EQ(dash_and_pair.exit_code, 2);
  EXPECT_NE(dash_and_pair.err.find("got \"-\""), std::string::npos) << dash_and_pair.err;
}

TEST_F(arguments_cli, a_json_object_is_taken_whole_from_the_argument_or_stdin) {
  auto spaced = tooluse({"tools", "call", "calculator", "  {\"expression\": \"5*5\"}"});
  EXPECT_EQ(spaced.exit_code, 0) << spaced.err;
  EXPECT_EQ(spaced.out, "25\n");
  auto broken = tooluse({"tools", "call", "calculator", "{\"expression\": "});
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_EQ(broken.err.rfind("tooluse: arguments for \"calculator\": the argument is not valid "
                             "JSON: ",
                             0),
            0u)
      << broken.err;
  auto stdin_array = tooluse({"tools", "call", "calculator", "-"}, "[1, 2]");
  EXPECT_EQ(stdin_array.exit_code, 2);
  EXPECT_EQ(stdin_array.err,
            "tooluse: arguments for \"calculator\": stdin is not a JSON object\n");
  auto stdin_broken = tooluse({"tools", "call", "calculator", "-"}, "{nope");
  EXPECT_EQ(stdin_broken.exit_code, 2);
  EXPECT_NE(stdin_broken.err.find("stdin is not valid JSON: "), std::string::npos)
      << stdin_broken.err;
  // No arguments at all is an empty object: the schema then says what is missing.
  auto none = tooluse({"tools", "call", "calculator"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("expression"), std::string::npos) << none.err;
}

TEST_F(arguments_cli, durations_take_ms_s_m_h_and_fractions) {
  std::ofstream(dir.path() / "calls.json")
      << R"([{"name": "calculator", "arguments": {"expression": "1+1"}}])";
  for (const char* ok : {"0", "250ms", "1.5s", "2m", "1h"}) {
    auto r = tooluse({"tools", "batch", "calls.json", "--timeout", ok});
    EXPECT_EQ(r.exit_code, 0) << ok << ": " << r.err;
  }
  struct bad_case {
    const char* text;
    const char* why;
  };
  for (const auto& b : {bad_case{"ms", "\"ms\" is not a duration"},
                        bad_case{"5x", "\"5x\" has an unknown unit \"x\""},
                        bad_case{"-1s", "\"-1s\" is not a positive duration"},
                        bad_case{"10", "\"10\" has no unit"}}) {
    auto r = tooluse({"tools", "batch", "calls.json", "--timeout", b.text});
    EXPECT_EQ(r.exit_code, 2) << b.text;
    EXPECT_NE(r.err.find(b.why), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("write a duration with a unit: 500ms, 2s, 1m, 1h"), std::string::npos)
        << r.err;
  }
}

TEST_F(arguments_cli, help_shows_duration_defaults_in_their_largest_unit) {
  auto mcp = run_tooluse({"mcp", "list", "--help"});
  EXPECT_NE(mcp.out.find("(default 1m)"), std::string::npos) << mcp.out;
  auto batch = run_tooluse({"tools", "batch", "--help"});
  EXPECT_NE(batch.out.find("(default 0)"), std::string::npos) << batch.out;
}

}  // namespace
}  // namespace tooluse::testing
