// The `calculator` tool: a typed tool over evaluate().
#include "tooluse/builtin/calculator.hpp"
#include "builtin/tool_util.hpp"
#include "tooluse/tools/typed.hpp"

namespace tooluse::builtin {
namespace {

struct calculator_args {
  std::string expression;
};
TOOLUSE_DESCRIBE(calculator_args,
                 (expression, "The expression, e.g. \"(2+3)*4^2\", \"sqrt(16)\", \"13!\", \"10/4\"",
                  tooluse::min_length(1)))

const char* const description =
    "Evaluate an arithmetic expression exactly and return the number. Use it for any "
    "arithmetic instead of computing in your head. Operators: + - * / % ^ (or **, "
    "right-associative; -2^2 is -4), unary minus, parentheses, factorial n!. Functions: sqrt "
    "cbrt abs exp ln log (natural; log(x, base)) log10 log2 sin cos tan asin acos atan "
    "atan2(y, x) sinh cosh tanh (radians) floor ceil round min max hypot gcd lcm. Constants: "
    "pi, e, tau. Integers are exact up to 128 bits (13! = 6227020800); / gives a decimal when "
    "the division is not exact (10/4 = 2.5). Errors say what is wrong and at which position.";

}  // namespace

void register_calculator(tool_registry& registry, const calc_limits& limits) {
  tool definition =
      detail::builtin_tool("calculator", "Calculator", description,
                           {.annotations = detail::hints::reads,
                            .category = "math",
                            .tags = {"math", "builtin"},
                            .synchronous = true});  // bounded by calc_limits, no I/O: runs inline
  add_tool(registry, std::move(definition), [limits](const calculator_args& in) -> result<std::string> {
    auto v = evaluate(in.expression, limits);
    if (!v) return fail(v.error());
    return v->to_string();
  });
}

}  // namespace tooluse::builtin
