// `tooluse tools call calculator` through the real binary: stdout, stderr and exit codes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/cli_process.hpp"

namespace {

using run_result = tooluse::testing::cli_outcome;

run_result run(const std::vector<std::string>& args) { return tooluse::testing::run_tooluse(args); }

run_result calc(const std::string& expression) {
  std::string escaped;
  for (char c : expression) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return run({"tools", "call", "calculator", "{\"expression\":\"" + escaped + "\"}"});
}

}  // namespace

TEST(calculator_cli, acceptance_expressions_print_exact_answers) {
  const std::pair<const char*, const char*> cases[] = {
      {"1234*5678", "7006652\n"}, {"13!", "6227020800\n"},  {"2^62", "4611686018427387904\n"},
      {"sqrt(16)", "4\n"},        {"10/4", "2.5\n"},        {"(2+3)*4^2", "80\n"},
  };
  for (const auto& [expr, expected] : cases) {
    auto r = calc(expr);
    EXPECT_EQ(r.exit_code, 0) << expr << ": " << r.err;
    EXPECT_EQ(r.out, expected) << expr;
    EXPECT_EQ(r.err, "") << expr;
  }
}

TEST(calculator_cli, import_attempt_is_an_unknown_name) {
  auto r = calc("__import__('os')");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("unknown name \"__import__\" at position 1; allowed names: pi, e, tau, sqrt", 0), 0u)
      << r.err;
}

TEST(calculator_cli, division_by_zero_and_bad_syntax_exit_1_with_a_message) {
  auto div = calc("1/0");
  EXPECT_EQ(div.exit_code, 1);
  EXPECT_EQ(div.err, "division by zero at position 2\n");
  auto parens = calc("((((");
  EXPECT_EQ(parens.exit_code, 1);
  EXPECT_EQ(parens.err,
            "syntax error at position 5: expected a number, a name or \"(\" but the expression ended\n");
  auto overflow = calc("2^200");
  EXPECT_EQ(overflow.exit_code, 1);
  EXPECT_NE(overflow.err.find("integer overflow at position 2"), std::string::npos) << overflow.err;
}

TEST(calculator_cli, arguments_that_fail_the_schema_exit_2) {
  auto r = run({"tools", "call", "calculator", R"({"expr":"1+1"})"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("expression"), std::string::npos) << r.err;
  auto not_json = run({"tools", "call", "calculator", "{"});
  EXPECT_EQ(not_json.exit_code, 2);
}

TEST(calculator_cli, json_output_is_a_call_tool_result) {
  auto r = run({"tools", "call", "calculator", R"({"expression":"1234*5678"})", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"text\": \"7006652\""), std::string::npos) << r.out;
}
