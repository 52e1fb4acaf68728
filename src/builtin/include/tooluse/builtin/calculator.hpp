#pragma once
/// \file calculator.hpp
/// The calculator: a safe arithmetic evaluator (a real parser, never any eval) and the
/// `calculator` tool built on it (seed 002's safe_eval, in C++). docs/builtin-tools.md has the
/// grammar and examples.

#include <cstddef>
#include <string>
#include <string_view>

#include "tooluse/result.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse::builtin {

/// calc_int is the calculator's exact integer: signed 128 bits.
__extension__ typedef __int128 calc_int;

/// calc_limits bound the work one expression may cause.
struct calc_limits {
  std::size_t max_length = 1000;  ///< characters in the expression
  int max_depth = 100;            ///< nesting of parentheses, unary signs and powers
  int max_factorial = 1000;       ///< largest n accepted by n!
};

/// calc_value is a result: an exact integer, or a double when the expression needs one (a
/// float literal, an inexact division, a function like sin). Cheap to copy.
struct calc_value {
  bool is_integer = true;
  calc_int integer = 0;  ///< valid when is_integer
  double real = 0;       ///< valid when !is_integer

  /// to_string prints integers exactly and doubles as the shortest text that reads back to
  /// the same double ("2.5", "0.30000000000000004", "1e+100"); -0 prints as "0".
  std::string to_string() const;
  /// to_double converts to the nearest double.
  double to_double() const;
};

/// evaluate parses and evaluates an arithmetic expression.
/// Grammar (lowest to highest precedence): `+ -`; `* / %`; unary `- +`; `^` or `**`
/// (right-associative, binding tighter than a unary minus on its left, as in Python:
/// -2**2 is -4, 2^-1 is 0.5); postfix factorial `!`; numbers (`12`, `1.5`, `.5`, `2e-3`),
/// constants pi, e, tau, parentheses and function calls: sqrt cbrt abs exp ln log log10 log2
/// sin cos tan asin acos atan atan2 sinh cosh tanh floor ceil round min max hypot gcd lcm.
/// Integers stay exact up to 128 bits; `/` of integers is exact when it divides evenly and a
/// double otherwise; `%` takes the sign of the divisor (Python's rule); log(x) is the natural
/// logarithm and log(x, b) is base b; round rounds half away from zero.
/// Errors (positions are 1-based character offsets):
///   errc::parse_error: bad syntax (`syntax error at position 5: ...`), unknown names
///     (`unknown name "__import__" at position 1; allowed names: ...`);
///   errc::invalid_argument: division by zero, domain errors (sqrt(-1), ln(0), 2.5!),
///     integer overflow beyond 128 bits, float overflow to infinity;
///   errc::budget_exceeded: the expression is longer than limits.max_length, nests deeper
///     than limits.max_depth, or asks for a factorial above limits.max_factorial.
/// Thread-safety: pure; safe to call concurrently.
/// Example:
///   auto v = tooluse::builtin::evaluate("(2+3)*4^2");  // v->to_string() == "80"
result<calc_value> evaluate(std::string_view expression, const calc_limits& limits = {});

/// calculator_names lists the names evaluate accepts (constants, then functions), for error
/// messages and the tool description.
std::string calculator_names();

/// register_calculator adds the `calculator` tool: arguments {"expression": "..."}, result
/// the number as text (e.g. "7006652"); an error result says what is wrong and where.
/// Throws std::invalid_argument if the name "calculator" is taken.
void register_calculator(tool_registry& registry, const calc_limits& limits = {});

}  // namespace tooluse::builtin
