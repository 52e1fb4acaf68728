#pragma once
// Internals of the calculator shared by its parser (calculator_parse.cpp), its arithmetic
// (calculator_math.cpp) and its functions (calculator_functions.cpp).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/builtin/calculator.hpp"

namespace tooluse::builtin::calc_detail {

using value = calc_value;
using args_t = std::vector<calc_value>;

/// at renders " at position N" (1-based).
std::string at(std::size_t pos);

/// math_error is an errc::invalid_argument error: division by zero, domain, overflow.
tl::unexpected<error> math_error(std::string message);

calc_value make_int(calc_int v);
calc_value make_real(double v);

/// checked_real turns a double result into a value, or a domain/overflow error when it is NaN
/// or infinite (`what` names the operation, e.g. "sqrt(-1)" or "2.0^5000").
result<calc_value> checked_real(double v, std::string_view what, std::size_t pos);

/// checked_mul multiplies exactly; false on overflow of 128 bits.
bool checked_mul(calc_int a, calc_int b, calc_int& out);

/// int_overflow is the error for an exact result that does not fit in 128 bits.
tl::unexpected<error> int_overflow(std::string_view what, std::size_t pos);

/// to_int128 converts an integral double to an integer if it fits in 128 bits.
std::optional<calc_int> to_int128(double d);

/// int_to_string prints a 128-bit integer in decimal.
std::string int_to_string(calc_int v);

/// binary applies `+ - * / % ^` at position `pos`.
result<calc_value> binary(char op, const calc_value& a, const calc_value& b, std::size_t pos);
/// negate is unary minus.
result<calc_value> negate(const calc_value& a, std::size_t pos);
/// factorial is postfix `!`.
result<calc_value> factorial(const calc_value& a, std::size_t pos, const calc_limits& limits);

/// function_spec is one callable name: arity bounds (max -1: unbounded) and its body.
struct function_spec {
  std::string_view name;
  int min_args;
  int max_args;
  result<calc_value> (*fn)(const args_t& args, std::size_t pos);
};

/// find_function returns the function called `name`, or nullptr.
const function_spec* find_function(std::string_view name);
/// find_constant returns the constant called `name` (pi, e, tau).
std::optional<calc_value> find_constant(std::string_view name);

}  // namespace tooluse::builtin::calc_detail
