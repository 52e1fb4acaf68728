// The expression level of the Java parser (see java_parse.cpp): tree-sitter-java 0.21.0's
// expression grammar as parse_java_function_call needs it.

#include <algorithm>
#include <string>
#include <vector>

#include "eval/java_cst.hpp"

namespace tooluse::eval::detail::java_cst {

// -- expressions
int parser::expression() {
  depth_guard guard(depth_);
  if (int l = try_lambda(); l >= 0) return l;
  int lhs = ternary();
  static const char* ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<="};
  std::vector<int> opk;
  bool assign = std::any_of(std::begin(ops), std::end(ops), [&](const char* o) { return is(o); });
  // `>>=` / `>>>=` arrive as `>` `>` ... `=`
  std::size_t gt = 0;
  while (is(">", gt) && adjacent(p_ + gt)) ++gt;
  if (!assign && (gt == 2 || gt == 3) && is("=", gt) && adjacent(p_ + gt - 1) ) assign = true;
  else gt = 0;
  if (!assign) return lhs;
  const std::string& lt = nodes_[lhs].type;
  if (lt != "identifier" && lt != "field_access" && lt != "array_access") throw syntax_error{};
  std::size_t op0 = p_;
  p_ += gt ? gt + 1 : 1;
  int op = leaf_text("=", op0, p_ - 1);
  int rhs = expression();
  return make("assignment_expression", {lhs, op, rhs});
}

int parser::try_lambda() {
  std::size_t save = p_;
  if (cur().kind == tk::word && !expr_keyword(text(cur())) && is("->", 1)) {
    int params = leaf_tok("identifier");
    return lambda_rest(params);
  }
  if (is("(")) {  // `( ... ) ->`, using the precomputed matching parenthesis
    std::size_t q = match_[p_];
    if (q != 0 && q + 1 < toks_.size() && toks_[q + 1].kind == tk::punct && text(toks_[q + 1]) == "->") {
      std::vector<int> k{leaf_tok()};
      while (p_ < q) {  // formal or inferred parameters, kept as tokens
        if (toks_[p_].kind == tk::punct && text(toks_[p_]) != "," && text(toks_[p_]) != "<" &&
            text(toks_[p_]) != ">" && text(toks_[p_]) != "[" && text(toks_[p_]) != "]" &&
            text(toks_[p_]) != "." && text(toks_[p_]) != "..." && text(toks_[p_]) != "?")
          throw syntax_error{};
        k.push_back(leaf_tok(toks_[p_].kind == tk::word ? "identifier" : ""));
      }
      k.push_back(leaf_tok());  // )
      return lambda_rest(make("inferred_parameters", k));
    }
  }
  p_ = save;
  return -1;
}

int parser::lambda_rest(int params) {
  int arrow = leaf_tok();
  int body = is("{") ? block() : expression();
  return make("lambda_expression", {params, arrow, body});
}

int parser::ternary() {
  int c = binary(0);
  if (!is("?")) return c;
  int q = leaf_tok();
  int a = expression();
  expect(":");
  int colon = leaf_tok();
  int b = expression();
  return make("ternary_expression", {c, q, a, colon, b});
}

// Binary operator at the cursor: its precedence and token count (`>` `>` glued).
int parser::binop(std::size_t* ntok) const {
  *ntok = 1;
  if (cur().kind == tk::word) return text(cur()) == "instanceof" ? 7 : -1;
  if (cur().kind != tk::punct) return -1;
  std::string_view t = text(cur());
  if (t == ">") {
    std::size_t g = 1;
    while (g < 3 && is(">", g) && adjacent(p_ + g - 1)) ++g;
    if (is("=", g) && adjacent(p_ + g - 1)) return g == 1 ? (*ntok = 2, 7) : -1;  // >= ; >>= is assignment
    *ntok = g;
    return g == 1 ? 7 : 8;
  }
  static const std::pair<const char*, int> ops[] = {
      {"||", 1}, {"&&", 2}, {"|", 3}, {"^", 4}, {"&", 5}, {"==", 6}, {"!=", 6}, {"<", 7},
      {"<=", 7}, {"<<", 8}, {"+", 9}, {"-", 9}, {"*", 10}, {"/", 10}, {"%", 10}};
  for (auto& [o, pr] : ops) if (t == o) return pr;
  return -1;
}

int parser::binary(int min_prec) {
  int lhs = unary();
  while (true) {
    std::size_t nt;
    int pr = binop(&nt);
    if (pr < 0 || pr <= min_prec - 1 || pr < min_prec) break;
    if (pr == 7 && is_word("instanceof")) {
      int op = leaf_tok();
      std::vector<int> k{lhs, op};
      if (is_word("final")) k.push_back(leaf_tok());
      k.push_back(type());
      if (cur().kind == tk::word && !expr_keyword(text(cur())) && text(cur()) != "instanceof")
        k.push_back(leaf_tok("identifier"));
      lhs = make("instanceof_expression", k);
      continue;
    }
    std::size_t op0 = p_;
    p_ += nt;
    int op = leaf_text(std::string(s_.substr(toks_[op0].start, toks_[p_ - 1].end - toks_[op0].start)),
                       op0, p_ - 1);
    int rhs = binary(pr + 1);
    lhs = make("binary_expression", {lhs, op, rhs});
  }
  return lhs;
}

int parser::unary() {
  depth_guard guard(depth_);
  if (is("+") || is("-") || is("!") || is("~")) {
    int op = leaf_tok();
    return make("unary_expression", {op, unary()});
  }
  if (is("++") || is("--")) {
    int op = leaf_tok();
    return make("update_expression", {op, unary()});
  }
  if (is("(")) {
    if (int c = try_cast(); c >= 0) return c;
  }
  return assign_tail(postfix_ops(primary()));
}

// tree-sitter's LR table shifts an assignment operator after any complete left-hand side,
// even as the operand of a binary or unary operator: `a < b = c` is `a < (b = c)`.
bool parser::at_assign_op() {
  static const char* ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<="};
  if (std::any_of(std::begin(ops), std::end(ops), [&](const char* o) { return is(o); })) return true;
  std::size_t gt = 0;
  while (is(">", gt) && adjacent(p_ + gt)) ++gt;
  return (gt == 2 || gt == 3) && is("=", gt) && adjacent(p_ + gt - 1);
}

int parser::assign_tail(int lhs) {
  const std::string& lt = nodes_[lhs].type;
  if (!at_assign_op() || (lt != "identifier" && lt != "field_access" && lt != "array_access"))
    return lhs;
  std::size_t op0 = p_;
  if (is(">")) { while (is(">")) ++p_; }
  ++p_;
  int op = leaf_text("=", op0, p_ - 1);
  int rhs = expression();
  return make("assignment_expression", {lhs, op, rhs});
}

// `(int) x`, `(String) x`, `(Foo)(x)`: a cast when the parenthesized text is a type and what
// follows can start an operand (for primitive types also `+`/`-`).
int parser::try_cast() {
  std::size_t save = p_, nsave = nodes_.size();
  std::vector<int> cast;
  try {
    int open = leaf_tok();
    if (cur().kind != tk::word || (expr_keyword(text(cur())) && !primitive(text(cur()))))
      throw syntax_error{};
    bool prim = primitive(text(cur()));
    int t = type();
    if (!is(")")) throw syntax_error{};
    int close = leaf_tok();
    const token& nx = cur();
    bool operand = nx.kind == tk::word ? text(nx) != "instanceof" : nx.kind != tk::punct && nx.kind != tk::eof;
    if (nx.kind == tk::punct) {
      std::string_view x = text(nx);
      operand = x == "(" || x == "!" || x == "~" || (prim && (x == "+" || x == "-" || x == "++" || x == "--"));
    }
    if (!operand) throw syntax_error{};
    cast = {open, t, close};
  } catch (const syntax_error&) {
    p_ = save;
    nodes_.resize(nsave);
    return -1;
  }
  // Committed: errors in the operand are not retried as a parenthesized expression (that
  // retry would make nested casts exponential).
  cast.push_back(unary());
  return make("cast_expression", cast);
}

int parser::parenthesized() {
  int open = leaf_tok();
  int e = expression();
  expect(")");
  return make("parenthesized_expression", {open, e, leaf_tok()});
}

int parser::arguments() {
  std::vector<int> k{leaf_tok()};  // (
  if (!is(")")) {
    while (true) {
      k.push_back(expression());
      if (is(",")) { k.push_back(leaf_tok()); continue; }
      break;
    }
  }
  expect(")");
  k.push_back(leaf_tok());
  return make("argument_list", k);
}

int parser::array_initializer() {
  depth_guard guard(depth_);
  std::vector<int> k{leaf_tok()};  // {
  while (!is("}")) {
    k.push_back(is("{") ? array_initializer() : expression());
    if (is(",")) k.push_back(leaf_tok());
    else if (!is("}")) throw syntax_error{};
  }
  k.push_back(leaf_tok());
  return make("array_initializer", k);
}

// `new T(args) [class_body]` or `new T[]{...}` / `new T[n][]`.
int parser::creation(std::vector<int> prefix) {
  std::vector<std::pair<std::string, int>> f;
  prefix.push_back(leaf_tok());  // new
  if (is("<")) prefix.push_back(type_arguments());
  if (cur().kind != tk::word) throw syntax_error{};
  int t;
  {
    std::vector<int> k;
    if (primitive(text(cur()))) {
      k.push_back(leaf_tok("integral_type"));
    } else {
      k.push_back(leaf_tok("type_identifier"));
      if (is("<")) k.push_back(type_arguments());
      while (is(".") && toks_[p_ + 1].kind == tk::word) {
        k.push_back(leaf_tok());
        k.push_back(leaf_tok("type_identifier"));
        if (is("<")) k.push_back(type_arguments());
      }
    }
    t = k.size() == 1 ? k[0] : make("generic_type", k);
  }
  prefix.push_back(t);
  f.emplace_back("type", t);
  if (is("[")) {
    while (is("[")) {
      if (is("]", 1)) {
        std::vector<int> d;
        while (is("[") && is("]", 1)) { d.push_back(leaf_tok()); d.push_back(leaf_tok()); }
        prefix.push_back(make("dimensions", d));
        break;
      }
      int open = leaf_tok();
      int e = expression();
      expect("]");
      prefix.push_back(make("dimensions_expr", {open, e, leaf_tok()}));
    }
    if (is("{")) {
      int v = array_initializer();
      prefix.push_back(v);
      f.emplace_back("value", v);
    }
    return make("array_creation_expression", prefix, 0, 0, f);
  }
  if (!is("(")) throw syntax_error{};
  int a = arguments();
  prefix.push_back(a);
  f.emplace_back("arguments", a);
  if (is("{")) prefix.push_back(class_body());
  return make("object_creation_expression", prefix, 0, 0, f);
}

// class_body: initializer blocks are parsed (BFCL may find a call in them); member
// declarations are kept as balanced token runs.
int parser::class_body() {
  depth_guard guard(depth_);
  std::vector<int> k{leaf_tok()};  // {
  while (!is("}")) {
    if (at_eof()) throw syntax_error{};
    if (is("{")) { k.push_back(block()); continue; }
    if (is(";")) { k.push_back(leaf_tok()); continue; }
    std::size_t depth = 0;
    while (true) {
      if (at_eof()) throw syntax_error{};
      if (is("{")) ++depth;
      if (is("}")) { if (depth == 0) break; --depth; }
      bool end = depth == 0 && (is(";") || (is("}") ));
      k.push_back(leaf_tok());
      if (end || (depth == 0 && nodes_[k.back()].type == "}")) break;
    }
  }
  k.push_back(leaf_tok());
  return make("class_body", k);
}

int parser::primary() {
  const token& t = cur();
  int e;
  if (t.kind == tk::number) e = leaf_tok("number");
  else if (t.kind == tk::string) e = leaf_tok("string_literal");
  else if (t.kind == tk::chr) e = leaf_tok("character_literal");
  else if (t.kind == tk::punct) {
    if (is("(")) e = parenthesized();
    else throw syntax_error{};
  } else if (t.kind == tk::word) {
    std::string_view w = text(t);
    if (!expr_keyword(w)) {
      e = leaf_tok("identifier");
      if (is("(")) {
        int a = arguments();
        e = make("method_invocation", {e, a}, 0, 0, {{"name", e}, {"arguments", a}});
      }
    } else if (w == "new") {
      e = creation({});
    } else if (w == "true" || w == "false") {
      e = leaf_tok(std::string(w));
    } else if (w == "null") {
      e = leaf_tok("null_literal");
    } else if (w == "this" || w == "super") {
      e = leaf_tok(std::string(w));
      if (is("(")) throw syntax_error{};  // constructor calls only in constructors
    } else if (primitive(w) || w == "void") {
      std::vector<int> k{leaf_tok("integral_type")};
      while (is("[") && is("]", 1)) { k.push_back(leaf_tok()); k.push_back(leaf_tok()); }
      if (!(is(".") && is_word("class", 1))) throw syntax_error{};
      k.push_back(leaf_tok());
      k.push_back(leaf_tok());
      return suffixes(make("class_literal", k));
    } else {
      throw syntax_error{};  // switch expressions are not supported
    }
  } else {
    throw syntax_error{};
  }
  return suffixes(e);
}

int parser::suffixes(int e) {
  while (true) {
    if (is(".")) {
      int dot = leaf_tok();
      if (is("<")) {  // obj.<T>m(args)
        int ta = type_arguments();
        if (cur().kind != tk::word) throw syntax_error{};
        int name = leaf_tok("identifier");
        if (!is("(")) throw syntax_error{};
        int a = arguments();
        e = make("method_invocation", {e, dot, ta, name, a}, 0, 0,
                 {{"object", e}, {"name", name}, {"arguments", a}});
        continue;
      }
      if (cur().kind != tk::word) throw syntax_error{};
      std::string_view w = text(cur());
      // After an expression that cannot be a type, tree-sitter lexes `class` as a plain
      // identifier: `'a'.class` is a field_access, `"s".class()` a method_invocation. So it
      // does where only that reading goes on: `a.class(x)`, `a.class = 1`.
      if (w == "class" && type_like(e) && !is("(", 1) && !is("=", 1)) {
        int c = leaf_tok();
        e = make("class_literal", {e, dot, c});
        continue;
      }
      if (w == "new") {
        e = creation({e, dot});
        continue;
      }
      if (w == "this" || w == "super") {
        e = make("field_access", {e, dot, leaf_tok(std::string(w))});
        continue;
      }
      int name = leaf_tok("identifier");
      if (is("(")) {
        int a = arguments();
        e = make("method_invocation", {e, dot, name, a}, 0, 0,
                 {{"object", e}, {"name", name}, {"arguments", a}});
      } else {
        e = make("field_access", {e, dot, name}, 0, 0, {{"object", e}, {"field", name}});
      }
      continue;
    }
    if (is("[")) {
      if (is("]", 1)) {  // `T[].class` / `T[]::new`
        if (!type_like(e)) throw syntax_error{};
        std::vector<int> k{e};
        while (is("[") && is("]", 1)) { k.push_back(leaf_tok()); k.push_back(leaf_tok()); }
        if (is(".") && is_word("class", 1)) {
          k.push_back(leaf_tok());
          k.push_back(leaf_tok());
          e = make("class_literal", k);
          continue;
        }
        if (is("::")) { e = make("array_type", k); continue; }
        throw syntax_error{};
      }
      int open = leaf_tok();
      int idx = expression();
      if (is(",") || is(")")) {  // tree-sitter inserts a MISSING `]` here
        e = make("array_access", {e, open, idx, missing_token("]")});
        continue;
      }
      expect("]");
      e = make("array_access", {e, open, idx, leaf_tok()});
      continue;
    }
    if (is("::")) {
      int op = leaf_tok();
      if (cur().kind != tk::word) throw syntax_error{};
      int name = leaf_tok(is_word("new") ? "new" : "identifier");
      e = make("method_reference", {e, op, name});
      continue;
    }
    return e;
  }
}

}  // namespace tooluse::eval::detail::java_cst
