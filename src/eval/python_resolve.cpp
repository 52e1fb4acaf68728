// BFCL's reading of a parsed call list (utils.py at de8307b4: ast_parse, resolve_ast_call,
// resolve_ast_by_type), quirks included, because the scores depend on them:
// - only keyword arguments are read, positional ones are dropped;
// - a bare name becomes its text (`unit=celsius` reads as "celsius");
// - `-x` is `-(x's constant)` for any unary operator, so `+5` and `not 5` read as -5;
// - arithmetic is evaluated (`10/2` is 5.0); an attribute, a lambda, a comparison... fails;
// - a call without keyword arguments, and a subscript, become their source text.
#include <cmath>
#include <limits>

#include "eval/python.hpp"

namespace tooluse::eval::detail {
namespace {

using K = py_node_kind;
using pk = py_value::kind;

std::string ast_class(K kind) {
  switch (kind) {
    case K::attribute: return "Attribute";
    case K::set: return "Set";
    case K::boolop: return "BoolOp";
    case K::compare: return "Compare";
    case K::slice: return "Slice";
    case K::lambda: return "Lambda";
    case K::ifexp: return "IfExp";
    case K::starred: return "Starred";
    case K::named_expr: return "NamedExpr";
    case K::joined_str: return "JoinedStr";
    case K::list_comp: return "ListComp";
    case K::set_comp: return "SetComp";
    case K::dict_comp: return "DictComp";
    case K::generator_exp: return "GeneratorExp";
    case K::await_expr: return "Await";
    case K::yield_expr: return "Yield";
    case K::call: return "Call";
    case K::constant: return "Constant";
    case K::name: return "Name";
    case K::list: return "List";
    case K::tuple: return "Tuple";
    case K::dict: return "Dict";
    case K::binop: return "BinOp";
    case K::unaryop: return "UnaryOp";
    case K::subscript: return "Subscript";
    case K::formatted_value: return "FormattedValue";
  }
  return "AST";
}

[[noreturn]] void unsupported(K kind) {
  throw decode_error("Unsupported AST type: <class 'ast." + ast_class(kind) + "'>");
}

bool is_int_like(const py_value& v) { return v.type() == pk::integer || v.type() == pk::boolean; }
std::int64_t int_of(const py_value& v) { return v.type() == pk::boolean ? std::int64_t{v.as_bool()} : v.as_int(); }

[[noreturn]] void type_error(const std::string& op, const py_value& a, const py_value& b) {
  throw decode_error("unsupported operand type(s) for " + op + ": '" + std::string(a.type_name()) + "' and '" +
                     std::string(b.type_name()) + "'");
}

py_value int_or_float(long double r) {
  if (r >= static_cast<long double>(std::numeric_limits<std::int64_t>::min()) &&
      r <= static_cast<long double>(std::numeric_limits<std::int64_t>::max()))
    return py_value::integer(static_cast<std::int64_t>(r));
  return py_value::floating(static_cast<double>(r));  // beyond int64: Python's int, approximated
}

py_value repeat(const py_value& seq, std::int64_t n) {
  if (seq.type() == pk::string) {
    std::string out;
    for (std::int64_t i = 0; i < n && out.size() < (1u << 20); ++i) out += seq.as_str();
    return py_value::string(out);
  }
  py_value::items_t items;
  for (std::int64_t i = 0; i < n && items.size() < (1u << 16); ++i)
    items.insert(items.end(), seq.items().begin(), seq.items().end());
  return seq.type() == pk::tuple ? py_value::tuple(items) : py_value::list(items);
}

py_value apply(const std::string& op, const py_value& a, const py_value& b) {
  bool nums = a.is_number() && b.is_number();
  bool ints = is_int_like(a) && is_int_like(b);
  if (op == "+") {
    if (ints) return int_or_float(static_cast<long double>(int_of(a)) + int_of(b));
    if (nums) return py_value::floating(a.number() + b.number());
    if (a.type() == pk::string && b.type() == pk::string) return py_value::string(a.as_str() + b.as_str());
    if ((a.type() == pk::list || a.type() == pk::tuple) && a.type() == b.type()) {
      auto items = a.items();
      items.insert(items.end(), b.items().begin(), b.items().end());
      return a.type() == pk::list ? py_value::list(items) : py_value::tuple(items);
    }
    type_error("+", a, b);
  }
  if (op == "-") {
    if (ints) return int_or_float(static_cast<long double>(int_of(a)) - int_of(b));
    if (nums) return py_value::floating(a.number() - b.number());
    type_error("-", a, b);
  }
  if (op == "*") {
    if (ints) return int_or_float(static_cast<long double>(int_of(a)) * int_of(b));
    if (nums) return py_value::floating(a.number() * b.number());
    if (is_int_like(b) && (a.type() == pk::string || a.type() == pk::list || a.type() == pk::tuple))
      return repeat(a, int_of(b));
    if (is_int_like(a) && (b.type() == pk::string || b.type() == pk::list || b.type() == pk::tuple))
      return repeat(b, int_of(a));
    type_error("*", a, b);
  }
  if (!nums) type_error(op, a, b);
  if (op == "/") {
    if (b.number() == 0) throw decode_error("division by zero");
    return py_value::floating(a.number() / b.number());
  }
  if (op == "//" || op == "%") {
    if (b.number() == 0) throw decode_error(ints ? "integer division or modulo by zero" : "float floor division by zero");
    if (ints) {
      std::int64_t x = int_of(a), y = int_of(b);
      std::int64_t q = x / y, r = x % y;
      if (r != 0 && ((r < 0) != (y < 0))) {
        --q;
        r += y;
      }
      return py_value::integer(op == "//" ? q : r);
    }
    double x = a.number(), y = b.number();
    double q = std::floor(x / y);
    return py_value::floating(op == "//" ? q : x - q * y);
  }
  if (op == "**") {
    if (ints && int_of(b) >= 0) return int_or_float(std::pow(static_cast<long double>(int_of(a)), int_of(b)));
    if (a.number() == 0 && b.number() < 0) throw decode_error("0.0 cannot be raised to a negative power");
    return py_value::floating(std::pow(a.number(), b.number()));
  }
  if (ints && (op == "<<" || op == ">>" || op == "&" || op == "|" || op == "^")) {
    std::int64_t x = int_of(a), y = int_of(b);
    if ((op == "<<" || op == ">>") && y < 0) throw decode_error("negative shift count");
    if (op == "<<") return int_or_float(static_cast<long double>(x) * std::pow(2.0L, static_cast<long double>(y)));
    if (op == ">>") return py_value::integer(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
    if (op == "&") return py_value::integer(x & y);
    if (op == "|") return py_value::integer(x | y);
    return py_value::integer(x ^ y);
  }
  type_error(op, a, b);
}

// constant_value is a constant's value; `...` reads as the string "...".
py_value constant_value(const py_node& n) {
  if (n.is_ellipsis) return py_value::string("...");
  return n.value;
}

}  // namespace

py_value eval_arithmetic(const py_node& n) {
  switch (n.kind) {
    case K::constant: return constant_value(n);
    case K::binop: return apply(n.id, eval_arithmetic(*n.kids[0]), eval_arithmetic(*n.kids[1]));
    case K::unaryop: {
      py_value v = eval_arithmetic(*n.kids[0]);
      if (n.id == "not") {
        bool truthy = v.is_number() ? v.number() != 0 : v.is_none() ? false : v.size() != 0;
        return py_value::boolean(!truthy);
      }
      if (!v.is_number()) throw decode_error("bad operand type for unary " + n.id + ": '" + std::string(v.type_name()) + "'");
      if (n.id == "~") {
        if (!is_int_like(v)) throw decode_error("bad operand type for unary ~: 'float'");
        return py_value::integer(~int_of(v));
      }
      if (n.id == "+") return v.type() == pk::boolean ? py_value::integer(int_of(v)) : v;
      if (is_int_like(v)) return int_or_float(-static_cast<long double>(int_of(v)));
      return py_value::floating(-v.as_float());
    }
    case K::list:
    case K::tuple: {
      py_value::items_t items;
      for (const auto& k : n.kids) items.push_back(eval_arithmetic(*k));
      return n.kind == K::list ? py_value::list(items) : py_value::tuple(items);
    }
    case K::name: throw decode_error("name '" + n.id + "' is not defined");
    default: throw decode_error("unsupported expression in arithmetic: " + unparse(n));
  }
}

namespace {

py_value resolve_call(const py_node& call) {
  std::vector<std::string> parts;
  const py_node* f = call.kids[0].get();
  while (f->kind == K::attribute) {
    parts.push_back(f->id);
    f = f->kids[0].get();
  }
  if (f->kind == K::name) parts.push_back(f->id);
  std::string name;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) name += (name.empty() ? "" : ".") + *it;
  py_value args = py_value::dict();
  for (const auto& kw : call.keywords) {
    py_value v = resolve_ast_by_type(*kw.value);
    args.set_item(kw.arg ? py_value::string(*kw.arg) : py_value::none(), std::move(v));
  }
  py_value::entries_t entry;
  entry.emplace_back(py_value::string(name), std::move(args));
  return py_value::dict(std::move(entry));
}

}  // namespace

py_value resolve_ast_by_type(const py_node& n) {
  switch (n.kind) {
    case K::constant: return constant_value(n);
    case K::unaryop: {
      // BFCL: output = -value.operand.value, whatever the operator.
      const py_node& operand = *n.kids[0];
      if (operand.kind != K::constant || operand.is_ellipsis || !operand.value.is_number()) {
        if (operand.kind == K::constant || operand.kind == K::attribute || operand.kind == K::subscript ||
            operand.kind == K::starred || operand.kind == K::named_expr || operand.kind == K::formatted_value ||
            operand.kind == K::await_expr || operand.kind == K::yield_expr) {
          std::string tn = operand.kind == K::constant
                               ? (operand.is_ellipsis ? "ellipsis" : std::string(operand.value.type_name()))
                               : ast_class(operand.kind);
          throw decode_error("bad operand type for unary -: '" + tn + "'");
        }
        throw decode_error("'" + ast_class(operand.kind) + "' object has no attribute 'value'");
      }
      const py_value& v = operand.value;
      if (is_int_like(v)) return int_or_float(-static_cast<long double>(int_of(v)));
      return py_value::floating(-v.as_float());
    }
    case K::list: {
      py_value::items_t items;
      for (const auto& k : n.kids) items.push_back(resolve_ast_by_type(*k));
      return py_value::list(std::move(items));
    }
    case K::dict: {
      py_value d = py_value::dict();
      for (std::size_t i = 0; i + 1 < n.kids.size(); i += 2) {
        if (!n.kids[i]) throw decode_error("Unsupported AST type: <class 'NoneType'>");
        py_value key = resolve_ast_by_type(*n.kids[i]);
        if (key.type() == pk::list || key.type() == pk::dict || key.type() == pk::set)
          throw decode_error("unhashable type: '" + std::string(key.type_name()) + "'");
        d.set_item(std::move(key), resolve_ast_by_type(*n.kids[i + 1]));
      }
      return d;
    }
    case K::binop: return eval_arithmetic(n);
    case K::name: return py_value::string(n.id);
    case K::call:
      if (n.keywords.empty()) return py_value::string(unparse(n));
      return resolve_call(n);
    case K::tuple: {
      py_value::items_t items;
      for (const auto& k : n.kids) items.push_back(resolve_ast_by_type(*k));
      return py_value::tuple(std::move(items));
    }
    case K::lambda: throw decode_error("'" + ast_class(n.kids[0]->kind) + "' object is not subscriptable");
    case K::subscript: return py_value::string(unparse(n));
    default: unsupported(n.kind);
  }
}

py_value ast_parse_python(std::string_view text) {
  py_node_ptr body = parse_python_expression(text);
  if (body->kind != K::list && body->kind != K::tuple && body->kind != K::set)
    throw decode_error("'" + ast_class(body->kind) + "' object has no attribute 'elts'");
  py_value::items_t out;
  for (const auto& elt : body->kids) {
    if (elt->kind != K::call) throw decode_error("");  // BFCL: assert isinstance(elem, ast.Call)
    out.push_back(resolve_ast_by_type(*elt));
  }
  return py_value::list(std::move(out));
}

}  // namespace tooluse::eval::detail
