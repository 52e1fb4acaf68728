// evaluate(): every error names what is wrong and where; nothing crashes.
#include <gtest/gtest.h>

#include <string>

#include "tooluse/builtin/calculator.hpp"

using tooluse::errc;
using tooluse::builtin::calc_limits;
using tooluse::builtin::evaluate;

namespace {

std::string message(std::string_view expr, const calc_limits& limits = {}) {
  auto v = evaluate(expr, limits);
  return v ? "(value " + v->to_string() + ")" : v.error().message;
}
errc code(std::string_view expr, const calc_limits& limits = {}) {
  auto v = evaluate(expr, limits);
  return v ? errc::internal : v.error().code;
}

}  // namespace

TEST(calculator_errors, unknown_names_list_the_allowed_ones) {
  EXPECT_EQ(message("__import__('os')"),
            "unknown name \"__import__\" at position 1; allowed names: pi, e, tau, sqrt, cbrt, "
            "abs, exp, ln, log, log10, log2, sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, "
            "tanh, floor, ceil, round, min, max, hypot, gcd, lcm");
  EXPECT_EQ(code("__import__('os')"), errc::parse_error);
  EXPECT_EQ(message("2 * foo").substr(0, 34), "unknown name \"foo\" at position 5; ");
  EXPECT_EQ(message("sqrt"), "\"sqrt\" at position 1 is a function: call it as sqrt(...)");
  EXPECT_EQ(message("pi(2)"), "\"pi\" at position 1 is a constant, not a function; use * to multiply");
}

TEST(calculator_errors, syntax_errors_have_positions) {
  EXPECT_EQ(message("(((("),
            "syntax error at position 5: expected a number, a name or \"(\" but the expression ended");
  EXPECT_EQ(message("(1+2"),
            "syntax error at position 5: expected \")\" to close the \"(\" at position 1, got end of expression");
  EXPECT_EQ(message("1 +"),
            "syntax error at position 4: expected a number, a name or \"(\" but the expression ended");
  EXPECT_EQ(message("2 3"),
            "syntax error at position 3: unexpected \"3\"; expected an operator (+ - * / % ^ !) or the end");
  EXPECT_EQ(message("1 // 2"),
            "syntax error at position 4: unexpected \"/\"; expected a number, a name or \"(\"");
  EXPECT_EQ(message("max(1 2)"),
            "syntax error at position 7: expected \",\" or \")\" in the call to max at position 4, got \"2\"");
  EXPECT_EQ(message(""), "the expression is empty; write one such as 2+2");
  EXPECT_EQ(message("."), "syntax error at position 1: \".\" is not a number");
  EXPECT_EQ(message("1 \x01"),
            "syntax error at position 3: unexpected byte 0x01; expected an operator (+ - * / % ^ !) or the end");
  EXPECT_EQ(message("sqrt(1, 2)"), "sqrt at position 1 takes 1 argument, got 2");
  EXPECT_EQ(message("gcd(1)"), "gcd at position 1 takes at least 2 arguments, got 1");
  EXPECT_EQ(code("2 3"), errc::parse_error);
}

TEST(calculator_errors, division_by_zero) {
  EXPECT_EQ(message("1/0"), "division by zero at position 2");
  EXPECT_EQ(message("1.5 / (2 - 2)"), "division by zero at position 5");
  EXPECT_EQ(message("5 % 0"), "modulo by zero at position 3");
  EXPECT_EQ(message("0^-1"), "division by zero at position 2: 0 raised to a negative power");
  EXPECT_EQ(code("1/0"), errc::invalid_argument);
}

TEST(calculator_errors, domain_errors) {
  EXPECT_EQ(message("sqrt(-4)"), "domain error at position 1: sqrt of a negative number (-4)");
  EXPECT_EQ(message("ln(0)"), "domain error at position 1: ln needs a positive argument, got 0");
  EXPECT_EQ(message("log(8, 1)"), "domain error at position 1: log base must be positive and not 1, got 1");
  EXPECT_EQ(message("asin(2)"), "domain error at position 1: asin(2) is not a real number");
  EXPECT_EQ(message("(-8)^(1/3)"),
            "domain error at position 5: a negative number raised to a fractional power is not a real number");
  EXPECT_EQ(message("2.5!"), "domain error at position 4: factorial needs a non-negative integer");
  EXPECT_EQ(message("(-3)!"), "domain error at position 5: factorial of a negative number");
  EXPECT_EQ(message("gcd(2.5, 5)"), "domain error at position 1: gcd needs integers, got 2.5");
}

TEST(calculator_errors, overflow_is_an_error_not_a_wrong_answer) {
  EXPECT_EQ(message("2^127"),
            "integer overflow at position 2: the power does not fit in 128 bits; use a float "
            "operand (e.g. 2.0 instead of 2) for an approximate result");
  EXPECT_EQ(message("34!"),
            "integer overflow at position 3: 34! does not fit in 128 bits; write 34.0! for an "
            "approximate float");
  EXPECT_EQ(message("2^126 * 2 - 1").substr(0, 33), "integer overflow at position 7: t");
  EXPECT_EQ(message("exp(1000)"),
            "overflow at position 1: exp(1000) is too large for a float (beyond 1.8e308)");
  EXPECT_EQ(message("1e999"), "overflow at position 1: 1e999 is out of the range of a float");
  EXPECT_EQ(message("10.0^400"), "overflow at position 5: the power is too large for a float (beyond 1.8e308)");
  EXPECT_EQ(message("1" + std::string(40, '0')).substr(0, 31), "integer overflow at position 1:");
  EXPECT_EQ(message("2^(10^30)").substr(0, 31), "integer overflow at position 2:");
}

TEST(calculator_errors, limits_on_length_depth_and_factorial) {
  EXPECT_EQ(message(std::string(1001, '1')),
            "the expression is too long: 1001 characters, the limit is 1000");
  EXPECT_EQ(message(std::string(200, '(') + "1" + std::string(200, ')')),
            "expression nests too deeply at position 101: the limit is 100 levels");
  EXPECT_EQ(code(std::string(500, '-') + "1"), errc::budget_exceeded);
  EXPECT_EQ(message("1001!"), "factorial too large at position 5: the limit is 1000!");
  EXPECT_EQ(message("5!", {.max_factorial = 4}), "factorial too large at position 2: the limit is 4!");
  EXPECT_EQ(message("1+1", {.max_length = 2}), "the expression is too long: 3 characters, the limit is 2");
  EXPECT_EQ(message("2^2^2^2", {.max_depth = 3}).substr(0, 27), "expression nests too deeply");
  EXPECT_EQ(code("1001!"), errc::budget_exceeded);
}
