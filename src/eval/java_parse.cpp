// parse_java_function_call: BFCL's java_parser.py without tree-sitter.
//
// BFCL parses the model's text with tree-sitter-java 0.21.0, rejects it when the tree's
// s-expression holds "ERROR", and reads the first method_invocation. Debian 12 ships no
// tree-sitter grammar for Java, so this is a hand-written recursive-descent parser for the
// part of tree-sitter-java's grammar that model outputs use (expressions, local variable
// declarations, blocks, simple statements). It builds a concrete syntax tree with the node
// types, children and fields that BFCL's traversal looks at, then runs that traversal.
// Text outside the supported subset is rejected, as tree-sitter would reject most of it.
//
// tree-sitter recovers from a missing `;` with a zero-width MISSING node and no ERROR, so
// `Foo.bar(a=1)` parses. Its error recovery is cost-based; the rules in end_statement()
// reproduce what tree-sitter 0.21 does for the shapes that occur (checked against the real
// parser): see the comments there.

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <re2/re2.h>

#include "eval/java.hpp"

namespace tooluse::eval::detail {
namespace {

struct syntax_error {};  // tree-sitter would put an ERROR node in the tree
// Nesting deeper than kMaxDepth is rejected instead of recursing further (BFCL's own recursive
// traversal would hit Python's recursion limit long before tree-sitter's limits). Not a
// syntax_error, so no alternative reading is retried.
struct too_deep {};
constexpr int kMaxDepth = 400;

// ---- lexer ----------------------------------------------------------------------------------

enum class tk { word, number, string, chr, punct, eof };

struct token {
  tk kind;
  std::size_t start, end;
  std::vector<std::pair<std::size_t, std::size_t>> comments;  // comments just before it
  bool comments_taken = false;
};

bool ident_start(unsigned char c) { return std::isalpha(c) || c == '_' || c == '$' || c >= 0x80; }
bool ident_char(unsigned char c) { return ident_start(c) || std::isdigit(c); }

bool full_match(std::string_view s, const char* pattern);  // defined below (RE2)

std::vector<token> lex(std::string_view s) {
  std::vector<token> out;
  std::vector<std::pair<std::size_t, std::size_t>> pending;
  std::size_t i = 0, n = s.size();
  static const char* puncts[] = {"<<=", "...", "->", "::", "++", "--", "&&", "||", "==",
                                 "!=",   "<=",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=", "^=",
                                 "<<"};
  while (true) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f'))
      ++i;
    if (i >= n) break;
    std::size_t st = i;
    char c = s[i];
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {  // line_comment
      while (i < n && s[i] != '\n') ++i;
      pending.emplace_back(st, i);
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {  // block_comment
      auto e = s.find("*/", i + 2);
      if (e == std::string_view::npos) throw syntax_error{};
      i = e + 2;
      pending.emplace_back(st, i);
      continue;
    }
    tk kind;
    if (ident_start(static_cast<unsigned char>(c))) {
      while (i < n && ident_char(static_cast<unsigned char>(s[i]))) ++i;
      kind = tk::word;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      // Maximal munch over number-ish characters, then check it is one of tree-sitter-java's
      // literal tokens (decimal/hex/octal/binary integer, decimal/hex floating point).
      while (i < n) {
        char d = s[i];
        if (std::isalnum(static_cast<unsigned char>(d)) || d == '_' || d == '.') {
          if (d == '.' && i + 1 < n && !std::isdigit(static_cast<unsigned char>(s[i + 1])) &&
              ident_start(static_cast<unsigned char>(s[i + 1])) && s[i + 1] != 'e' &&
              s[i + 1] != 'E' && s[i + 1] != 'f' && s[i + 1] != 'F' && s[i + 1] != 'd' &&
              s[i + 1] != 'D')
            break;  // `1.foo`: stop before the member access
          ++i;
        } else if ((d == '+' || d == '-') && i > st &&
                   std::string_view("eEpP").find(s[i - 1]) != std::string_view::npos &&
                   !(s[st] == '0' && st + 1 < n && (s[st + 1] == 'x' || s[st + 1] == 'X') &&
                     (s[i - 1] == 'e' || s[i - 1] == 'E'))) {
          ++i;
        } else {
          break;
        }
      }
      std::string_view t = s.substr(st, i - st);
      if (!full_match(t, R"([0-9](_*[0-9])*[lL]?)") &&
          !full_match(t, R"(0[xX][0-9a-fA-F](_*[0-9a-fA-F])*[lL]?)") &&
          !full_match(t, R"(0[oO]?[0-7]+(_+[0-7]+)*[lL]?)") &&
          !full_match(t, R"(0[bB][01]+(_+[01]+)*[lL]?)") &&
          !full_match(t, R"(([0-9](_*[0-9])*\.([0-9](_*[0-9])*)?|\.[0-9](_*[0-9])*)([eE][+-]?[0-9](_*[0-9])*)?[fFdD]?)") &&
          !full_match(t, R"([0-9](_*[0-9])*([eE][+-]?[0-9](_*[0-9])*[fFdD]?|[fFdD]|[eE][+-]?[0-9](_*[0-9])*))") &&
          !full_match(t, R"(0[xX]([0-9a-fA-F_]*\.?[0-9a-fA-F_]*)[pP][+-]?[0-9](_*[0-9])*[fFdD]?)"))
        throw syntax_error{};
      kind = tk::number;
    } else if (c == '"') {
      if (s.substr(i, 3) == "\"\"\"") {  // text block: """ ... """
        auto e = s.find("\"\"\"", i + 3);
        while (e != std::string_view::npos && s[e - 1] == '\\') e = s.find("\"\"\"", e + 1);
        if (e == std::string_view::npos) throw syntax_error{};
        i = e + 3;
      } else {  // string_literal: fragments may hold newlines; escapes are checked
        ++i;
        while (true) {
          if (i >= n) throw syntax_error{};
          if (s[i] == '"') break;
          if (s[i] == '\\') {
            if (i + 1 >= n) throw syntax_error{};
            char e = s[i + 1];
            if (e == 'x') {
              if (!(i + 3 < n && std::isxdigit((unsigned char)s[i + 2]) &&
                    std::isxdigit((unsigned char)s[i + 3])))
                throw syntax_error{};
            } else if (e == 'u') {
              if (!(i + 5 < n && full_match(s.substr(i + 2, 4), "[0-9a-fA-F]{4}")))
                throw syntax_error{};
            }
            i += 2;
            continue;
          }
          ++i;
        }
        ++i;
      }
      kind = tk::string;
    } else if (c == '\'') {  // character_literal: ' ( [^\\'\n] | \\. | \\\n )+ '
      ++i;
      std::size_t count = 0;
      while (i < n && s[i] != '\'') {
        if (s[i] == '\n') throw syntax_error{};
        i += (s[i] == '\\' && i + 1 < n) ? 2 : 1;
        ++count;
      }
      if (i >= n || count == 0) throw syntax_error{};
      ++i;
      kind = tk::chr;
    } else {
      kind = tk::punct;
      std::size_t len = 1;
      for (const char* p : puncts) {
        std::string_view pv(p);
        if (s.substr(i, pv.size()) == pv) { len = pv.size(); break; }
      }
      if (std::string_view("(){}[];,.@=<>!~?:+-*/&|^%").find(c) == std::string_view::npos)
        throw syntax_error{};
      // `>` is lexed alone (tree-sitter lexes `>>` only where a shift can follow; generics
      // close with single `>`); the expression parser glues adjacent `>` back into operators.
      i += len;
    }
    out.push_back(token{kind, st, i, std::move(pending)});
    pending.clear();
  }
  out.push_back(token{tk::eof, n, n, std::move(pending)});
  return out;
}

// ---- concrete syntax tree -------------------------------------------------------------------

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
bool expr_keyword(std::string_view w) {
  static const char* k[] = {"new",  "this", "super", "true",  "false",   "null",  "switch",
                            "boolean", "byte", "char", "short", "int", "long", "float",
                            "double", "void"};
  return std::any_of(std::begin(k), std::end(k), [&](const char* x) { return w == x; });
}
bool primitive(std::string_view w) {
  static const char* k[] = {"boolean", "byte", "char", "short", "int", "long", "float", "double"};
  return std::any_of(std::begin(k), std::end(k), [&](const char* x) { return w == x; });
}
bool statement_keyword(std::string_view w) {
  static const char* k[] = {"abstract", "assert", "break", "case", "catch", "class", "continue",
                            "default", "do", "else", "enum", "extends", "finally",
                            "for", "goto", "if", "implements", "import", "interface", "native",
                            "package", "private", "protected", "public", "return", "static",
                            "strictfp", "synchronized", "throw", "throws", "transient", "try",
                            "volatile", "while", "const", "instanceof"};
  return std::any_of(std::begin(k), std::end(k), [&](const char* x) { return w == x; });
}

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

  int program() {
    std::vector<int> kids;
    bool first = true, prev_missing = false;
    while (!at_eof()) {
      if (is(";")) { kids.push_back(leaf_tok()); continue; }
      std::size_t begin = toks_[p_].start;
      int st = statement(first, prev_missing, &prev_missing, begin);
      kids.push_back(st);
      first = false;
    }
    int root = make("program", kids, 0, s_.size());
    // The root holds every comment not taken by a deeper node (leading and trailing ones).
    auto& r = nodes_[root];
    std::vector<int> all;
    for (int k : r.kids) { attach_comments(nodes_[k].first_token, all); all.push_back(k); }
    attach_comments(static_cast<int>(toks_.size()) - 1, all);
    nodes_[root].kids = all;
    return root;
  }

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

  int leaf_tok(std::string type = {}) {
    const token& t = cur();
    node nd;
    nd.type = type.empty() ? std::string(text(t)) : std::move(type);
    nd.start = t.start;
    nd.end = t.end;
    nd.first_token = static_cast<int>(p_);
    nodes_.push_back(std::move(nd));
    ++p_;
    return static_cast<int>(nodes_.size()) - 1;
  }
  int leaf_text(std::string type, std::size_t from_tok, std::size_t to_tok) {  // several tokens
    node nd;
    nd.type = std::move(type);
    nd.start = toks_[from_tok].start;
    nd.end = toks_[to_tok].end;
    nd.first_token = static_cast<int>(from_tok);
    nodes_.push_back(std::move(nd));
    return static_cast<int>(nodes_.size()) - 1;
  }
  void attach_comments(int tok, std::vector<int>& into) {
    if (tok < 0 || toks_[tok].comments_taken) return;
    toks_[tok].comments_taken = true;
    for (auto [a, b] : toks_[tok].comments) {
      node c;
      c.type = s_.substr(a, 2) == "//" ? "line_comment" : "block_comment";
      c.start = a;
      c.end = b;
      nodes_.push_back(std::move(c));
      into.push_back(static_cast<int>(nodes_.size()) - 1);
    }
  }
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
  int missing_token(std::string type, std::size_t at = std::string::npos) {
    node nd;
    nd.type = std::move(type);
    nd.start = nd.end = at == std::string::npos ? toks_[p_ - 1].end : at;
    nodes_.push_back(std::move(nd));
    return static_cast<int>(nodes_.size()) - 1;
  }
  int missing_semicolon() {
    node nd;
    nd.type = ";";
    nd.start = nd.end = toks_[p_ - 1].end;
    nd.first_token = static_cast<int>(p_);  // comments before the next token come first
    nodes_.push_back(std::move(nd));
    return static_cast<int>(nodes_.size()) - 1;
  }

  // -- statements
  int statement(bool first, bool prev_missing, bool* missing_out, std::size_t begin) {
    depth_guard guard(depth_);
    if (missing_out) *missing_out = false;
    if (is("{")) return block();
    if (is(";")) return leaf_tok();
    if (is_word("return") || is_word("throw")) {
      std::vector<int> k{leaf_tok()};
      if (!is(";")) k.push_back(expression());
      expect(";");
      k.push_back(leaf_tok());
      return make(is_word("return") ? "return_statement" : "return_statement", k);
    }
    if (is_word("if")) {
      std::vector<int> k{leaf_tok()};
      expect("(");
      k.push_back(parenthesized());
      k.push_back(statement(false, false, nullptr, cur().start));
      if (is_word("else")) {
        k.push_back(leaf_tok());
        k.push_back(statement(false, false, nullptr, cur().start));
      }
      return make("if_statement", k);
    }
    if (cur().kind == tk::word && statement_keyword(text(cur()))) throw syntax_error{};
    std::size_t save = p_, nodes_save = nodes_.size();
    std::vector<int> decl;
    if (try_local_variable_declaration(decl)) {
      decl.push_back(end_statement(false, prev_missing, begin, missing_out, decl.back()));
      return make("local_variable_declaration", decl);
    }
    p_ = save;
    nodes_.resize(nodes_save);
    int e = expression();
    int semi = end_statement(first, prev_missing, begin, missing_out, e);
    return make("expression_statement", {e, semi});
  }

  // The `;` ending a statement, or tree-sitter's recovery when it is absent.
  int end_statement(bool first, bool prev_missing, std::size_t begin, bool* missing_out, int body) {
    if (is(";")) return leaf_tok();
    const node& b = nodes_[body];
    bool lone = b.kids.empty() && (b.type == "identifier" || b.type == "number");
    // A dotted name (`a.b`, `a.b.c`) without `;` reads as the start of a declaration's type
    // in tree-sitter and ends in an ERROR; so does a lone name or literal followed by more
    // tokens (`A B.c(...)`, `'c' f(...)`).
    if (dotted(body)) throw syntax_error{};
    if (!at_eof() && b.kids.empty() && b.type != "string_literal") throw syntax_error{};
    if (at_eof()) {
      // tree-sitter prefers an ERROR over a MISSING `;` when the ERROR is cheaper: a first
      // expression statement shorter than 6 bytes (`foo()`, `x = 1`, `a.b()`) is an ERROR,
      // `ab.c()` is not; declarations (`int x`) are not affected.
      // (The cost counts bytes plus 30 per line: `x\n=\n1` gets its MISSING `;`.)
      std::size_t end = toks_[p_ - 1].end;
      std::size_t rows = static_cast<std::size_t>(std::count(s_.begin() + begin, s_.begin() + end, '\n'));
      if (first && end - begin + 30 * rows < 6) throw syntax_error{};
      // After an earlier missing `;`, a lone identifier/number (`f(a=1) x`) is an ERROR.
      if (prev_missing && lone) throw syntax_error{};
    } else if (is("}") || is(")") || is("]") || is(",") || is(":") || is("=") || is(".") ||
               is("@") || is("?")) {
      throw syntax_error{};
    } else {
      if (prev_missing && lone) throw syntax_error{};
      if (is("(") && toks_[p_ + 1].kind == tk::word && is(")", 2)) {
        // `f(a=1) (x)`: tree-sitter reads `(x)` as lambda parameters and fails.
        throw syntax_error{};
      }
    }
    if (missing_out) *missing_out = true;
    return missing_semicolon();
  }

  bool dotted(int n) const {
    const node& nd = nodes_[n];
    if (nd.type != "field_access") return false;
    const node& obj = nodes_[nd.kids.front()];
    return obj.type == "identifier" || dotted(nd.kids.front());
  }

  int block() {
    std::vector<int> k{leaf_tok()};  // {
    bool prev_missing = false;
    while (!is("}")) {
      if (at_eof()) throw syntax_error{};
      bool m = false;
      k.push_back(statement(false, prev_missing, &m, cur().start));
      prev_missing = m;
    }
    k.push_back(leaf_tok());
    return make("block", k);
  }

  bool try_local_variable_declaration(std::vector<int>& k) {
    bool committed = false;
    try {
      while (is_word("final")) k.push_back(leaf_tok());
      if (!(cur().kind == tk::word)) return false;
      int t = type();
      k.push_back(t);
      if (cur().kind != tk::word || expr_keyword(text(cur()))) return false;
      if (is("(", 1)) return false;  // a method declaration, not supported
      while (true) {
        std::vector<int> d{leaf_tok("identifier")};
        while (is("[") && is("]", 1)) { d.push_back(leaf_tok()); d.push_back(leaf_tok()); }
        if (is("=")) {
          d.push_back(leaf_tok());
          committed = true;  // `Type name =` can only be a declaration
          d.push_back(is("{") ? array_initializer() : expression());
        }
        k.push_back(make("variable_declarator", d));
        if (!is(",")) break;
        k.push_back(leaf_tok());
        if (cur().kind != tk::word) throw syntax_error{};
      }
      // `hello world foo(a=1)`: tree-sitter ends the declaration with a MISSING `;`
      return is(";") || at_eof() || is("}") || cur().kind != tk::punct;
    } catch (const syntax_error&) {
      if (committed) throw;
      return false;
    }
  }

  // -- types: `int`, `a.b.C<D, ? extends E>[]`
  int type() {
    depth_guard guard(depth_);
    std::vector<int> k;
    if (cur().kind != tk::word) throw syntax_error{};
    if ((expr_keyword(text(cur())) && !primitive(text(cur())) && !is_word("void")) ||
        statement_keyword(text(cur())))
      throw syntax_error{};
    if (primitive(text(cur())) || is_word("void")) {
      k.push_back(leaf_tok(is_word("boolean") ? "boolean_type" : "integral_type"));
    } else {
      k.push_back(leaf_tok("type_identifier"));
      if (is("<")) k.push_back(type_arguments());
      while (is(".") && toks_[p_ + 1].kind == tk::word && !expr_keyword(text(toks_[p_ + 1])) &&
             text(toks_[p_ + 1]) != "class") {
        k.push_back(leaf_tok());
        k.push_back(leaf_tok("type_identifier"));
        if (is("<")) k.push_back(type_arguments());
      }
    }
    while (is("[") && is("]", 1)) { k.push_back(leaf_tok()); k.push_back(leaf_tok()); }
    return k.size() == 1 ? k[0] : make("generic_type", k);
  }
  int type_arguments() {
    std::vector<int> k{leaf_tok()};  // <
    while (!is(">")) {
      if (is("?")) {
        k.push_back(leaf_tok());
        if (is_word("extends") || is_word("super")) { k.push_back(leaf_tok()); k.push_back(type()); }
      } else {
        k.push_back(type());
      }
      if (is(",")) k.push_back(leaf_tok());
      else if (!is(">")) throw syntax_error{};
    }
    k.push_back(leaf_tok());
    return make("type_arguments", k);
  }

  // -- expressions
  int expression() {
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

  int try_lambda() {
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
  int lambda_rest(int params) {
    int arrow = leaf_tok();
    int body = is("{") ? block() : expression();
    return make("lambda_expression", {params, arrow, body});
  }

  int ternary() {
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
  int binop(std::size_t* ntok) const {
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
  int binary(int min_prec) {
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

  int unary() {
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
  bool at_assign_op() {
    static const char* ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<="};
    if (std::any_of(std::begin(ops), std::end(ops), [&](const char* o) { return is(o); })) return true;
    std::size_t gt = 0;
    while (is(">", gt) && adjacent(p_ + gt)) ++gt;
    return (gt == 2 || gt == 3) && is("=", gt) && adjacent(p_ + gt - 1);
  }
  int assign_tail(int lhs) {
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
  int postfix_ops(int e) {
    while (is("++") || is("--")) e = make("update_expression", {e, leaf_tok()});
    return e;
  }

  // `(int) x`, `(String) x`, `(Foo)(x)`: a cast when the parenthesized text is a type and what
  // follows can start an operand (for primitive types also `+`/`-`).
  int try_cast() {
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

  int parenthesized() {
    int open = leaf_tok();
    int e = expression();
    expect(")");
    return make("parenthesized_expression", {open, e, leaf_tok()});
  }

  int arguments() {
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

  int array_initializer() {
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
  int creation(std::vector<int> prefix) {
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
  int class_body() {
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

  int primary() {
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

  bool type_like(int e) const {  // may be read as a type for `.class` / `[].class`
    const node& n = nodes_[e];
    if (n.type == "identifier") return true;
    if (n.type == "field_access") return type_like(n.kids.front()) ;
    return false;
  }

  int suffixes(int e) {
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
        // identifier: `'a'.class` is a field_access, `"s".class()` a method_invocation.
        if (w == "class" && type_like(e)) {
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
};

bool full_match(std::string_view s, const char* pattern) {
  thread_local std::vector<std::pair<const char*, std::unique_ptr<RE2>>> cache;
  const RE2* re = nullptr;
  for (auto& [p, r] : cache) if (p == pattern) re = r.get();
  if (!re) re = cache.emplace_back(pattern, std::make_unique<RE2>(pattern)).second.get();
  return RE2::FullMatch(re2::StringPiece(s.data(), s.size()), *re);
}

// ---- BFCL's traversal ------------------------------------------------------------------------

class extractor {
 public:
  extractor(const parser& p, std::string_view src) : p_(p), src_(src) {
    // get_text() slices the Python str with tree-sitter's *byte* offsets; index code points.
    for (std::size_t i = 0; i < src.size(); ++i)
      if ((static_cast<unsigned char>(src[i]) & 0xC0) != 0x80) cp_.push_back(i);
    cp_.push_back(src.size());
  }

  // get_text(node): source_code[start_byte:end_byte] on a str (code point indices).
  std::string get_text(int n) const {
    const node& nd = p_.at(n);
    std::size_t count = cp_.size() - 1;
    std::size_t a = std::min(nd.start, count), b = std::min(nd.end, count);
    if (b <= a) return {};
    return std::string(src_.substr(cp_[a], cp_[b] - cp_[a]));
  }

  // traverse_node(node, nested)
  std::string traverse(int n, bool nested) const {
    if (n < 0) throw decode_error("'NoneType' object has no attribute 'type'");
    const node& nd = p_.at(n);
    if (nd.type == "string_literal" || nd.type == "character_literal")
      return nested ? get_text(n) : python_trim1(get_text(n));
    if (nd.type == "identifier" || nd.type == "class_literal" || nd.type == "type_identifier" ||
        nd.type == "method_invocation")
      return get_text(n);
    if (nd.type == "array_creation_expression")  // always "[]", whatever the dimensions
      return "new " + traverse(field(n, "type"), true) + "[]" + traverse(field(n, "value"), true);
    if (nd.type == "object_creation_expression") {  // the class body is dropped
      std::string out = "new " + traverse(field(n, "type"), true) + "(";
      bool firstarg = true;
      for (int c : p_.at(field(n, "arguments")).kids) {
        const std::string& t = p_.at(c).type;
        if (t == "," || t == "(" || t == ")") continue;
        if (!firstarg) out += ", ";
        out += traverse(c, true);
        firstarg = false;
      }
      return out + ")";
    }
    if (!nd.kids.empty()) {
      std::string out;
      for (int c : nd.kids) out += traverse(c, true);
      return out;
    }
    return get_text(n);
  }

  int field(int n, std::string_view name) const {
    for (auto& [f, k] : p_.at(n).fields) if (f == name) return k;
    return -1;
  }

  // traverse(node): the first method_invocation in pre-order.
  std::optional<py_value> find_call(int n) const {
    const node& nd = p_.at(n);
    if (nd.type == "method_invocation") {
      std::string name = get_text(field(n, "name"));
      if (int obj = field(n, "object"); obj >= 0) name = get_text(obj) + "." + name;
      return py_value::list({py_value::dict({{py_value::string(name), arguments(field(n, "arguments"))}})});
    }
    for (int c : nd.kids)
      if (auto r = find_call(c)) return r;
    return std::nullopt;
  }

  // extract_arguments: `name=value` pairs and bare identifiers / class literals (key None);
  // every other argument is skipped. A repeated key is an error.
  py_value arguments(int args) const {
    py_value::entries_t all;
    for (int c : p_.at(args).kids) {
      const node& nd = p_.at(c);
      py_value key, value;
      if (nd.type == "assignment_expression") {
        key = py_value::string(get_text(nd.kids[0]));
        value = py_value::string(traverse(nd.kids[2], false));
      } else if (nd.type == "identifier" || nd.type == "class_literal") {
        value = py_value::string(traverse(c, false));
      } else {
        continue;
      }
      all.emplace_back(std::move(key), std::move(value));
    }
    // Checked after every value is built, as BFCL does (a traversal error comes first).
    py_value out = py_value::dict();
    for (auto& [key, value] : all) {
      if (out.find(key))
        throw decode_error("Error: Multiple arguments with the same name are not supported.");
      out.set_item(key, value);
    }
    return out;
  }

 private:
  const parser& p_;
  std::string_view src_;
  std::vector<std::size_t> cp_;
};

}  // namespace

py_value parse_java_function_call(std::string_view source) {
  std::optional<parser> p;
  int root;
  try {
    p.emplace(source);
    root = p->program();
  } catch (const syntax_error&) {
    throw decode_error("Error parsing java the source code.");
  } catch (const too_deep&) {
    throw decode_error("Error parsing java the source code.");
  }
  extractor x(*p, source);
  if (auto r = x.find_call(root)) return *r;
  return py_value::dict();  // BFCL: `result if result else {}`
}

}  // namespace tooluse::eval::detail
