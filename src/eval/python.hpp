#pragma once
// A parser for Python expressions, as far as BFCL's decoders need one. BFCL decodes the calls a
// prompted model writes with CPython's `ast.parse(text, mode="eval")`, reads the tree with its
// own rules (utils.py: resolve_ast_by_type) and, for some nodes, prints them back with
// `ast.unparse`. Scoring exactly as BFCL does needs the same three steps: what CPython refuses
// must be refused here (a decoder failure), and what it accepts must resolve to the same value.
// No packaged library parses Python source into a tree from C++ (Debian's libpython is an
// embedded interpreter, which a scorer of untrusted text must not run); design/eval.md says why
// it is written here.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/decode_error.hpp"
#include "tooluse/eval/py_value.hpp"

namespace tooluse::eval::detail {

struct py_node;
using py_node_ptr = std::unique_ptr<py_node>;

/// The node kinds of CPython's `ast` module that an expression can hold.
enum class py_node_kind {
  constant, name, attribute, call, list, tuple, set, dict, binop, unaryop, boolop, compare,
  subscript, slice, lambda, ifexp, starred, named_expr, joined_str, formatted_value, list_comp,
  set_comp, dict_comp, generator_exp, await_expr, yield_expr
};

/// A keyword argument of a call; `arg` is empty for `**mapping`.
struct py_keyword {
  std::optional<std::string> arg;
  py_node_ptr value;
};

struct py_node {
  py_node_kind kind = py_node_kind::constant;
  /// constant: the value (bytes are kept as str with `is_bytes`, 1j as float with `is_imag`).
  py_value value;
  bool is_ellipsis = false;
  bool is_bytes = false;
  bool is_imag = false;
  /// name: the identifier; attribute: the attribute; binop/unaryop/boolop: the operator
  /// (`+`, `not`, `and`...); compare: unused (ops holds them).
  std::string id;
  /// Children in source order: attribute/starred/await: [value]; call: [func, args...];
  /// binop: [left, right]; unaryop: [operand]; subscript: [value, slice]; slice: [lower, upper,
  /// step] (null when absent); ifexp: [test, body, orelse]; dict: keys and values interleaved
  /// (a null key for `**mapping`); lambda: [body]; comprehensions: [elt, (value), ...].
  std::vector<py_node_ptr> kids;
  std::vector<std::string> ops;       ///< compare: the operators between kids
  std::vector<py_keyword> keywords;   ///< call
  std::string source;                 ///< lambda/comprehension/f-string: the source text
};

/// parse_python_expression parses `text` as `ast.parse(text, mode="eval")` does and returns
/// the expression's body. Throws decode_error with CPython's kind of message ("invalid syntax
/// (<unknown>, line 1)") when CPython would raise SyntaxError or IndentationError.
py_node_ptr parse_python_expression(std::string_view text);

/// unparse prints a node as `ast.unparse` does.
std::string unparse(const py_node& node);

/// ast_parse_python is BFCL's `ast_parse(text, language="Python")`: the expression must be a
/// list (or tuple) of calls, each resolved with BFCL's rules (keyword arguments only; names
/// become their text; a call without keywords becomes its unparsed text; `-x` negates x's
/// constant; arithmetic is evaluated). Throws decode_error where BFCL's code raises.
py_value ast_parse_python(std::string_view text);

/// resolve_ast_by_type: one value with BFCL's rules.
py_value resolve_ast_by_type(const py_node& node);

/// Evaluates an arithmetic expression of constants as Python's eval() would (+ - * / // % **
/// on numbers, + and * on str and list); throws decode_error for anything else (a name is a
/// NameError in BFCL's eval).
py_value eval_arithmetic(const py_node& node);

}  // namespace tooluse::eval::detail
