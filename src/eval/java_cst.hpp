#pragma once
// Private to src/eval: the concrete syntax tree behind parse_java_function_call (java.hpp), a
// hand-written stand-in for tree-sitter-java 0.21.0. java_lex.cpp lexes, java_parse.cpp and
// java_expr.cpp build tree-sitter's tree (statements / expressions), java_text.cpp runs BFCL's
// traversal over it (java_parser.py's text reconstruction).

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tooluse::eval::detail::java_cst {

struct syntax_error {};  // tree-sitter would put an ERROR node in the tree
// Nesting deeper than kMaxDepth is rejected instead of recursing further (BFCL's own recursive
// traversal would hit Python's recursion limit long before tree-sitter's limits). Not a
// syntax_error, so no alternative reading is retried.
struct too_deep {};
constexpr int kMaxDepth = 400;

enum class tk { word, number, string, chr, punct, eof };

struct token {
  tk kind;
  std::size_t start, end;
  std::vector<std::pair<std::size_t, std::size_t>> comments;  // comments just before it
  bool comments_taken = false;
};

inline bool ident_start(unsigned char c) { return std::isalpha(c) || c == '_' || c == '$' || c >= 0x80; }
inline bool ident_char(unsigned char c) { return ident_start(c) || std::isdigit(c); }

/// tree-sitter-java's tokens; throws syntax_error where its lexer would fail.
std::vector<token> lex(std::string_view s);
/// RE2 full match of s against pattern (compiled once per pattern).
bool full_match(std::string_view s, const char* pattern);

struct node {
  std::string type;  // tree-sitter node type ("(" etc. for anonymous tokens)
  std::size_t start = 0, end = 0;
  std::vector<int> kids;
  std::vector<std::pair<std::string, int>> fields;
  int first_token = -1;  // whose leading comments belong to an ancestor
};

// Keywords that tree-sitter-java lexes as keywords at the start of an expression; any other
// reserved word there is lexed as an identifier (tree-sitter's keyword extraction only
// returns a keyword the parse state accepts), which is why BFCL accepts `f(class=1)`.
bool expr_keyword(std::string_view w);
bool primitive(std::string_view w);
bool statement_keyword(std::string_view w);

// The parser: one object per source text; program() returns the root node's index.
class parser {
 public:
  explicit parser(std::string_view src) : s_(src), toks_(lex(src)), match_(toks_.size(), 0) {
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < toks_.size(); ++i) {
      if (toks_[i].kind != tk::punct) continue;
      if (text(toks_[i]) == "(") open.push_back(i);
      if (text(toks_[i]) == ")" && !open.empty()) { match_[open.back()] = i; open.pop_back(); }
    }
  }
  int program();

  const node& at(int i) const { return nodes_[i]; }
  std::string_view source() const { return s_; }

 private:
  std::string_view s_;
  std::vector<token> toks_;
  std::vector<std::size_t> match_;  // `(` token -> its `)` token (0: none)
  std::vector<node> nodes_;
  std::size_t p_ = 0;
  int depth_ = 0;
  struct depth_guard {
    int& d;
    explicit depth_guard(int& depth) : d(depth) { if (++d > kMaxDepth) throw too_deep{}; }
    ~depth_guard() { --d; }
  };

  // -- token helpers
  const token& cur() const { return toks_[p_]; }
  std::string_view text(const token& t) const { return s_.substr(t.start, t.end - t.start); }
  bool at_eof() const { return cur().kind == tk::eof; }
  bool is(std::string_view punct, std::size_t ahead = 0) const {
    const token& t = toks_[std::min(p_ + ahead, toks_.size() - 1)];
    return t.kind == tk::punct && text(t) == punct;
  }
  bool is_word(std::string_view w, std::size_t ahead = 0) const {
    const token& t = toks_[std::min(p_ + ahead, toks_.size() - 1)];
    return t.kind == tk::word && text(t) == w;
  }
  bool adjacent(std::size_t a) const { return toks_[a].end == toks_[a + 1].start; }
  void expect(std::string_view punct) { if (!is(punct)) throw syntax_error{}; }
  int leaf_tok(std::string type = {});
  int leaf_text(std::string type, std::size_t from_tok, std::size_t to_tok) {  // several tokens
    node nd;
    nd.type = std::move(type);
    nd.start = toks_[from_tok].start;
    nd.end = toks_[to_tok].end;
    nd.first_token = static_cast<int>(from_tok);
    nodes_.push_back(std::move(nd));
    return static_cast<int>(nodes_.size()) - 1;
  }
  void attach_comments(int tok, std::vector<int>& into);
  // make: a node over kids. A comment sits in the smallest node holding tokens on both of its
  // sides, so the comments before every kid but the first become children here.
  int make(std::string type, const std::vector<int>& kids, std::size_t start = 0,
           std::size_t end = 0, std::vector<std::pair<std::string, int>> fields = {}) {
    node nd;
    nd.type = std::move(type);
    std::vector<int> with;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      if (i > 0) attach_comments(nodes_[kids[i]].first_token, with);
      with.push_back(kids[i]);
    }
    nd.kids = std::move(with);
    nd.first_token = kids.empty() ? -1 : nodes_[kids.front()].first_token;
    nd.start = kids.empty() ? start : nodes_[kids.front()].start;
    nd.end = kids.empty() ? end : nodes_[kids.back()].end;
    for (auto& [f, k] : fields) nd.fields.emplace_back(f, k);
    nodes_.push_back(std::move(nd));
    return static_cast<int>(nodes_.size()) - 1;
  }
  int missing_token(std::string type, std::size_t at = std::string::npos);
  int missing_semicolon();
  int statement(bool first, bool prev_missing, bool* missing_out, std::size_t begin);
  int end_statement(bool first, bool prev_missing, std::size_t begin, bool* missing_out, int body);
  bool dotted(int n) const;
  bool declaration_ahead() const;
  int block();
  bool try_local_variable_declaration(std::vector<int>& k);
  int type();
  int type_arguments();
  int expression();
  int try_lambda();
  int lambda_rest(int params);
  int ternary();
  int binop(std::size_t* ntok) const;
  int binary(int min_prec);
  int unary();
  bool at_assign_op();
  int assign_tail(int lhs);
  int postfix_ops(int e) {
    while (is("++") || is("--")) e = make("update_expression", {e, leaf_tok()});
    return e;
  }
  int try_cast();
  int parenthesized();
  int arguments();
  int array_initializer();
  int creation(std::vector<int> prefix);
  int class_body();
  int primary();
  bool type_like(int e) const {  // may be read as a type for `.class` / `[].class`
    const node& n = nodes_[e];
    if (n.type == "identifier") return true;
    if (n.type == "field_access") return type_like(n.kids.front()) ;
    return false;
  }
  int suffixes(int e);
};

}  // namespace tooluse::eval::detail::java_cst
