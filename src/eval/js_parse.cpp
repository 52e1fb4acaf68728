// parse_javascript_function_call: BFCL's js_parser.py without tree-sitter.
//
// BFCL parses the model's text with tree-sitter-javascript 0.21.4, rejects it when the tree's
// s-expression holds "ERROR", then looks at the program's top-level expression statements for
// one whose child is a call_expression. Debian 12 ships no tree-sitter grammar for
// JavaScript, so this is a hand-written recursive-descent parser for the common part of the
// language (expressions incl. arrow/function/class expressions, objects, arrays, templates,
// regexes, and the usual statements); text outside it is rejected. Tokens are lexed on
// demand because `/` (division or regex) and template literals depend on the context.

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eval/java.hpp"  // python_trim1
#include "eval/js.hpp"

namespace tooluse::eval::detail {
namespace {

struct syntax_error {};
// Nesting deeper than kMaxDepth is rejected instead of recursing further (BFCL's traversal is
// not recursive here, but tree-sitter's parse would succeed: a documented limit).
struct too_deep {};
constexpr int kMaxDepth = 400;

enum class tk { word, number, string, punct, eof };

struct token {
  tk kind = tk::eof;
  std::size_t start = 0, end = 0;
  bool newline_before = false;
};

struct node {
  std::string type;
  std::size_t start = 0, end = 0;
  std::vector<int> kids;
  std::size_t first = 0;  // start of the first token (comments before it go to an ancestor)
  bool has_first = false;
};

bool id_start(unsigned char c) { return std::isalpha(c) || c == '_' || c == '$' || c >= 0x80; }
bool id_char(unsigned char c) { return id_start(c) || std::isdigit(c); }

// Keywords tree-sitter treats as such at the start of an expression; other reserved words
// there are lexed as identifiers (keyword extraction only returns keywords the state accepts).
bool expr_keyword(std::string_view w) {
  static const char* k[] = {"function", "class", "new",    "this",   "super", "true",
                            "false",    "null",  "undefined", "typeof", "void", "delete",
                            "await",    "yield", "import"};
  return std::any_of(std::begin(k), std::end(k), [&](const char* x) { return w == x; });
}

class parser {
 public:
  explicit parser(std::string_view s) : s_(s) {}

  int program() {
    std::vector<int> kids;
    while (peek().kind != tk::eof) kids.push_back(statement(true));
    std::vector<int> all;
    for (int k : kids) { attach(nodes_[k], all); all.push_back(k); }
    attach_at(s_.size(), all);  // comments before the end of input
    node root;
    root.type = "program";
    root.kids = std::move(all);
    root.end = s_.size();
    nodes_.push_back(std::move(root));
    return static_cast<int>(nodes_.size()) - 1;
  }
  const node& at(int i) const { return nodes_[i]; }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;  // just after the last consumed token
  std::vector<node> nodes_;
  std::map<std::size_t, std::vector<std::pair<std::size_t, std::size_t>>> comments_;  // by next token
  std::map<std::size_t, bool> taken_;
  std::optional<token> cache_;
  std::size_t cache_pos_ = 0;
  std::map<std::size_t, std::size_t> close_after_;  // bracket start -> just after its match
  int depth_ = 0;
  bool in_block_ = false;  // statements end at `}` (else at the end of input)
  int open_ = 0;       // brackets opened and not yet closed at the cursor
  int stmt_open_ = 0;  // open_ where the current statement started
  struct depth_guard {
    int& d;
    explicit depth_guard(int& depth) : d(depth) { if (++d > kMaxDepth) throw too_deep{}; }
    ~depth_guard() { --d; }
  };

  // ---- lexing
  std::size_t skip_space(std::size_t i, bool* nl) {
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

  token lex_at(std::size_t from) {
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

  static bool valid_number(std::string_view t) {
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

  const token& peek() {
    if (!cache_ || cache_pos_ != pos_) { cache_ = lex_at(pos_); cache_pos_ = pos_; }
    return *cache_;
  }
  std::string_view text(const token& t) const { return s_.substr(t.start, t.end - t.start); }
  bool is(std::string_view p) { const token& t = peek(); return t.kind == tk::punct && text(t) == p; }
  bool is_word(std::string_view w) { const token& t = peek(); return t.kind == tk::word && text(t) == w; }
  bool at_eof() { return peek().kind == tk::eof; }
  void expect(std::string_view p) { if (!is(p)) throw syntax_error{}; }

  int leaf(std::string type = {}) {
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
  int span(std::string type, std::size_t a, std::size_t b) {  // a node read as raw text
    node n;
    n.type = std::move(type);
    n.start = a;
    n.end = b;
    n.first = a;
    n.has_first = true;
    nodes_.push_back(std::move(n));
    return static_cast<int>(nodes_.size()) - 1;
  }
  void attach_at(std::size_t tok_start, std::vector<int>& into) {
    auto it = comments_.find(tok_start);
    if (it == comments_.end() || taken_[tok_start]) return;
    taken_[tok_start] = true;
    for (auto [a, b] : it->second) into.push_back(span("comment", a, b));
  }
  void attach(const node& n, std::vector<int>& into) { if (n.has_first) attach_at(n.first, into); }
  // A comment belongs to the smallest node holding tokens on both of its sides.
  int make(std::string type, const std::vector<int>& kids) {
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

  // ---- statements
  // The end of a statement: `;`, or automatic semicolon insertion (a line break before the
  // next token, `}` or the end of input). Anything else is an ERROR in tree-sitter.
  void end_statement(std::vector<int>& k) {
    if (is(";")) { k.push_back(leaf()); return; }
    if (at_eof() || is("}") || peek().newline_before) return;
    throw syntax_error{};
  }

  struct stmt_guard {
    int& at;
    int saved;
    stmt_guard(int& stmt_open, int open) : at(stmt_open), saved(stmt_open) { at = open; }
    ~stmt_guard() { at = saved; }
  };

  int statement(bool top = false) {
    depth_guard guard(depth_);
    stmt_guard sg(stmt_open_, open_);
    (void)top;
    if (is(";")) return make("empty_statement", {leaf()});
    if (is("{")) return brace_statement();
    const token& t = peek();
    if (t.kind == tk::word) {
      std::string_view w = text(t);
      if (w == "var" || w == "let" || w == "const") {
        std::size_t save = pos_;
        std::vector<int> k{leaf()};
        if (peek().kind == tk::word || is("{") || is("[")) {
          while (true) {
            std::vector<int> d{binding()};
            if (is("=")) { d.push_back(leaf()); d.push_back(assignment()); }
            k.push_back(make("variable_declarator", d));
            if (!is(",")) break;
            k.push_back(leaf());
          }
          end_statement(k);
          return make("lexical_declaration", k);
        }
        pos_ = save;  // `let` used as an identifier
      } else if (w == "return" || w == "throw") {
        std::vector<int> k{leaf()};
        if (!is(";") && !is("}") && !at_eof() && !peek().newline_before) k.push_back(expression());
        end_statement(k);
        return make("return_statement", k);
      } else if (w == "if" || w == "while") {
        std::vector<int> k{leaf()};
        expect("(");
        k.push_back(parenthesized());
        k.push_back(statement());
        if (w == "if" && is_word("else")) { k.push_back(leaf()); k.push_back(statement()); }
        return make("if_statement", k);
      } else if (w == "for") {
        std::vector<int> k{leaf()};
        expect("(");
        k.push_back(balanced("(", ")"));
        k.push_back(statement());
        return make("for_statement", k);
      } else if (w == "try") {
        std::vector<int> k{leaf()};
        expect("{");
        k.push_back(block());
        if (is_word("catch")) {
          k.push_back(leaf());
          if (is("(")) k.push_back(balanced("(", ")"));
          expect("{");
          k.push_back(block());
        }
        if (is_word("finally")) { k.push_back(leaf()); expect("{"); k.push_back(block()); }
        return make("try_statement", k);
      } else if (w == "break" || w == "continue" || w == "debugger") {
        std::vector<int> k{leaf()};
        end_statement(k);
        return make("break_statement", k);
      } else if (!expr_keyword(w)) {
        std::size_t save = pos_;
        int label = leaf("statement_identifier");
        if (is(":")) {  // `map: f(x)` is a labeled statement, not an expression statement
          int colon = leaf();
          return make("labeled_statement", {label, colon, statement()});
        }
        pos_ = save;
        nodes_.pop_back();
      }
      if (w == "function" || w == "async") {
        // A declaration at statement level: parsed like the expression form.
      } else if (w == "do" || w == "switch" || w == "with" || w == "import" || w == "export" ||
                 w == "class" || w == "else" || w == "case" || w == "default") {
        if (!(w == "class" || w == "import")) throw syntax_error{};
      }
    }
    std::vector<int> k{expression()};
    end_statement(k);
    return make("expression_statement", k);
  }

  int block() {
    std::vector<int> k{leaf()};  // {
    bool outer = in_block_;
    in_block_ = true;
    while (!is("}")) {
      if (at_eof()) throw syntax_error{};
      k.push_back(statement());
    }
    in_block_ = outer;
    k.push_back(leaf());
    return make("statement_block", k);
  }

  // A statement starting with `{` is both a statement_block and an expression statement
  // starting with an object; tree-sitter's GLR parser follows both readings. A reading that
  // hits an error is dropped; when both complete at the same token, the one with the higher
  // dynamic precedence stays (labeled_statement counts -1 each), else the block.
  // Nodes are never dropped here: both readings' nodes stay valid in nodes_.
  struct saved {
    std::size_t pos;
    std::map<std::size_t, bool> taken;
    bool in_block;
    int open;
  };
  saved save() const { return {pos_, taken_, in_block_, open_}; }
  void restore(const saved& s) {
    pos_ = s.pos;
    taken_ = s.taken;
    in_block_ = s.in_block;
    open_ = s.open;
    cache_.reset();
  }
  int labels(int n) const {
    int c = nodes_[n].type == "labeled_statement" ? 1 : 0;
    for (int k : nodes_[n].kids) c += labels(k);
    return c;
  }
  int object_statement() {
    std::vector<int> k{expression()};
    const node& e = nodes_[k[0]];  // `{a} = b` needs parentheses at the start of a statement
    if (e.type == "assignment_expression" && nodes_[e.kids[0]].type == "object") throw syntax_error{};
    end_statement(k);
    return make("expression_statement", k);
  }
  int brace_statement() {
    saved start = save();
    std::optional<saved> after_block;
    int b = -1, block_labels = 0;
    try {
      b = block();
      block_labels = labels(b);
      after_block = save();
    } catch (const syntax_error&) {
    }
    restore(start);
    if (!after_block) return object_statement();
    std::optional<saved> after_object;
    int o = -1, object_labels = 0;
    try {
      o = object_statement();
      object_labels = labels(o);
      after_object = save();
    } catch (const syntax_error&) {
    }
    if (!after_object) {
      restore(*after_block);
      return b;
    }
    // Follow the block reading up to where the object reading ended.
    restore(*after_block);
    bool same_end = true;
    try {
      while (pos_ < after_object->pos) {
        if (at_eof() || (in_block_ && is("}"))) { same_end = false; break; }
        block_labels += labels(statement());
      }
      if (pos_ != after_object->pos) same_end = false;
    } catch (const syntax_error&) {
      same_end = false;
    }
    if (!same_end || object_labels < block_labels) {
      restore(*after_object);
      return o;
    }
    restore(*after_block);
    return b;
  }

  // Tokens from an opening bracket to its match, kept as a flat node (for headers and
  // parameter lists whose inner structure BFCL never reads).
  int balanced(std::string_view open, std::string_view close) {
    depth_guard guard(depth_);
    std::vector<int> k{leaf()};
    int depth = 1;
    while (depth > 0) {
      if (at_eof()) throw syntax_error{};
      if (is("`")) { k.push_back(template_literal()); continue; }
      if (is("{") && open != "{") { k.push_back(balanced("{", "}")); continue; }
      if (is(open)) ++depth;
      if (is(close)) --depth;
      if (is("/") || is("/=")) {  // a regex is possible here; lex it as one
        if (nodes_.size() && k.size() > 0) {
          const node& prev = nodes_[k.back()];
          bool operand_pos = prev.type == "(" || prev.type == "," || prev.type == "=" || prev.type == ":";
          if (operand_pos) { k.push_back(regex()); continue; }
        }
      }
      k.push_back(leaf());
    }
    return make("group", k);
  }

  int binding() {
    if (is("{")) return balanced("{", "}");
    if (is("[")) return balanced("[", "]");
    if (peek().kind != tk::word) throw syntax_error{};
    return leaf("identifier");
  }

  // ---- expressions
  int expression() {  // sequence_expression
    int e = assignment();
    if (!is(",")) return e;
    std::vector<int> k{e};
    while (is(",")) { k.push_back(leaf()); k.push_back(assignment()); }
    return make("sequence_expression", k);
  }

  // `( ... ) =>` starting at the cursor. Bracket matches found while scanning are memoized
  // (close_after_), so nested parentheses do not rescan the input (no quadratic time).
  bool arrow_ahead() {
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

  int arrow_body(std::vector<int> k) {
    k.push_back(leaf());  // =>
    k.push_back(is("{") ? block() : assignment());
    return make("arrow_function", k);
  }

  int assignment() {
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
    static const char* ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=",
                                "&=", "^=", "|=", "&&=", "||=", "?\?="};
    for (const char* o : ops) {
      if (!is(o)) continue;
      const std::string& lt = nodes_[lhs].type;
      if (lt != "identifier" && lt != "member_expression" && lt != "subscript_expression" &&
          !(std::string_view(o) == "=" && (lt == "object" || lt == "array")) &&
          lt != "parenthesized_expression")
        throw syntax_error{};
      int op = leaf();
      int rhs = assignment();
      return make(std::string_view(o) == "=" ? "assignment_expression" : "augmented_assignment_expression",
                  {lhs, op, rhs});
    }
    return lhs;
  }

  int ternary() {
    int c = binary(0);
    if (!is("?")) return c;
    int q = leaf();
    int a = assignment();
    expect(":");
    int colon = leaf();
    return make("ternary_expression", {c, q, a, colon, assignment()});
  }

  int binprec() {
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
  int binary(int min) {
    int lhs = unary();
    while (true) {
      int p = binprec();
      if (p < 0 || p < min) return lhs;
      int op = leaf();
      int rhs = binary(p == 12 ? p : p + 1);  // ** is right-associative
      lhs = make("binary_expression", {lhs, op, rhs});
    }
  }

  int unary() {
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
      static const char* ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=",
                                  "&=", "^=", "|=", "&&=", "||=", "?\?="};
      for (const char* o : ops) {
        if (!is(o)) continue;
        int op = leaf();
        int rhs = assignment();
        return make(std::string_view(o) == "=" ? "assignment_expression" : "augmented_assignment_expression",
                    {e, op, rhs});
      }
    }
    return e;
  }

  int arguments() {
    std::vector<int> k{leaf()};  // (
    while (!is(")")) {
      if (is("...")) { int d = leaf(); k.push_back(make("spread_element", {d, assignment()})); }
      else k.push_back(assignment());
      if (is(",")) k.push_back(leaf());
      else if (!is(")")) throw syntax_error{};
    }
    k.push_back(leaf());
    return make("arguments", k);
  }

  int call_member(int e) {
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

  int parenthesized() {
    int o = leaf();
    int e = expression();
    expect(")");
    return make("parenthesized_expression", {o, e, leaf()});
  }

  int template_literal() {  // `...${expr}...`
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

  int regex() {  // /body/flags at the cursor
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

  int function_expression() {
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

  int object() {
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

  int array() {
    std::vector<int> k{leaf()};  // [
    while (!is("]")) {
      if (is(",")) { k.push_back(leaf()); continue; }  // holes
      if (is("...")) { int d = leaf(); k.push_back(make("spread_element", {d, assignment()})); }
      else k.push_back(assignment());
      if (is(",")) k.push_back(leaf());
      else if (!is("]")) throw syntax_error{};
    }
    k.push_back(leaf());
    return make("array", k);
  }

  int primary() {
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
};

}  // namespace

py_value parse_javascript_function_call(std::string_view source) {
  parser p(source);
  int root;
  try {
    root = p.program();
  } catch (const syntax_error&) {
    throw decode_error("Error js parsing the source code.");
  } catch (const too_deep&) {
    throw decode_error("Error js parsing the source code.");
  }
  auto text = [&](int n) {
    const node& nd = p.at(n);
    return std::string(source.substr(nd.start, nd.end - nd.start));
  };
  for (int st : p.at(root).kids) {
    const node& s = p.at(st);
    if (s.type != "expression_statement") continue;
    for (int c : s.kids) {
      const node& call = p.at(c);
      if (call.type != "call_expression") continue;
      std::string name = text(call.kids[0]);
      py_value::entries_t args;
      const node& an = p.at(call.kids[1]);  // `f?.(...)`: the optional chain, no children
      for (int a : an.kids) {
        const node& arg = p.at(a);
        if (arg.type == "assignment_expression") {
          std::string v = text(arg.kids[2]);
          // One pair of matching quotes is trimmed from the raw text of any value.
          if (v.size() >= 1 && ((v.front() == '"' && v.back() == '"') || (v.front() == '\'' && v.back() == '\'')))
            v = python_trim1(v);
          args.emplace_back(py_value::string(text(arg.kids[0])), py_value::string(v));
        } else if (arg.type == "identifier" || arg.type == "true") {  // not `false`, as in BFCL
          args.emplace_back(py_value(), py_value::string(text(a)));
        }
      }
      py_value out = py_value::dict();
      for (auto& [k, v] : args) {
        if (out.find(k))
          throw decode_error("Error: Multiple arguments with the same name are not supported.");
        out.set_item(k, v);
      }
      return py_value::list({py_value::dict({{py_value::string(name), out}})});
    }
  }
  return py_value();  // None
}

}  // namespace tooluse::eval::detail
