// ast.unparse for the nodes python_parse.cpp builds: CPython's spacing, its quoting of
// constants (repr) and its parentheses by precedence, so that a call BFCL keeps as text
// (`math.sqrt(16)`, `df['a']`) reads as it does in BFCL's own results.
#include "eval/python.hpp"

namespace tooluse::eval::detail {
namespace {

using K = py_node_kind;

// CPython's ast._Precedence, lowest first.
enum prec : int {
  p_named = 0, p_tuple, p_yield, p_test, p_or, p_and, p_not, p_cmp, p_expr = p_cmp + 1,
  p_bor = p_expr, p_bxor, p_band, p_shift, p_arith, p_term, p_factor, p_power, p_await, p_atom
};

int binop_prec(const std::string& op) {
  if (op == "|") return p_bor;
  if (op == "^") return p_bxor;
  if (op == "&") return p_band;
  if (op == "<<" || op == ">>") return p_shift;
  if (op == "+" || op == "-") return p_arith;
  if (op == "**") return p_power;
  return p_term;
}

std::string constant_text(const py_node& n) {
  if (n.is_ellipsis) return "...";
  if (n.is_imag) {
    auto r = py_float_repr(n.value.as_float());
    if (r.size() > 2 && r.substr(r.size() - 2) == ".0") r.resize(r.size() - 2);
    return r + "j";
  }
  if (n.value.type() == py_value::kind::floating) {
    double f = n.value.as_float();
    if (f != f) return "(1e309 - 1e309)";
    if (f == 1.0 / 0.0) return "1e309";
    if (f == -1.0 / 0.0) return "-1e309";
  }
  std::string r = n.value.repr();
  return n.is_bytes ? "b" + r : r;
}

std::string u(const py_node* n, int need);

std::string join(const std::vector<py_node_ptr>& kids, std::size_t from, int need) {
  std::string out;
  for (std::size_t i = from; i < kids.size(); ++i) {
    if (i > from) out += ", ";
    out += u(kids[i].get(), need);
  }
  return out;
}

std::string slice_text(const py_node& s) {
  if (s.kind == K::tuple && !s.kids.empty()) {
    std::string out;
    for (std::size_t i = 0; i < s.kids.size(); ++i) {
      if (i) out += ", ";
      out += slice_text(*s.kids[i]);
    }
    return s.kids.size() == 1 ? out + "," : out;
  }
  if (s.kind == K::slice) {
    std::string out;
    if (s.kids[0]) out += u(s.kids[0].get(), p_test);
    out += ":";
    if (s.kids[1]) out += u(s.kids[1].get(), p_test);
    if (s.kids[2]) out += ":" + u(s.kids[2].get(), p_test);
    return out;
  }
  return u(&s, p_test);
}

std::string u(const py_node* n, int need) {
  if (!n) return "";
  auto paren = [&](int mine, std::string s) { return mine < need ? "(" + s + ")" : s; };
  switch (n->kind) {
    case K::constant: return constant_text(*n);
    case K::name: return n->id;
    case K::attribute: {
      std::string v = u(n->kids[0].get(), p_atom);
      const py_node& base = *n->kids[0];
      if (base.kind == K::constant && base.value.type() == py_value::kind::integer) v += " ";
      return v + "." + n->id;
    }
    case K::call: {
      std::string out = u(n->kids[0].get(), p_atom) + "(";
      bool first = true;
      for (std::size_t i = 1; i < n->kids.size(); ++i) {
        if (!first) out += ", ";
        first = false;
        out += u(n->kids[i].get(), p_test);
      }
      for (const auto& kw : n->keywords) {
        if (!first) out += ", ";
        first = false;
        out += kw.arg ? *kw.arg + "=" + u(kw.value.get(), p_test) : "**" + u(kw.value.get(), p_expr);
      }
      return out + ")";
    }
    case K::list: return "[" + join(n->kids, 0, p_test) + "]";
    case K::tuple: {
      if (n->kids.empty()) return "()";
      std::string inner = join(n->kids, 0, p_test);
      if (n->kids.size() == 1) inner += ",";
      return "(" + inner + ")";
    }
    case K::set: return n->kids.empty() ? "{*()}" : "{" + join(n->kids, 0, p_test) + "}";
    case K::dict: {
      std::string out = "{";
      for (std::size_t i = 0; i + 1 < n->kids.size(); i += 2) {
        if (i) out += ", ";
        if (n->kids[i]) out += u(n->kids[i].get(), p_test) + ": " + u(n->kids[i + 1].get(), p_test);
        else out += "**" + u(n->kids[i + 1].get(), p_expr);
      }
      return out + "}";
    }
    case K::binop: {
      int mine = binop_prec(n->id);
      bool right_assoc = n->id == "**";
      std::string l = u(n->kids[0].get(), right_assoc ? mine + 1 : mine);
      std::string r = u(n->kids[1].get(), right_assoc ? mine : mine + 1);
      return paren(mine, l + " " + n->id + " " + r);
    }
    case K::unaryop: {
      int mine = n->id == "not" ? p_not : p_factor;
      std::string op = n->id == "not" ? "not " : n->id;
      return paren(mine, op + u(n->kids[0].get(), mine));
    }
    case K::boolop: {
      int mine = n->id == "or" ? p_or : p_and;
      std::string out;
      for (std::size_t i = 0; i < n->kids.size(); ++i) {
        if (i) out += " " + n->id + " ";
        out += u(n->kids[i].get(), mine + 1);
      }
      return paren(mine, out);
    }
    case K::compare: {
      std::string out = u(n->kids[0].get(), p_cmp + 1);
      for (std::size_t i = 0; i < n->ops.size(); ++i)
        out += " " + n->ops[i] + " " + u(n->kids[i + 1].get(), p_cmp + 1);
      return paren(p_cmp, out);
    }
    case K::subscript: return u(n->kids[0].get(), p_atom) + "[" + slice_text(*n->kids[1]) + "]";
    case K::slice: return slice_text(*n);
    case K::ifexp:
      return paren(p_test, u(n->kids[1].get(), p_test + 1) + " if " + u(n->kids[0].get(), p_test + 1) +
                               " else " + u(n->kids[2].get(), p_test));
    case K::starred: return "*" + u(n->kids[0].get(), p_expr);
    case K::named_expr:
      return paren(p_named + 1, u(n->kids[0].get(), p_atom) + " := " + u(n->kids[1].get(), p_atom));
    case K::await_expr: return paren(p_await, "await " + u(n->kids[0].get(), p_atom));
    default: return n->source;  // lambdas, comprehensions, f-strings: as written
  }
}

}  // namespace

std::string unparse(const py_node& node) { return u(&node, p_tuple); }

}  // namespace tooluse::eval::detail
