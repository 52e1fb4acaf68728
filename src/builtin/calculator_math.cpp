// The calculator's arithmetic: exact 128-bit integers with overflow checks, doubles otherwise.
#include <charconv>
#include <cmath>
#include <limits>

#include "calculator_impl.hpp"

namespace tooluse::builtin {
namespace calc_detail {
namespace {

__extension__ typedef unsigned __int128 calc_uint;

constexpr calc_int int_max = static_cast<calc_int>(~calc_uint(0) >> 1);
constexpr calc_int int_min = -int_max - 1;

// 2^127 as a double, exact: the bound for converting doubles to calc_int.
constexpr double two_127 = 170141183460469231731687303715884105728.0;

calc_uint magnitude(calc_int v) { return v < 0 ? calc_uint(0) - calc_uint(v) : calc_uint(v); }

result<calc_value> int_pow(calc_int base, calc_int exp, std::size_t pos) {
  if (base == 0 || base == 1) return make_int(exp == 0 ? 1 : base);
  if (base == -1) return make_int(exp % 2 == 0 ? 1 : -1);
  if (exp >= 128) return int_overflow("the power", pos);  // |base| >= 2
  calc_int result = 1;
  calc_int b = base;
  for (calc_int e = exp; e > 0; e >>= 1) {
    if ((e & 1) && !checked_mul(result, b, result)) return int_overflow("the power", pos);
    if (e > 1 && !checked_mul(b, b, b)) return int_overflow("the power", pos);
  }
  return make_int(result);
}

result<calc_value> int_binary(char op, calc_int a, calc_int b, std::size_t pos) {
  calc_int r = 0;
  switch (op) {
    case '+':
      if (__builtin_add_overflow(a, b, &r)) return int_overflow("the sum", pos);
      return make_int(r);
    case '-':
      if (__builtin_sub_overflow(a, b, &r)) return int_overflow("the difference", pos);
      return make_int(r);
    case '*':
      if (!checked_mul(a, b, r)) return int_overflow("the product", pos);
      return make_int(r);
    case '/':
      if (b == 0) return math_error("division by zero" + at(pos));
      if (b == -1) {
        if (a == int_min) return int_overflow("the quotient", pos);
        return make_int(-a);
      }
      if (a % b == 0) return make_int(a / b);
      return make_real(static_cast<double>(a) / static_cast<double>(b));
    case '%': {
      if (b == 0) return math_error("modulo by zero" + at(pos));
      if (b == -1) return make_int(0);
      r = a % b;
      if (r != 0 && ((r < 0) != (b < 0))) r += b;  // Python: the sign of the divisor
      return make_int(r);
    }
    default:  // '^'
      if (b >= 0) return int_pow(a, b, pos);
      if (a == 0) return math_error("division by zero" + at(pos) + ": 0 raised to a negative power");
      return checked_real(std::pow(static_cast<double>(a), static_cast<double>(b)), "the power", pos);
  }
}

result<calc_value> real_binary(char op, double a, double b, std::size_t pos) {
  switch (op) {
    case '+': return checked_real(a + b, "the sum", pos);
    case '-': return checked_real(a - b, "the difference", pos);
    case '*': return checked_real(a * b, "the product", pos);
    case '/':
      if (b == 0) return math_error("division by zero" + at(pos));
      return checked_real(a / b, "the quotient", pos);
    case '%': {
      if (b == 0) return math_error("modulo by zero" + at(pos));
      double r = std::fmod(a, b);
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      return checked_real(r, "the remainder", pos);
    }
    default:
      if (a == 0 && b < 0)
        return math_error("division by zero" + at(pos) + ": 0 raised to a negative power");
      if (a < 0 && std::trunc(b) != b)
        return math_error("domain error" + at(pos) +
                          ": a negative number raised to a fractional power is not a real number");
      return checked_real(std::pow(a, b), "the power", pos);
  }
}

}  // namespace

std::string at(std::size_t pos) { return " at position " + std::to_string(pos); }

tl::unexpected<error> math_error(std::string message) {
  return fail(errc::invalid_argument, std::move(message));
}

calc_value make_int(calc_int v) { return calc_value{true, v, 0}; }
calc_value make_real(double v) { return calc_value{false, 0, v}; }

result<calc_value> checked_real(double v, std::string_view what, std::size_t pos) {
  if (std::isnan(v))
    return math_error("domain error" + at(pos) + ": " + std::string(what) + " is not a real number");
  if (std::isinf(v))
    return math_error("overflow" + at(pos) + ": " + std::string(what) +
                      " is too large for a float (beyond 1.8e308)");
  return make_real(v);
}

bool checked_mul(calc_int a, calc_int b, calc_int& out) {
  // Done by hand: __builtin_mul_overflow on __int128 needs compiler-rt under clang.
  if (a == 0 || b == 0) {
    out = 0;
    return true;
  }
  calc_uint ma = magnitude(a), mb = magnitude(b);
  if (ma > ~calc_uint(0) / mb) return false;
  calc_uint p = ma * mb;
  bool negative = (a < 0) != (b < 0);
  calc_uint limit = negative ? calc_uint(int_max) + 1 : calc_uint(int_max);
  if (p > limit) return false;
  out = negative ? (p == calc_uint(int_max) + 1 ? int_min : -static_cast<calc_int>(p))
                 : static_cast<calc_int>(p);
  return true;
}

tl::unexpected<error> int_overflow(std::string_view what, std::size_t pos) {
  return math_error("integer overflow" + at(pos) + ": " + std::string(what) +
                    " does not fit in 128 bits; use a float operand (e.g. 2.0 instead of 2) "
                    "for an approximate result");
}

std::optional<calc_int> to_int128(double d) {
  if (!std::isfinite(d) || std::trunc(d) != d || d >= two_127 || d < -two_127) return std::nullopt;
  return static_cast<calc_int>(d);
}

std::string int_to_string(calc_int v) {
  calc_uint m = magnitude(v);
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  if (v < 0) digits.push_back('-');
  return {digits.rbegin(), digits.rend()};
}

result<calc_value> binary(char op, const calc_value& a, const calc_value& b, std::size_t pos) {
  if (a.is_integer && b.is_integer) return int_binary(op, a.integer, b.integer, pos);
  return real_binary(op, a.to_double(), b.to_double(), pos);
}

result<calc_value> negate(const calc_value& a, std::size_t pos) {
  if (!a.is_integer) return make_real(-a.real);
  if (a.integer == int_min) return int_overflow("the negation", pos);
  return make_int(-a.integer);
}

result<calc_value> factorial(const calc_value& a, std::size_t pos, const calc_limits& limits) {
  double as_double = a.to_double();
  if (!a.is_integer && (std::trunc(a.real) != a.real || !std::isfinite(a.real)))
    return math_error("domain error" + at(pos) + ": factorial needs a non-negative integer");
  if (as_double < 0)
    return math_error("domain error" + at(pos) + ": factorial of a negative number");
  if (as_double > limits.max_factorial)
    return fail(errc::budget_exceeded, "factorial too large" + at(pos) + ": the limit is " +
                                           std::to_string(limits.max_factorial) + "!");
  int n = static_cast<int>(as_double);
  if (!a.is_integer)  // a float operand asks for an approximate result
    return checked_real(std::tgamma(n + 1.0), std::to_string(n) + ".0!", pos);
  calc_int r = 1;
  for (int i = 2; i <= n; ++i)
    if (!checked_mul(r, i, r))
      return math_error("integer overflow" + at(pos) + ": " + std::to_string(n) +
                        "! does not fit in 128 bits; write " + std::to_string(n) +
                        ".0! for an approximate float");
  return make_int(r);
}

}  // namespace calc_detail

std::string calc_value::to_string() const {
  if (is_integer) return calc_detail::int_to_string(integer);
  if (real == 0) return "0";  // also -0
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, real);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

double calc_value::to_double() const { return is_integer ? static_cast<double>(integer) : real; }

}  // namespace tooluse::builtin
