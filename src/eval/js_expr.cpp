// The expression level of the JavaScript parser (see js_parse.cpp): tree-sitter-javascript
// 0.21.4's expression grammar as parse_javascript_function_call needs it.

#include <string>
#include <vector>

#include "eval/js_cst.hpp"

namespace tooluse::eval::detail::js_cst {

int parser::span(std::string type, std::size_t a, std::size_t b) {  // a node read as raw text
  node n;
  n.type = std::move(type);
  n.start = a;
  n.end = b;
  n.first = a;
  n.has_first = true;
  nodes_.push_back(std::move(n));
  return static_cast<int>(nodes_.size()) - 1;
}

// ---- expressions
int parser::expression() {  // sequence_expression
  int e = assignment();
  if (!is(",")) return e;
  std::vector<int> k{e};
  while (is(",")) { k.push_back(leaf()); k.push_back(assignment()); }
  return make("sequence_expression", k);
}

// `( ... ) =>` starting at the cursor. Bracket matches found while scanning are memoized
// (close_after_), so nested parentheses do not rescan the input (no quadratic time).
bool parser::arrow_ahead() {
  std::size_t save = pos_;
  bool ok = false;
  std::size_t open = peek().start;
  if (auto it = close_after_.find(open); it != close_after_.end()) {
    if (it->second != std::string_view::npos) {
      pos_ = it->second;
      try { ok = is("=>") && !peek().newline_before; } catch (const syntax_error&) {}
    }
    pos_ = save;
    return ok;
  }
  std::vector<std::size_t> stack;
  try {
    while (true) {
      const token& t = peek();
      if (t.kind == tk::eof) break;
      std::string_view x = t.kind == tk::punct ? text(t) : "";
      if (x == "`" || (t.kind == tk::punct && (x == "/" || x == "/="))) break;  // be conservative
      std::size_t start = t.start;
      pos_ = t.end;
      if (x == "(" || x == "[" || x == "{") stack.push_back(start);
      if (x == ")" || x == "]" || x == "}") {
        if (stack.empty()) break;
        close_after_[stack.back()] = pos_;
        stack.pop_back();
        if (stack.empty()) { ok = is("=>") && !peek().newline_before; break; }
      }
    }
  } catch (const syntax_error&) {
  }
  for (std::size_t o : stack) close_after_.emplace(o, std::string_view::npos);
  pos_ = save;
  return ok;
}

int parser::arrow_body(std::vector<int> k) {
  k.push_back(leaf());  // =>
  k.push_back(is("{") ? block() : assignment());
  return make("arrow_function", k);
}

int parser::assignment() {
  depth_guard guard(depth_);
  const token& t = peek();
  if (t.kind == tk::word) {
    std::string_view w = text(t);
    std::size_t save = pos_;
    if (w == "async") {
      std::vector<int> k{leaf()};
      if (!peek().newline_before && peek().kind == tk::word && !expr_keyword(text(peek())) ) {
        k.push_back(leaf("identifier"));
        if (is("=>")) return arrow_body(k);
      } else if (!peek().newline_before && is("(") && arrow_ahead()) {
        k.push_back(balanced("(", ")"));
        return arrow_body(k);
      }
      pos_ = save;
    } else if (!expr_keyword(w)) {
      int id = leaf("identifier");
      if (is("=>") && !peek().newline_before) return arrow_body({id});
      pos_ = save;
      nodes_.pop_back();
    } else if (w == "yield") {
      std::vector<int> k{leaf()};
      if (is("*")) k.push_back(leaf());
      if (!is(")") && !is("]") && !is("}") && !is(",") && !is(";") && !is(":") && !at_eof() &&
          !peek().newline_before)
        k.push_back(assignment());
      return make("yield_expression", k);
    }
  }
  if (is("(") && arrow_ahead()) return arrow_body({balanced("(", ")")});
  int lhs = ternary();
  std::string_view o = assignment_operator();
  if (o.empty()) return lhs;
  const std::string& lt = nodes_[lhs].type;
  if (lt != "identifier" && lt != "member_expression" && lt != "subscript_expression" &&
      !(o == "=" && (lt == "object" || lt == "array")) && lt != "parenthesized_expression")
    throw syntax_error{};
  return assign(lhs, o);
}

std::string_view parser::assignment_operator() {
  static const char* ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=",
                              "&=", "^=", "|=", "&&=", "||=", "?\?="};
  for (const char* o : ops)
    if (is(o)) return o;
  return {};
}

int parser::assign(int lhs, std::string_view op) {
  int o = leaf();
  int rhs = assignment();
  return make(op == "=" ? "assignment_expression" : "augmented_assignment_expression",
              {lhs, o, rhs});
}

int parser::ternary() {
  int c = binary(0);
  if (!is("?")) return c;
  int q = leaf();
  int a = assignment();
  expect(":");
  int colon = leaf();
  return make("ternary_expression", {c, q, a, colon, assignment()});
}

int parser::binprec() {
  const token& t = peek();
  if (t.kind == tk::word) {
    std::string_view w = text(t);
    return (w == "instanceof" || w == "in") ? 8 : -1;
  }
  if (t.kind != tk::punct) return -1;
  static const std::pair<const char*, int> ops[] = {
      {"??", 1}, {"||", 2}, {"&&", 3}, {"|", 4}, {"^", 5}, {"&", 6}, {"==", 7}, {"!=", 7},
      {"===", 7}, {"!==", 7}, {"<", 8}, {">", 8}, {"<=", 8}, {">=", 8}, {"<<", 9}, {">>", 9},
      {">>>", 9}, {"+", 10}, {"-", 10}, {"*", 11}, {"/", 11}, {"%", 11}, {"**", 12}};
  for (auto& [o, p] : ops) if (text(t) == o) return p;
  return -1;
}

int parser::binary(int min) {
  int lhs = unary();
  while (true) {
    int p = binprec();
    if (p < 0 || p < min) return lhs;
    int op = leaf();
    int rhs = binary(p == 12 ? p : p + 1);  // ** is right-associative
    lhs = make("binary_expression", {lhs, op, rhs});
  }
}

int parser::unary() {
  depth_guard guard(depth_);
  if (is("!") || is("~") || is("+") || is("-") || is_word("typeof") || is_word("void") ||
      is_word("delete")) {
    int op = leaf();
    return make("unary_expression", {op, unary()});
  }
  if (is_word("await")) { int op = leaf(); return make("await_expression", {op, unary()}); }
  if (is("++") || is("--")) { int op = leaf(); return make("update_expression", {op, unary()}); }
  int e = call_member(primary());
  while ((is("++") || is("--")) && !peek().newline_before) e = make("update_expression", {e, leaf()});
  // tree-sitter's LR table shifts `=` after any complete left-hand side, even as the operand
  // of a binary or unary operator: `a < b = c` is `a < (b = c)`.
  const std::string& t = nodes_[e].type;
  if (t == "identifier" || t == "member_expression" || t == "subscript_expression") {
    if (std::string_view o = assignment_operator(); !o.empty()) return assign(e, o);
  }
  return e;
}

int parser::elements(std::string type, std::string_view close, bool holes) {
  std::vector<int> k{leaf()};  // ( or [
  while (!is(close)) {
    if (holes && is(",")) { k.push_back(leaf()); continue; }
    if (is("...")) { int d = leaf(); k.push_back(make("spread_element", {d, assignment()})); }
    else k.push_back(assignment());
    if (is(",")) k.push_back(leaf());
    else if (!is(close)) throw syntax_error{};
  }
  k.push_back(leaf());
  return make(std::move(type), k);
}

int parser::arguments() { return elements("arguments", ")", false); }

int parser::call_member(int e) {
  while (true) {
    if (is(".")) {
      int dot = leaf();
      if (peek().kind != tk::word) throw syntax_error{};
      e = make("member_expression", {e, dot, leaf("property_identifier")});
    } else if (is("?.")) {
      int oc = leaf("optional_chain");
      if (is("(")) e = make("call_expression", {e, oc, arguments()});
      else if (is("[")) { int o = leaf(); int i = expression(); expect("]"); e = make("subscript_expression", {e, oc, o, i, leaf()}); }
      else if (peek().kind == tk::word) e = make("member_expression", {e, oc, leaf("property_identifier")});
      else throw syntax_error{};
    } else if (is("[")) {
      int o = leaf();
      if (is("]")) throw syntax_error{};
      int i = expression();
      if (is(")") || is(",")) {  // tree-sitter inserts a MISSING `]` here
        e = make("subscript_expression", {e, o, i, span("]", nodes_[i].end, nodes_[i].end)});
        continue;
      }
      expect("]");
      e = make("subscript_expression", {e, o, i, leaf()});
    } else if (is("(")) {
      e = make("call_expression", {e, arguments()});
    } else if (is("`") && !(peek().newline_before && open_ == stmt_open_)) {
      // A template on the next line at statement level starts a new statement: tree-sitter's
      // automatic-semicolon scanner ends the statement before a backtick.
      e = make("call_expression", {e, template_literal()});
    } else {
      return e;
    }
  }
}

int parser::parenthesized() {
  int o = leaf();
  int e = expression();
  expect(")");
  return make("parenthesized_expression", {o, e, leaf()});
}

int parser::function_expression() {
  std::vector<int> k;
  if (is_word("async")) k.push_back(leaf());
  k.push_back(leaf());  // function
  if (is("*")) k.push_back(leaf());
  if (peek().kind == tk::word) k.push_back(leaf("identifier"));
  expect("(");
  k.push_back(balanced("(", ")"));
  expect("{");
  k.push_back(block());
  return make("function_expression", k);
}

int parser::object() {
  std::vector<int> k{leaf()};  // {
  while (!is("}")) {
    std::vector<int> p;
    if (is("...")) {
      p.push_back(leaf());
      p.push_back(assignment());
    } else {
      // modifiers: get/set/async/static/* (only when a key follows)
      while ((is_word("get") || is_word("set") || is_word("async") || is("*"))) {
        std::size_t save = pos_;
        int m = leaf();
        if (is("(") || is(":") || is(",") || is("}") || is("=")) { pos_ = save; nodes_.pop_back(); break; }
        p.push_back(m);
      }
      if (peek().kind == tk::word) p.push_back(leaf("property_identifier"));
      else if (peek().kind == tk::string) p.push_back(leaf("string"));
      else if (peek().kind == tk::number) p.push_back(leaf("number"));
      else if (is("[")) { int o = leaf(); int e = assignment(); expect("]"); p.push_back(make("computed_property_name", {o, e, leaf()})); }
      else throw syntax_error{};
      if (is(":")) { p.push_back(leaf()); p.push_back(assignment()); }
      else if (is("(")) { p.push_back(balanced("(", ")")); expect("{"); p.push_back(block()); }
      else if (is("=")) { p.push_back(leaf()); p.push_back(assignment()); }  // pattern default
      else if (nodes_[p.back()].type != "property_identifier" || p.size() != 1) throw syntax_error{};
    }
    k.push_back(make("pair", p));
    if (is(",")) k.push_back(leaf());
    else if (!is("}")) throw syntax_error{};
  }
  k.push_back(leaf());
  return make("object", k);
}

int parser::array() { return elements("array", "]", true); }

int parser::primary() {
  const token& t = peek();
  switch (t.kind) {
    case tk::number: return leaf("number");
    case tk::string: return leaf("string");
    case tk::eof: throw syntax_error{};
    case tk::punct: {
      if (is("(")) return parenthesized();
      if (is("[")) return array();
      if (is("{")) return object();
      if (is("`")) return template_literal();
      if (is("/") || is("/=")) return regex();
      throw syntax_error{};  // includes JSX (`<`), which is not supported
    }
    case tk::word: break;
  }
  std::string w(text(t));
  if (!expr_keyword(w)) {
    if (w == "async") {
      std::size_t save = pos_;
      leaf();
      bool fn = is_word("function") && !peek().newline_before;
      pos_ = save;
      nodes_.pop_back();
      if (fn) return function_expression();
    }
    return leaf("identifier");
  }
  if (w == "function") return function_expression();
  if (w == "class") {
    std::vector<int> k{leaf()};
    if (peek().kind == tk::word && text(peek()) != "extends") k.push_back(leaf("identifier"));
    if (is_word("extends")) { k.push_back(leaf()); k.push_back(call_member(primary())); }
    expect("{");
    k.push_back(balanced("{", "}"));
    return make("class", k);
  }
  if (w == "new") {
    int n = leaf();
    if (is(".")) { int d = leaf(); return make("new_target", {n, d, leaf("property_identifier")}); }
    int callee = is_word("new") ? primary() : primary();
    // member accesses bind to the constructor; the first argument list to `new`
    while (is(".") || is("[")) {
      if (is(".")) { int d = leaf(); callee = make("member_expression", {callee, d, leaf("property_identifier")}); }
      else { int o = leaf(); int i = expression(); expect("]"); callee = make("subscript_expression", {callee, o, i, leaf()}); }
    }
    if (is("(")) return make("new_expression", {n, callee, arguments()});
    return make("new_expression", {n, callee});
  }
  if (w == "import") {
    int i = leaf();
    if (is("(") || is(".")) return i;
    throw syntax_error{};
  }
  return leaf(w);  // this, super, true, false, null, undefined, (typeof etc. handled above)
}

}  // namespace tooluse::eval::detail::js_cst
