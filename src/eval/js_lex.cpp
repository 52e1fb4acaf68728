// The JavaScript parser's lexing (tree-sitter-javascript 0.21.4's tokens, lexed on demand at
// the cursor) and node building; see js_parse.cpp.

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "eval/js_cst.hpp"

namespace tooluse::eval::detail::js_cst {

// Keywords tree-sitter treats as such at the start of an expression; other reserved words
// there are lexed as identifiers (keyword extraction only returns keywords the state accepts).
bool expr_keyword(std::string_view w) {
  static const char* k[] = {"function", "class", "new",    "this",   "super", "true",
                            "false",    "null",  "undefined", "typeof", "void", "delete",
                            "await",    "yield", "import"};
  return std::any_of(std::begin(k), std::end(k), [&](const char* x) { return w == x; });
}

// ---- lexing
std::size_t parser::skip_space(std::size_t i, bool* nl) {
  std::vector<std::pair<std::size_t, std::size_t>> found;
  while (i < s_.size()) {
    char c = s_[i];
    if (c == '\n' || c == '\r') { *nl = true; ++i; continue; }
    if (c == ' ' || c == '\t' || c == '\v' || c == '\f') { ++i; continue; }
    if (c == '/' && i + 1 < s_.size() && s_[i + 1] == '/') {
      std::size_t a = i;
      while (i < s_.size() && s_[i] != '\n') ++i;
      found.emplace_back(a, i);
      continue;
    }
    if (c == '/' && i + 1 < s_.size() && s_[i + 1] == '*') {
      std::size_t a = i, e = s_.find("*/", i + 2);
      if (e == std::string_view::npos) throw syntax_error{};
      if (s_.substr(i, e - i).find('\n') != std::string_view::npos) *nl = true;
      i = e + 2;
      found.emplace_back(a, i);
      continue;
    }
    break;
  }
  if (!found.empty()) comments_[i] = found;
  return i;
}

token parser::lex_at(std::size_t from) {
  token t;
  std::size_t i = skip_space(from, &t.newline_before);
  t.start = i;
  if (i >= s_.size()) { t.kind = tk::eof; t.end = i; return t; }
  char c = s_[i];
  if (id_start(static_cast<unsigned char>(c))) {
    while (i < s_.size() && id_char(static_cast<unsigned char>(s_[i]))) ++i;
    t.kind = tk::word;
  } else if (std::isdigit(static_cast<unsigned char>(c)) ||
             (c == '.' && i + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i + 1])))) {
    bool hex = c == '0' && i + 1 < s_.size() && (s_[i + 1] == 'x' || s_[i + 1] == 'X');
    bool dot = false;
    while (i < s_.size()) {
      char d = s_[i];
      if (std::isalnum(static_cast<unsigned char>(d)) || d == '_') { ++i; continue; }
      if (d == '.' && !dot && !hex) { dot = true; ++i; continue; }
      if ((d == '+' || d == '-') && !hex && (s_[i - 1] == 'e' || s_[i - 1] == 'E')) { ++i; continue; }
      break;
    }
    if (!valid_number(s_.substr(t.start, i - t.start))) throw syntax_error{};
    t.kind = tk::number;
  } else if (c == '"' || c == '\'') {
    ++i;
    while (true) {
      if (i >= s_.size() || s_[i] == '\n') throw syntax_error{};  // no raw newline
      if (s_[i] == c) break;
      i += s_[i] == '\\' ? 2 : 1;
    }
    ++i;
    t.kind = tk::string;
  } else {
    static const char* ops[] = {">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=",
                                "||=",  "?\?=", "=>",  "==",  "!=",  "<=",  ">=",  "&&",  "||",
                                "??",   "?.",  "++",  "--",  "+=",  "-=",  "*=",  "/=",  "%=",
                                "&=",   "|=",  "^=",  "**",  "<<",  ">>"};
    std::size_t len = 1;
    for (const char* o : ops) {
      std::string_view ov(o);
      if (s_.substr(i, ov.size()) == ov) {
        // `a?.5:b` is a ternary, not optional chaining
        if (ov == "?." && i + 2 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i + 2]))) continue;
        len = ov.size();
        break;
      }
    }
    if (std::string_view("(){}[];,.<>=!~?:+-*/%&|^`").find(c) == std::string_view::npos)
      throw syntax_error{};  // includes `#`, `@`, stray characters
    i += len;
    t.kind = tk::punct;
  }
  t.end = i;
  return t;
}

bool parser::valid_number(std::string_view t) {
  auto all = [&](std::size_t from, auto pred) {
    if (from >= t.size()) return false;
    for (std::size_t i = from; i < t.size(); ++i) if (!pred(t[i]) && t[i] != '_') return false;
    return t[from] != '_' && t.back() != '_';
  };
  std::string_view b = (!t.empty() && t.back() == 'n') ? t.substr(0, t.size() - 1) : t;
  if (b.size() > 2 && b[0] == '0' && std::string_view("xXoObB").find(b[1]) != std::string_view::npos) {
    std::string_view body = b;
    char k = b[1];
    bool (*pred)(char) = k == 'x' || k == 'X' ? +[](char ch) { return std::isxdigit((unsigned char)ch) != 0; }
                         : k == 'o' || k == 'O' ? +[](char ch) { return ch >= '0' && ch <= '7'; }
                                                : +[](char ch) { return ch == '0' || ch == '1'; };
    return all(2, pred) && body.size() > 2;
  }
  // decimal: digits [. digits] [e[+-]digits] | . digits ...; `n` only on integers
  std::size_t i = 0;
  auto digits = [&]() {
    std::size_t a = i;
    while (i < b.size() && (std::isdigit((unsigned char)b[i]) || (b[i] == '_' && i > a && i + 1 < b.size() && std::isdigit((unsigned char)b[i + 1])))) ++i;
    return i > a;
  };
  bool intpart = digits(), frac = false, exp = false;
  if (i < b.size() && b[i] == '.') { ++i; frac = true; digits(); }
  if (!intpart && !frac) return false;
  if (i < b.size() && (b[i] == 'e' || b[i] == 'E')) {
    ++i;
    exp = true;
    if (i < b.size() && (b[i] == '+' || b[i] == '-')) ++i;
    if (!digits()) return false;
  }
  if (i != b.size()) return false;
  return b.size() == t.size() || (!frac && !exp);
}

int parser::leaf(std::string type) {
  token t = peek();
  node n;
  n.type = type.empty() ? std::string(text(t)) : std::move(type);
  n.start = t.start;
  n.end = t.end;
  n.first = t.start;
  n.has_first = true;
  if (t.kind == tk::punct) {
    std::string_view p = text(t);
    if (p == "(" || p == "[" || p == "{") ++open_;
    else if (p == ")" || p == "]" || p == "}") --open_;
  }
  nodes_.push_back(std::move(n));
  pos_ = t.end;
  return static_cast<int>(nodes_.size()) - 1;
}

void parser::attach_at(std::size_t tok_start, std::vector<int>& into) {
  auto it = comments_.find(tok_start);
  if (it == comments_.end() || taken_[tok_start]) return;
  taken_[tok_start] = true;
  for (auto [a, b] : it->second) into.push_back(span("comment", a, b));
}

// A comment belongs to the smallest node holding tokens on both of its sides.
int parser::make(std::string type, const std::vector<int>& kids) {
  node n;
  n.type = std::move(type);
  for (std::size_t i = 0; i < kids.size(); ++i) {
    if (i > 0) { node copy = nodes_[kids[i]]; attach(copy, n.kids); }
    n.kids.push_back(kids[i]);
  }
  n.start = nodes_[kids.front()].start;
  n.end = nodes_[kids.back()].end;
  n.first = nodes_[kids.front()].first;
  n.has_first = nodes_[kids.front()].has_first;
  nodes_.push_back(std::move(n));
  return static_cast<int>(nodes_.size()) - 1;
}

int parser::template_literal() {  // `...${expr}...`
  depth_guard guard(depth_);
  std::size_t a = peek().start, i = a + 1;
  std::vector<int> k;
  while (true) {
    if (i >= s_.size()) throw syntax_error{};
    if (s_[i] == '\\') { i += 2; continue; }
    if (s_[i] == '`') break;
    if (s_[i] == '$' && i + 1 < s_.size() && s_[i + 1] == '{') {
      pos_ = i + 2;
      cache_.reset();
      ++open_;
      k.push_back(expression());
      --open_;
      expect("}");
      i = peek().end;
      continue;
    }
    ++i;
  }
  pos_ = i + 1;
  cache_.reset();
  int n = span("template_string", a, i + 1);
  nodes_[n].kids = k;
  return n;
}

int parser::regex() {  // /body/flags at the cursor
  std::size_t a = peek().start, i = a + 1;
  bool cls = false;
  while (true) {
    if (i >= s_.size() || s_[i] == '\n') throw syntax_error{};
    char c = s_[i];
    if (c == '\\') { i += 2; continue; }
    if (c == '[') cls = true;
    else if (c == ']') cls = false;
    else if (c == '/' && !cls) break;
    ++i;
  }
  ++i;
  while (i < s_.size() && s_[i] >= 'a' && s_[i] <= 'z') ++i;  // regex_flags: [a-z]+
  pos_ = i;
  cache_.reset();
  return span("regex", a, i);
}

}  // namespace tooluse::eval::detail::js_cst
