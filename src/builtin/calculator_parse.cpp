// The calculator's parser: recursive descent over the expression text, evaluating as it goes.
// There is no eval and no name lookup beyond the fixed tables in calculator_functions.cpp.
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "calculator_impl.hpp"

namespace tooluse::builtin {
namespace {

using namespace calc_detail;

class parser {
 public:
  parser(std::string_view text, const calc_limits& limits) : s_(text), limits_(limits) {}

  result<calc_value> run() {
    skip_ws();
    if (i_ == s_.size()) return syntax("the expression is empty; write one such as 2+2");
    auto v = additive();
    if (!v) return v;
    skip_ws();
    if (i_ < s_.size())
      return syntax("syntax error" + at(pos()) + ": unexpected " + describe_here() +
                    "; expected an operator (+ - * / % ^ !) or the end");
    return v;
  }

 private:
  std::string_view s_;
  const calc_limits& limits_;
  std::size_t i_ = 0;
  int depth_ = 0;

  std::size_t pos() const { return i_ + 1; }
  static tl::unexpected<error> syntax(std::string m) { return fail(errc::parse_error, std::move(m)); }

  void skip_ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  /// peek_op tells whether the text at i_ (after spaces) is `op`, without consuming it.
  bool peek_op(std::string_view op) {
    skip_ws();
    return s_.substr(i_, op.size()) == op;
  }
  std::string describe_here() const {
    if (i_ >= s_.size()) return "end of expression";
    unsigned char c = static_cast<unsigned char>(s_[i_]);
    if (c < 0x20 || c >= 0x7f) return "byte 0x" + std::string(1, "0123456789abcdef"[c >> 4]) +
                                       std::string(1, "0123456789abcdef"[c & 15]);
    return "\"" + std::string(1, static_cast<char>(c)) + "\"";
  }

  // left_assoc parses `operand (op operand)*` while `at_op` sees an operator of this level
  // next, folding to the left.
  template <class AtOp, class Operand>
  result<calc_value> left_assoc(AtOp at_op, Operand operand) {
    auto left = operand();
    while (left && at_op()) {
      char op = s_[i_];
      std::size_t op_pos = pos();
      ++i_;
      auto right = operand();
      if (!right) return right;
      left = binary(op, *left, *right, op_pos);
    }
    return left;
  }

  result<calc_value> additive() {
    return left_assoc([&] { return peek_op("+") || peek_op("-"); },
                      [&] { return multiplicative(); });
  }

  result<calc_value> multiplicative() {
    return left_assoc(
        [&] { return (peek_op("*") && !peek_op("**")) || peek_op("/") || peek_op("%"); },
        [&] { return unary(); });
  }

  // unary binds looser than ^ (so -2^2 is -4) and is where every recursion passes, so the
  // depth limit is checked here.
  result<calc_value> unary() {
    if (++depth_ > limits_.max_depth) {
      return fail(errc::budget_exceeded, "expression nests too deeply" + at(pos()) +
                                             ": the limit is " +
                                             std::to_string(limits_.max_depth) + " levels");
    }
    result<calc_value> v;
    if (peek_op("-") || peek_op("+")) {
      char op = s_[i_];
      std::size_t at_op = pos();
      ++i_;
      v = unary();
      if (v && op == '-') v = negate(*v, at_op);
    } else {
      v = power();
    }
    --depth_;
    return v;
  }

  result<calc_value> power() {
    auto base = postfix();
    if (!base) return base;
    if (peek_op("^") || peek_op("**")) {
      std::size_t at_op = pos();
      i_ += s_[i_] == '^' ? 1 : 2;
      auto exponent = unary();  // right-associative, and 2^-1 is allowed
      if (!exponent) return exponent;
      return binary('^', *base, *exponent, at_op);
    }
    return base;
  }

  result<calc_value> postfix() {
    auto v = primary();
    while (v && peek_op("!")) {
      std::size_t at_op = pos();
      ++i_;
      v = factorial(*v, at_op, limits_);
    }
    return v;
  }

  result<calc_value> primary() {
    skip_ws();
    if (i_ >= s_.size())
      return syntax("syntax error" + at(pos()) +
                    ": expected a number, a name or \"(\" but the expression ended");
    char c = s_[i_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name();
    if (c == '(') {
      std::size_t open = pos();
      ++i_;
      auto v = additive();
      if (!v) return v;
      if (!peek_op(")"))
        return syntax("syntax error" + at(pos()) + ": expected \")\" to close the \"(\"" +
                      at(open) + ", got " + describe_here());
      ++i_;
      return v;
    }
    return syntax("syntax error" + at(pos()) + ": unexpected " + describe_here() +
                  "; expected a number, a name or \"(\"");
  }

  result<calc_value> number() {
    std::size_t start = i_;
    bool is_float = false;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    if (i_ < s_.size() && s_[i_] == '.') {
      is_float = true;
      ++i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      std::size_t j = i_ + 1;
      if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
      if (j < s_.size() && std::isdigit(static_cast<unsigned char>(s_[j]))) {
        is_float = true;
        i_ = j;
        while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
      }
    }
    std::string_view text = s_.substr(start, i_ - start);
    if (text == ".") return syntax("syntax error" + at(start + 1) + ": \".\" is not a number");
    if (!is_float) return integer_literal(text, start + 1);
    double d = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (ec == std::errc::result_out_of_range) {
      // Too small for a float (1e-400) is zero, as in Python; only too large is an error.
      double nearest = std::strtod(std::string(text).c_str(), nullptr);
      if (std::fabs(nearest) < 1) return make_real(nearest);
      return math_error("overflow" + at(start + 1) + ": " + std::string(text) +
                        " is out of the range of a float");
    }
    if (ec != std::errc() || end != text.data() + text.size())
      return syntax("syntax error" + at(start + 1) + ": bad number \"" + std::string(text) + "\"");
    return make_real(d);
  }

  static result<calc_value> integer_literal(std::string_view text, std::size_t at_pos) {
    calc_int v = 0;
    for (char d : text) {
      if (!checked_mul(v, 10, v) || __builtin_add_overflow(v, d - '0', &v))
        return math_error("integer overflow" + at(at_pos) +
                          ": the number does not fit in 128 bits; write it as a float (e.g. 1e40)");
    }
    return make_int(v);
  }

  result<calc_value> name() {
    std::size_t start = i_;
    while (i_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
      ++i_;
    std::string_view id = s_.substr(start, i_ - start);
    bool is_call = peek_op("(");
    const function_spec* fn = find_function(id);
    if (!is_call) {
      if (auto c = find_constant(id)) return *c;
      if (fn)
        return syntax("\"" + std::string(id) + "\"" + at(start + 1) +
                      " is a function: call it as " + std::string(id) + "(...)");
    }
    if (!fn && find_constant(id))
      return syntax("\"" + std::string(id) + "\"" + at(start + 1) +
                    " is a constant, not a function; use * to multiply");
    if (!fn) {
      std::string shown(id.substr(0, 40));
      return syntax("unknown name \"" + shown + "\"" + at(start + 1) +
                    "; allowed names: " + calculator_names());
    }
    return call(*fn, start + 1);
  }

  result<calc_value> call(const function_spec& fn, std::size_t at_name) {
    std::size_t open = pos();
    ++i_;  // "("
    args_t args;
    if (!peek_op(")")) {
      while (true) {
        auto v = additive();
        if (!v) return v;
        args.push_back(*v);
        if (peek_op(",")) {
          ++i_;
          continue;
        }
        if (peek_op(")")) break;
        return syntax("syntax error" + at(pos()) + ": expected \",\" or \")\" in the call to " +
                      std::string(fn.name) + at(open) + ", got " + describe_here());
      }
    }
    ++i_;  // ")"
    int n = static_cast<int>(args.size());
    if (n < fn.min_args || (fn.max_args >= 0 && n > fn.max_args))
      return syntax(std::string(fn.name) + at(at_name) + " takes " + arity(fn) + ", got " +
                    std::to_string(n));
    return fn.fn(args, at_name);
  }

  static std::string arity(const function_spec& fn) {
    auto plural = [](int k) { return std::to_string(k) + (k == 1 ? " argument" : " arguments"); };
    if (fn.max_args < 0) return "at least " + plural(fn.min_args);
    if (fn.min_args == fn.max_args) return plural(fn.min_args);
    return std::to_string(fn.min_args) + " or " + plural(fn.max_args);
  }
};

}  // namespace

result<calc_value> evaluate(std::string_view expression, const calc_limits& limits) {
  if (expression.size() > limits.max_length)
    return fail(errc::budget_exceeded, "the expression is too long: " +
                                           std::to_string(expression.size()) +
                                           " characters, the limit is " +
                                           std::to_string(limits.max_length));
  return parser(expression, limits).run();
}

}  // namespace tooluse::builtin
