// evaluate(): the edges of each named function and of 128-bit arithmetic that the acceptance
// tests do not reach: exact roots, rounding to digits, gcd/lcm signs and overflow, the
// boundaries of the integer range, arity messages, tiny and huge literals.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "tooluse/builtin/calculator.hpp"

namespace calculator_functions_test {
namespace {

using tooluse::errc;
using tooluse::builtin::evaluate;

std::string eval(std::string_view expr) {
  auto v = evaluate(expr);
  return v ? v->to_string() : "error: " + v.error().message;
}

bool is_integer(std::string_view expr) {
  auto v = evaluate(expr);
  EXPECT_TRUE(v.has_value()) << expr;
  return v && v->is_integer;
}

errc code_of(std::string_view expr) {
  auto v = evaluate(expr);
  EXPECT_FALSE(v.has_value()) << expr;
  return v ? errc{} : v.error().code;
}

const std::string k_int_max = "170141183460469231731687303715884105727";
const std::string k_int_min = "-170141183460469231731687303715884105728";

TEST(calculator_functions, exact_roots_stay_integers_and_others_become_floats) {
  EXPECT_EQ(eval("sqrt(2^126)"), "9223372036854775808");
  EXPECT_TRUE(is_integer("sqrt(2^126)"));
  EXPECT_TRUE(is_integer("sqrt(0)"));
  EXPECT_EQ(eval("sqrt(15)"), "3.872983346207417");
  EXPECT_FALSE(is_integer("sqrt(15)"));
  EXPECT_EQ(eval("cbrt(-27)"), "-3");
  EXPECT_TRUE(is_integer("cbrt(-27)"));
  EXPECT_EQ(eval("cbrt(2)").substr(0, 14), "1.259921049894");
  EXPECT_EQ(eval("sqrt(16)^40"), "1208925819614629174706176");
  EXPECT_EQ(eval("sqrt(2.25)"), "1.5");
}

TEST(calculator_functions, abs_and_negation_at_the_ends_of_the_range) {
  EXPECT_EQ(eval("-2^126 * 2"), k_int_min);
  EXPECT_EQ(eval("(-2)^127"), k_int_min);
  EXPECT_EQ(eval("-(2^126 + (2^126 - 1)) - 1"), k_int_min);
  auto abs_min = evaluate("abs(-2^126 * 2)");
  ASSERT_FALSE(abs_min.has_value());
  EXPECT_EQ(abs_min.error().message.substr(0, 51), "integer overflow at position 1: the negation does n");
  EXPECT_EQ(code_of("-(-2^126 * 2)"), errc::invalid_argument);
  EXPECT_EQ(code_of("(-2^126 * 2) / -1"), errc::invalid_argument);
  EXPECT_EQ(eval("(-2^126 * 2) % -1"), "0");
  EXPECT_EQ(eval("abs(-0.0)"), "0");
}

TEST(calculator_functions, powers_of_zero_one_and_minus_one_never_overflow) {
  EXPECT_EQ(eval("0^0"), "1");
  EXPECT_EQ(eval("0^(10^30)"), "0");
  EXPECT_EQ(eval("1^(10^30)"), "1");
  EXPECT_EQ(eval("(-1)^(10^30)"), "1");
  EXPECT_EQ(eval("(-1)^(10^30 + 1)"), "-1");
  EXPECT_EQ(eval("2^-2"), "0.25");
  EXPECT_EQ(eval("(-2)^-1"), "-0.5");
  EXPECT_EQ(eval("(-8.0)^3"), "-512");
  EXPECT_EQ(eval("0.0^-1"), "error: division by zero at position 4: 0 raised to a negative power");
  EXPECT_EQ(eval("2^0.5"), "1.4142135623730951");
}

TEST(calculator_functions, rounding_to_digits) {
  EXPECT_EQ(eval("round(1234, -2)"), "1200");
  EXPECT_EQ(eval("round(1234, 2)"), "1234");
  EXPECT_TRUE(is_integer("round(1234, 2)"));
  EXPECT_EQ(eval("round(-2.5)"), "-3");
  EXPECT_EQ(eval("round(2.675, 1)"), "2.7");
  EXPECT_EQ(eval("round(1e300)"), "1e+300");
  EXPECT_FALSE(is_integer("round(1e300)"));
  EXPECT_EQ(eval("floor(-0.5)"), "-1");
  EXPECT_EQ(eval("ceil(-0.5)"), "0");
  EXPECT_EQ(eval("floor(7)"), "7");
  EXPECT_EQ(eval("round(2.5, 16)"),
            "error: domain error at position 1: round(x, digits) needs digits in -15..15");
  EXPECT_EQ(eval("round(2.5, 0.5)"),
            "error: domain error at position 1: round(x, digits) needs digits in -15..15");
}

TEST(calculator_functions, min_and_max_compare_integers_with_floats) {
  EXPECT_EQ(eval("min(7)"), "7");
  EXPECT_EQ(eval("max(2^100, 1e30)"), "1267650600228229401496703205376");
  EXPECT_EQ(eval("min(2^100, 1e31)"), "1267650600228229401496703205376");
  EXPECT_EQ(eval("max(-1, -0.5, -2)"), "-0.5");
  EXPECT_EQ(eval("max(3, 3.0)"), "3");
}

TEST(calculator_functions, gcd_and_lcm_signs_zeros_and_overflow) {
  EXPECT_EQ(eval("gcd(-12, 18)"), "6");
  EXPECT_EQ(eval("gcd(0, 0)"), "0");
  EXPECT_EQ(eval("gcd(0, 5)"), "5");
  EXPECT_EQ(eval("gcd(12.0, 8)"), "4");
  EXPECT_EQ(eval("lcm(-4, 6)"), "12");
  EXPECT_EQ(eval("lcm(0, 5)"), "0");
  EXPECT_EQ(eval("lcm(2^60, 3^30)"), "237376313799769806328950291431424");
  EXPECT_EQ(eval("lcm(2.5, 2)"), "error: domain error at position 1: lcm needs integers, got 2.5");
  auto gcd_big = evaluate("gcd(-2^126 * 2, 0)");
  ASSERT_FALSE(gcd_big.has_value());
  EXPECT_EQ(gcd_big.error().message.substr(0, 40), "integer overflow at position 1: gcd does");
  auto lcm_big = evaluate("lcm(2^100, 3^70)");
  ASSERT_FALSE(lcm_big.has_value());
  EXPECT_EQ(lcm_big.error().message.substr(0, 40), "integer overflow at position 1: lcm does");
}

TEST(calculator_functions, logarithms_and_trigonometry_at_their_domains) {
  EXPECT_EQ(eval("log(-1, 2)"), "error: domain error at position 1: log needs a positive argument, got -1");
  EXPECT_EQ(eval("log(8, -2)"), "error: domain error at position 1: log base must be positive and not 1, got -2");
  EXPECT_EQ(eval("log2(0)"), "error: domain error at position 1: log2 needs a positive argument, got 0");
  EXPECT_EQ(eval("log10(-0.5)"), "error: domain error at position 1: log10 needs a positive argument, got -0.5");
  EXPECT_EQ(eval("acos(2)"), "error: domain error at position 1: acos(2) is not a real number");
  EXPECT_EQ(eval("acos(1)"), "0");
  EXPECT_EQ(eval("atan(1) * 4"), "3.141592653589793");
  EXPECT_EQ(eval("sinh(1000)"),
            "error: overflow at position 1: sinh(1000) is too large for a float (beyond 1.8e308)");
  EXPECT_EQ(eval("cosh(0)"), "1");
  EXPECT_EQ(eval("exp(-1000)"), "0");
  EXPECT_EQ(eval("hypot(1.5e308, 1.5e308)"),
            "error: overflow at position 1: hypot is too large for a float (beyond 1.8e308)");
  EXPECT_EQ(eval("hypot(3, 4, 0)"), "5");
}

TEST(calculator_functions, arity_messages_for_each_kind_of_function) {
  EXPECT_EQ(eval("log(1, 2, 3)"), "error: log at position 1 takes 1 or 2 arguments, got 3");
  EXPECT_EQ(eval("atan2(1)"), "error: atan2 at position 1 takes 2 arguments, got 1");
  EXPECT_EQ(eval("min()"), "error: min at position 1 takes at least 1 argument, got 0");
  EXPECT_EQ(eval("2 * hypot(1)"), "error: hypot at position 5 takes at least 2 arguments, got 1");
  EXPECT_EQ(code_of("min()"), errc::parse_error);
}

TEST(calculator_functions, literals_at_the_edges_of_their_types) {
  EXPECT_EQ(eval(k_int_max), k_int_max);
  EXPECT_EQ(eval("-" + k_int_max.substr(0) + " - 1"), k_int_min);
  EXPECT_EQ(eval(k_int_max + " + 1").substr(0, 45), "error: integer overflow at position 41: the s");
  EXPECT_EQ(eval("1e308 * 10"),
            "error: overflow at position 7: the product is too large for a float (beyond 1.8e308)");
  EXPECT_EQ(eval("1.7976931348623157e308"), "1.7976931348623157e+308");
  EXPECT_EQ(eval("5e-324"), "5e-324");
  EXPECT_EQ(eval("2E3"), "2000");
}

TEST(calculator_functions, a_literal_too_small_for_a_float_is_zero_not_an_overflow) {
  // As in Python (1e-400 == 0.0): underflow is not an error, and is not called an overflow.
  EXPECT_EQ(eval("1e-400"), "0");
  EXPECT_EQ(eval("1 + 1e-400"), "1");
  EXPECT_EQ(eval("-1e-400"), "0");
}

TEST(calculator_functions, integer_division_is_exact_when_it_divides) {
  EXPECT_TRUE(is_integer("2^100 / 2^50"));
  EXPECT_EQ(eval("2^100 / 2^50"), "1125899906842624");
  EXPECT_EQ(eval("-9 / 3"), "-3");
  EXPECT_EQ(eval("7 / -2"), "-3.5");
  EXPECT_EQ(eval("-7 % -3"), "-1");
  EXPECT_EQ(eval("-7.5 % 2"), "0.5");
  EXPECT_EQ(eval("7.5 % -2"), "-0.5");
  EXPECT_EQ(eval("5 % 0.0"), "error: modulo by zero at position 3");
  EXPECT_EQ(eval("1e300 * 1e300 / 2").substr(0, 32), "error: overflow at position 7: t");
}

TEST(calculator_functions, factorials_of_edge_values) {
  EXPECT_EQ(eval("0!"), "1");
  EXPECT_EQ(eval("1!"), "1");
  EXPECT_EQ(eval("0.0!"), "1");
  EXPECT_EQ(eval("3!!"), "720");
  EXPECT_EQ(eval("(2+1)!"), "6");
  EXPECT_EQ(eval("170.0!").substr(0, 13), "7.25741561530");
  EXPECT_EQ(eval("171.0!"),
            "error: overflow at position 6: 171.0! is too large for a float (beyond 1.8e308)");
  EXPECT_EQ(eval("(2^100)!").substr(0, 42), "error: factorial too large at position 8: ");
  EXPECT_EQ(code_of("(1e300)!"), errc::budget_exceeded);
}

TEST(calculator_functions, names_list_constants_then_every_function) {
  std::string names = tooluse::builtin::calculator_names();
  EXPECT_EQ(names.rfind("pi, e, tau, sqrt", 0), 0u);
  for (const char* fn : {"cbrt", "atan2", "hypot", "gcd", "lcm", "log10", "log2", "round"})
    EXPECT_NE(names.find(fn), std::string::npos) << fn;
  EXPECT_EQ(names.substr(names.size() - 3), "lcm");
}

TEST(calculator_functions, evaluate_is_pure_and_safe_from_many_threads) {
  std::vector<std::thread> threads;
  std::vector<std::string> results(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      std::string out;
      for (int i = 0; i < 200; ++i) out = eval("(" + std::to_string(t) + "+2)^20 + gcd(12, 18)");
      results[static_cast<std::size_t>(t)] = out;
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(results[0], "1048582");
  EXPECT_EQ(results[1], "3486784407");
  EXPECT_EQ(results[3], "95367431640631");
}

}  // namespace
}  // namespace calculator_functions_test
