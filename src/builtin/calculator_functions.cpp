// The calculator's named functions and constants.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <utility>

#include "calculator_impl.hpp"

namespace tooluse::builtin::calc_detail {
namespace {

__extension__ typedef unsigned __int128 calc_uint;

result<calc_value> real_fn(double (*f)(double), std::string_view name, const args_t& a,
                           std::size_t pos) {
  double x = a[0].to_double();
  return checked_real(f(x), std::string(name) + "(" + a[0].to_string() + ")", pos);
}

/// positive_only guards the logarithms, whose NaN/-inf would otherwise read as "overflow".
tl::unexpected<error> needs_positive(std::string_view name, const calc_value& x, std::size_t pos) {
  return math_error("domain error" + at(pos) + ": " + std::string(name) +
                    " needs a positive argument, got " + x.to_string());
}

// Exact integer roots for perfect squares and cubes keep sqrt(16) an integer (so that
// sqrt(16)^40 stays exact); everything else is a double.
std::optional<calc_int> exact_root(calc_int x, int k) {
  double approx = k == 2 ? std::sqrt(static_cast<double>(x)) : std::cbrt(static_cast<double>(x));
  auto guess = to_int128(std::round(approx));
  if (!guess) return std::nullopt;
  for (calc_int r = *guess - 1; r <= *guess + 1; ++r) {
    calc_int p = 0;
    if (checked_mul(r, r, p) && (k == 2 || checked_mul(p, r, p)) && p == x) return r;
  }
  return std::nullopt;
}

result<calc_value> f_sqrt(const args_t& a, std::size_t pos) {
  if (a[0].to_double() < 0)
    return math_error("domain error" + at(pos) + ": sqrt of a negative number (" +
                      a[0].to_string() + ")");
  if (a[0].is_integer)
    if (auto r = exact_root(a[0].integer, 2)) return make_int(*r);
  return real_fn(std::sqrt, "sqrt", a, pos);
}
result<calc_value> f_cbrt(const args_t& a, std::size_t pos) {
  if (a[0].is_integer)
    if (auto r = exact_root(a[0].integer, 3)) return make_int(*r);
  return real_fn(std::cbrt, "cbrt", a, pos);
}
result<calc_value> f_abs(const args_t& a, std::size_t pos) {
  if (!a[0].is_integer) return make_real(std::fabs(a[0].real));
  if (a[0].integer < 0) return negate(a[0], pos);
  return a[0];
}
result<calc_value> f_exp(const args_t& a, std::size_t pos) { return real_fn(std::exp, "exp", a, pos); }
result<calc_value> log_with(double (*f)(double), std::string_view name, const args_t& a,
                            std::size_t pos) {
  if (a[0].to_double() <= 0) return needs_positive(name, a[0], pos);
  return real_fn(f, name, a, pos);
}
result<calc_value> f_ln(const args_t& a, std::size_t pos) { return log_with(std::log, "ln", a, pos); }
result<calc_value> f_log(const args_t& a, std::size_t pos) {
  if (a.size() == 1) return log_with(std::log, "log", a, pos);
  double base = a[1].to_double();
  if (a[0].to_double() <= 0) return needs_positive("log", a[0], pos);
  if (base <= 0 || base == 1)
    return math_error("domain error" + at(pos) + ": log base must be positive and not 1, got " +
                      a[1].to_string());
  return checked_real(std::log(a[0].to_double()) / std::log(base), "log", pos);
}
result<calc_value> f_log10(const args_t& a, std::size_t pos) { return log_with(std::log10, "log10", a, pos); }
result<calc_value> f_log2(const args_t& a, std::size_t pos) { return log_with(std::log2, "log2", a, pos); }

#define TOOLUSE_CALC_REAL(fn)                                  \
  result<calc_value> f_##fn(const args_t& a, std::size_t pos) { \
    return real_fn(std::fn, #fn, a, pos);                      \
  }
TOOLUSE_CALC_REAL(sin)
TOOLUSE_CALC_REAL(cos)
TOOLUSE_CALC_REAL(tan)
TOOLUSE_CALC_REAL(asin)
TOOLUSE_CALC_REAL(acos)
TOOLUSE_CALC_REAL(atan)
TOOLUSE_CALC_REAL(sinh)
TOOLUSE_CALC_REAL(cosh)
TOOLUSE_CALC_REAL(tanh)
#undef TOOLUSE_CALC_REAL

result<calc_value> f_atan2(const args_t& a, std::size_t pos) {
  return checked_real(std::atan2(a[0].to_double(), a[1].to_double()), "atan2", pos);
}

result<calc_value> rounding(double (*f)(double), const args_t& a) {
  if (a[0].is_integer) return a[0];
  double r = f(a[0].real);
  if (auto i = to_int128(r)) return make_int(*i);
  return make_real(r);
}
result<calc_value> f_floor(const args_t& a, std::size_t) { return rounding(std::floor, a); }
result<calc_value> f_ceil(const args_t& a, std::size_t) { return rounding(std::ceil, a); }
result<calc_value> f_round(const args_t& a, std::size_t pos) {
  if (a.size() == 1) return rounding(std::round, a);
  if (!a[1].is_integer || a[1].integer < -15 || a[1].integer > 15)
    return math_error("domain error" + at(pos) + ": round(x, digits) needs digits in -15..15");
  if (a[0].is_integer && a[1].integer >= 0) return a[0];
  double scale = std::pow(10.0, static_cast<double>(a[1].integer));
  return checked_real(std::round(a[0].to_double() * scale) / scale, "round", pos);
}

bool less(const calc_value& x, const calc_value& y) {
  if (x.is_integer && y.is_integer) return x.integer < y.integer;
  return static_cast<long double>(x.is_integer ? static_cast<long double>(x.integer) : x.real) <
         static_cast<long double>(y.is_integer ? static_cast<long double>(y.integer) : y.real);
}
result<calc_value> f_min(const args_t& a, std::size_t) { return *std::min_element(a.begin(), a.end(), less); }
result<calc_value> f_max(const args_t& a, std::size_t) { return *std::max_element(a.begin(), a.end(), less); }

result<calc_value> f_hypot(const args_t& a, std::size_t pos) {
  double r = 0;
  for (const auto& v : a) r = std::hypot(r, v.to_double());
  return checked_real(r, "hypot", pos);
}

result<calc_int> integer_arg(const calc_value& v, std::string_view name, std::size_t pos) {
  if (v.is_integer) return v.integer;
  if (auto i = to_int128(v.real)) return *i;
  return math_error("domain error" + at(pos) + ": " + std::string(name) + " needs integers, got " +
                    v.to_string());
}

calc_uint gcd_u(calc_uint x, calc_uint y) {
  while (y != 0) x = std::exchange(y, x % y);
  return x;
}

result<calc_value> f_gcd(const args_t& a, std::size_t pos) {
  calc_uint g = 0;
  for (const auto& v : a) {
    auto i = integer_arg(v, "gcd", pos);
    if (!i) return fail(i.error());
    g = gcd_u(g, *i < 0 ? calc_uint(0) - calc_uint(*i) : calc_uint(*i));
  }
  if (g > calc_uint(~calc_uint(0) >> 1)) return int_overflow("gcd", pos);
  return make_int(static_cast<calc_int>(g));
}

result<calc_value> f_lcm(const args_t& a, std::size_t pos) {
  calc_int l = 1;
  for (const auto& v : a) {
    auto i = integer_arg(v, "lcm", pos);
    if (!i) return fail(i.error());
    if (*i == 0) return make_int(0);
    auto g = f_gcd({make_int(l), make_int(*i)}, pos);
    if (!g) return g;
    calc_int r = 0;
    if (!checked_mul(l / g->integer, *i, r)) return int_overflow("lcm", pos);
    l = r < 0 ? -r : r;
  }
  return make_int(l);
}

constexpr int many = -1;
constexpr std::array<function_spec, 26> functions{{
    {"sqrt", 1, 1, f_sqrt},   {"cbrt", 1, 1, f_cbrt},   {"abs", 1, 1, f_abs},
    {"exp", 1, 1, f_exp},     {"ln", 1, 1, f_ln},       {"log", 1, 2, f_log},
    {"log10", 1, 1, f_log10}, {"log2", 1, 1, f_log2},   {"sin", 1, 1, f_sin},
    {"cos", 1, 1, f_cos},     {"tan", 1, 1, f_tan},     {"asin", 1, 1, f_asin},
    {"acos", 1, 1, f_acos},   {"atan", 1, 1, f_atan},   {"atan2", 2, 2, f_atan2},
    {"sinh", 1, 1, f_sinh},   {"cosh", 1, 1, f_cosh},   {"tanh", 1, 1, f_tanh},
    {"floor", 1, 1, f_floor}, {"ceil", 1, 1, f_ceil},   {"round", 1, 2, f_round},
    {"min", 1, many, f_min},  {"max", 1, many, f_max},  {"hypot", 2, many, f_hypot},
    {"gcd", 2, many, f_gcd},  {"lcm", 2, many, f_lcm},
}};

}  // namespace

const function_spec* find_function(std::string_view name) {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

std::optional<calc_value> find_constant(std::string_view name) {
  if (name == "pi") return make_real(std::numbers::pi);
  if (name == "e") return make_real(std::numbers::e);
  if (name == "tau") return make_real(2 * std::numbers::pi);
  return std::nullopt;
}

}  // namespace tooluse::builtin::calc_detail

namespace tooluse::builtin {

std::string calculator_names() {
  std::string out = "pi, e, tau";
  for (const auto& f : calc_detail::functions)
    out += ", " + std::string(f.name);
  return out;
}

}  // namespace tooluse::builtin
