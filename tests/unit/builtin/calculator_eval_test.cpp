// evaluate(): exact integers, floats, precedence and functions.
#include <gtest/gtest.h>

#include <string>

#include "tooluse/builtin/calculator.hpp"

namespace {

std::string eval(std::string_view expr) {
  auto v = tooluse::builtin::evaluate(expr);
  return v ? v->to_string() : "error: " + v.error().message;
}

}  // namespace

TEST(calculator_eval, acceptance_expressions) {
  EXPECT_EQ(eval("1234*5678"), "7006652");
  EXPECT_EQ(eval("13!"), "6227020800");
  EXPECT_EQ(eval("2^62"), "4611686018427387904");
  EXPECT_EQ(eval("sqrt(16)"), "4");
  EXPECT_EQ(eval("10/4"), "2.5");
  EXPECT_EQ(eval("(2+3)*4^2"), "80");
}

TEST(calculator_eval, integers_stay_exact_past_64_bits) {
  EXPECT_EQ(eval("2^64"), "18446744073709551616");
  EXPECT_EQ(eval("2^126 + (2^126 - 1)"), "170141183460469231731687303715884105727");
  EXPECT_EQ(eval("-2^126 * 2"), "-170141183460469231731687303715884105728");
  EXPECT_EQ(eval("25!"), "15511210043330985984000000");
  EXPECT_EQ(eval("33!"), "8683317618811886495518194401280000000");
  EXPECT_EQ(eval("9007199254740993 + 0"), "9007199254740993");
  EXPECT_EQ(eval("99999999999999999999 * 3"), "299999999999999999997");
}

TEST(calculator_eval, precedence_and_associativity) {
  EXPECT_EQ(eval("-2**2"), "-4");
  EXPECT_EQ(eval("(-2)**2"), "4");
  EXPECT_EQ(eval("2^3^2"), "512");
  EXPECT_EQ(eval("2**-1"), "0.5");
  EXPECT_EQ(eval("2^3!"), "64");
  EXPECT_EQ(eval("-3!"), "-6");
  EXPECT_EQ(eval("1 - 2 - 3"), "-4");
  EXPECT_EQ(eval("100 / 10 / 5"), "2");
  EXPECT_EQ(eval("2 + 3 * 4"), "14");
  EXPECT_EQ(eval("--3"), "3");
  EXPECT_EQ(eval("+7"), "7");
  EXPECT_EQ(eval("  ( 1 + 2 ) * 3  "), "9");
}

TEST(calculator_eval, division_and_modulo) {
  EXPECT_EQ(eval("10/2"), "5");
  EXPECT_EQ(eval("1/3"), "0.3333333333333333");
  EXPECT_EQ(eval("7 % 3"), "1");
  EXPECT_EQ(eval("-7 % 3"), "2");
  EXPECT_EQ(eval("7 % -3"), "-2");
  EXPECT_EQ(eval("7.5 % 2"), "1.5");
}

TEST(calculator_eval, floats_print_shortest_round_trip) {
  EXPECT_EQ(eval("0.1 + 0.2"), "0.30000000000000004");
  EXPECT_EQ(eval("1.5 * 2"), "3");
  EXPECT_EQ(eval("1e100"), "1e+100");
  EXPECT_EQ(eval(".5"), "0.5");
  EXPECT_EQ(eval("2.5e-3"), "0.0025");
  EXPECT_EQ(eval("-0.0"), "0");
  EXPECT_EQ(eval("2.0^64"), "18446744073709551616");  // the double's exact value
  EXPECT_EQ(eval("2.0^80"), "1.2089258196146292e+24");
}

TEST(calculator_eval, functions_and_constants) {
  EXPECT_EQ(eval("sqrt(2)"), "1.4142135623730951");
  EXPECT_EQ(eval("sqrt(10^30)"), "1000000000000000");
  EXPECT_EQ(eval("cbrt(27)"), "3");
  EXPECT_EQ(eval("cbrt(-8)"), "-2");
  EXPECT_EQ(eval("abs(-5)"), "5");
  EXPECT_EQ(eval("abs(-2.5)"), "2.5");
  EXPECT_EQ(eval("exp(0)"), "1");
  EXPECT_EQ(eval("ln(e)"), "1");
  EXPECT_EQ(eval("log(8, 2)"), "3");
  EXPECT_EQ(eval("log10(1000)"), "3");
  EXPECT_EQ(eval("log2(1024)"), "10");
  EXPECT_EQ(eval("sin(0)"), "0");
  EXPECT_EQ(eval("cos(pi)"), "-1");
  EXPECT_EQ(eval("atan2(1, 1) * 4"), "3.141592653589793");
  EXPECT_EQ(eval("tanh(0)"), "0");
  EXPECT_EQ(eval("floor(2.7)"), "2");
  EXPECT_EQ(eval("ceil(-2.7)"), "-2");
  EXPECT_EQ(eval("round(2.5)"), "3");
  EXPECT_EQ(eval("round(3.14159, 2)"), "3.14");
  EXPECT_EQ(eval("min(3, 1.5, 2)"), "1.5");
  EXPECT_EQ(eval("max(3, 1.5, 2)"), "3");
  EXPECT_EQ(eval("hypot(3, 4)"), "5");
  EXPECT_EQ(eval("gcd(12, 18, 27)"), "3");
  EXPECT_EQ(eval("lcm(4, 6, 10)"), "60");
  EXPECT_EQ(eval("pi"), "3.141592653589793");
  EXPECT_EQ(eval("tau / 2"), "3.141592653589793");
  EXPECT_EQ(eval("e"), "2.718281828459045");
}

TEST(calculator_eval, float_factorial_is_approximate) {
  EXPECT_EQ(eval("5.0!"), "120");
  EXPECT_EQ(eval("40.0!"), "8.159152832478977e+47");
}
