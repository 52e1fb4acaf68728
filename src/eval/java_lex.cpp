// tree-sitter-java 0.21.0's lexer and keyword sets, as parse_java_function_call needs them.

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include <re2/re2.h>

#include "eval/java_cst.hpp"

namespace tooluse::eval::detail::java_cst {

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

bool full_match(std::string_view s, const char* pattern) {
  thread_local std::vector<std::pair<const char*, std::unique_ptr<RE2>>> cache;
  const RE2* re = nullptr;
  for (auto& [p, r] : cache) if (p == pattern) re = r.get();
  if (!re) re = cache.emplace_back(pattern, std::make_unique<RE2>(pattern)).second.get();
  return RE2::FullMatch(re2::StringPiece(s.data(), s.size()), *re);
}

}  // namespace tooluse::eval::detail::java_cst
