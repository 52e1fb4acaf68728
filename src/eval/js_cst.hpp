#pragma once
// Private to src/eval: the concrete syntax tree behind parse_javascript_function_call (js.hpp),
// a hand-written stand-in for tree-sitter-javascript 0.21.4. js_lex.cpp lexes (on demand:
// `/` and templates depend on the context) and makes nodes, js_parse.cpp and js_expr.cpp
// build tree-sitter's tree (statements / expressions), js_text.cpp runs BFCL's traversal.

#include <cctype>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tooluse::eval::detail::js_cst {

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

inline bool id_start(unsigned char c) { return std::isalpha(c) || c == '_' || c == '$' || c >= 0x80; }
inline bool id_char(unsigned char c) { return id_start(c) || std::isdigit(c); }

// Keywords tree-sitter treats as such at the start of an expression; other reserved words
// there are lexed as identifiers (keyword extraction only returns keywords the state accepts).
bool expr_keyword(std::string_view w);

// The parser: one object per source text; program() returns the root node's index.
class parser {
 public:
  explicit parser(std::string_view s) : s_(s) {}
  int program();
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
  std::size_t skip_space(std::size_t i, bool* nl);
  token lex_at(std::size_t from);
  static bool valid_number(std::string_view t);

  const token& peek() {
    if (!cache_ || cache_pos_ != pos_) { cache_ = lex_at(pos_); cache_pos_ = pos_; }
    return *cache_;
  }
  std::string_view text(const token& t) const { return s_.substr(t.start, t.end - t.start); }
  bool is(std::string_view p) { const token& t = peek(); return t.kind == tk::punct && text(t) == p; }
  bool is_word(std::string_view w) { const token& t = peek(); return t.kind == tk::word && text(t) == w; }
  bool at_eof() { return peek().kind == tk::eof; }
  void expect(std::string_view p) { if (!is(p)) throw syntax_error{}; }
  int leaf(std::string type = {});
  int span(std::string type, std::size_t a, std::size_t b);
  void attach_at(std::size_t tok_start, std::vector<int>& into);
  void attach(const node& n, std::vector<int>& into) { if (n.has_first) attach_at(n.first, into); }
  int make(std::string type, const std::vector<int>& kids);
  void end_statement(std::vector<int>& k);

  struct stmt_guard {
    int& at;
    int saved;
    stmt_guard(int& stmt_open, int open) : at(stmt_open), saved(stmt_open) { at = open; }
    ~stmt_guard() { at = saved; }
  };
  int statement(bool top = false);
  int block();

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
  void restore(const saved& s);
  int labels(int n) const;
  // reading: a reading that completed: its node, labeled statements and where it ended.
  struct reading {
    int node;
    int labels;
    saved after;
  };
  // try_reading runs `parse` from the cursor; nothing when it hits a syntax error (the cursor is
  // then anywhere: restore it).
  std::optional<reading> try_reading(int (parser::*parse)());
  int object_statement();
  int brace_statement();
  int balanced(std::string_view open, std::string_view close);
  int binding();
  int expression();
  bool arrow_ahead();
  int arrow_body(std::vector<int> k);
  int assignment();
  // assignment_operator: the assignment operator at the cursor (=, +=, ..., ??=), or "".
  std::string_view assignment_operator();
  // assign: `lhs`, the assignment operator `op` at the cursor, then the right-hand side.
  int assign(int lhs, std::string_view op);
  int ternary();
  int binprec();
  int binary(int min);
  int unary();
  // elements: a bracketed, comma-separated list of expressions and `...x` spreads, up to `close`;
  // `holes`: empty elements are allowed (arrays).
  int elements(std::string type, std::string_view close, bool holes);
  int arguments();
  int call_member(int e);
  int parenthesized();
  int template_literal();
  int regex();
  int function_expression();
  int object();
  int array();
  int primary();
};

}  // namespace tooluse::eval::detail::js_cst
