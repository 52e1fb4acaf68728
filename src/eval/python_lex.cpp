#include "eval/python_lex.hpp"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "eval/decode_error.hpp"
#include "tooluse/text.hpp"

namespace tooluse::eval::detail {
namespace {

[[noreturn]] void syntax(const std::string& what, int line) {
  throw decode_error(what + " (<unknown>, line " + std::to_string(line) + ")");
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ascii_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

/// Decodes the UTF-8 code point at `s[i]`; `len` gets its length (1 for a stray byte).
char32_t code_point(std::string_view s, std::size_t i, std::size_t& len) {
  auto c = static_cast<unsigned char>(s[i]);
  int n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  if (i + static_cast<std::size_t>(n) > s.size()) n = 1;
  char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  len = static_cast<std::size_t>(n);
  return cp;
}

/// Letters of the common scripts may start or continue a Python identifier; punctuation,
/// symbols and spaces outside ASCII may not (CPython: "invalid character '“' (U+201C)").
bool is_identifier_code_point(char32_t cp) {
  if (cp == 0xD7 || cp == 0xF7) return false;
  return (cp >= 0xAA && cp <= 0x2FF && cp != 0xAB && cp != 0xBB && !(cp >= 0xB0 && cp <= 0xBF && cp != 0xB5 && cp != 0xBA)) ||
         (cp >= 0x370 && cp <= 0x1FFF) || (cp >= 0x3040 && cp <= 0x30FF) ||
         (cp >= 0x3400 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFF21 && cp <= 0xFF3A) ||
         (cp >= 0xFF41 && cp <= 0xFF5A) || cp >= 0x10000;
}

const std::array<std::string_view, 22> three_or_two = {
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "==", "!=", "<=", ">=", "**", "//",
    "<<",  ">>",  "+=",  "-=",  "*=",  "/=", "%=", "&=", "|="};

/// The escapes of a non-raw literal, as CPython decodes them (unknown escapes stay as written).
std::string unescape(std::string_view body, bool bytes, int line) {
  std::string out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) {
      out += c;
      continue;
    }
    char e = body[++i];
    switch (e) {
      case '\n': break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x': case 'u': case 'U': {
        if (bytes && e != 'x') {
          out += '\\';
          out += e;
          break;
        }
        std::size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        char32_t cp = 0;
        for (std::size_t k = 0; k < n; ++k) {
          int h = i + 1 + k < body.size() ? hex_value(body[i + 1 + k]) : -1;
          if (h < 0) syntax("(unicode error) truncated \\" + std::string(1, e) + " escape", line);
          cp = cp * 16 + static_cast<char32_t>(h);
        }
        i += n;
        if (bytes) out += static_cast<char>(cp);
        else append_utf8(out, cp);
        break;
      }
      case 'N': {
        auto close = body.find('}', i);
        if (bytes || i + 1 >= body.size() || body[i + 1] != '{' || close == std::string_view::npos) {
          if (bytes) { out += "\\N"; break; }
          syntax("(unicode error) malformed \\N character escape", line);
        }
        out += '?';  // the character's name is not looked up; no BFCL answer depends on one
        i = close;
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          int v = e - '0';
          for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k)
            v = v * 8 + (body[++i] - '0');
          if (bytes) out += static_cast<char>(v & 0xFF);
          else append_utf8(out, static_cast<char32_t>(v));
        } else {
          out += '\\';
          out += e;
        }
    }
  }
  return out;
}

}  // namespace

bool is_python_keyword(std::string_view w) {
  static const std::array<std::string_view, 35> words = {
      "False", "None",   "True",    "and",      "as",     "assert", "async", "await", "break",
      "class", "continue", "def",   "del",      "elif",   "else",   "except", "finally", "for",
      "from",  "global", "if",      "import",   "in",     "is",     "lambda", "nonlocal", "not",
      "or",    "pass",   "raise",   "return",   "try",    "while",  "with",  "yield"};
  for (auto k : words)
    if (k == w) return true;
  return false;
}

std::vector<token> tokenize_python(std::string_view s) {
  std::vector<token> out;
  std::vector<char> brackets;
  int line = 1;
  std::size_t i = 0;
  bool line_start = true;  // at the start of a logical line, outside brackets
  // push_word ends token `t`, a name or a number, of `kind` at `j`, where the scan goes on.
  auto push_word = [&](token& t, tok kind, std::size_t j) {
    t.kind = kind;
    t.text = std::string(s.substr(i, j - i));
    i = j;
    t.end = i;
    out.push_back(std::move(t));
  };
  while (true) {
    if (line_start && brackets.empty()) {
      std::size_t j = i;
      while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f')) ++j;
      bool blank = j < s.size() && (s[j] == '\n' || s[j] == '\r' || s[j] == '#');
      if (j > i && !blank) {
        // CPython: content (or the end of a last line without a newline) after an indent.
        if (j < s.size() || !out.empty()) syntax("unexpected indent", line);
      }
      i = j;
      if (blank) {
        while (i < s.size() && s[i] != '\n') ++i;
        if (i < s.size()) { ++i; ++line; }
        continue;
      }
      line_start = false;
    }
    if (i >= s.size()) break;
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r') { ++i; continue; }
    if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '\\') {
      std::size_t j = i + 1;
      if (j < s.size() && s[j] == '\r') ++j;
      if (j < s.size() && s[j] == '\n') { i = j + 1; ++line; continue; }
      if (j >= s.size()) syntax("unexpected EOF while parsing", line);
      syntax("unexpected character after line continuation character", line);
    }
    if (c == '\n') {
      ++i;
      if (brackets.empty()) {
        if (!out.empty() && out.back().kind != tok::newline) out.push_back({tok::newline, "\n", {}, false, false, false, i - 1, i, line});
        line_start = true;
      }
      ++line;
      continue;
    }
    token t;
    t.begin = i;
    t.line = line;
    // Strings, with an optional prefix.
    std::size_t p = i;
    while (p < s.size() && p - i < 2 && std::string_view("rRbBuUfF").find(s[p]) != std::string_view::npos) ++p;
    if (p < s.size() && (s[p] == '\'' || s[p] == '"')) {
      std::string prefix(s.substr(i, p - i));
      bool raw = false, bytes = false, fstr = false, uni = false;
      for (char pc : prefix) {
        char l = static_cast<char>(pc | 0x20);
        raw |= l == 'r';
        bytes |= l == 'b';
        fstr |= l == 'f';
        uni |= l == 'u';
      }
      bool ok_prefix = !(bytes && fstr) && !(uni && prefix.size() > 1) &&
                       !(prefix.size() == 2 && prefix[0] == prefix[1]);
      if (ok_prefix) {
        char q = s[p];
        bool triple = s.substr(p, 3) == std::string(3, q);
        std::size_t body_start = p + (triple ? 3 : 1);
        std::size_t j = body_start;
        int start_line = line;
        while (true) {
          if (j >= s.size()) {
            syntax(triple ? "unterminated triple-quoted string literal (detected at line " + std::to_string(line) + ")"
                          : "unterminated string literal (detected at line " + std::to_string(line) + ")", start_line);
          }
          char d = s[j];
          if (d == '\\') {
            if (j + 1 < s.size() && s[j + 1] == '\n') ++line;
            j += 2;
            continue;
          }
          if (d == '\n') {
            if (!triple) syntax("unterminated string literal (detected at line " + std::to_string(line) + ")", line);
            ++line;
          }
          if (d == q && (!triple || s.substr(j, 3) == std::string(3, q))) break;
          ++j;
        }
        std::string_view body = s.substr(body_start, j - body_start);
        i = j + (triple ? 3 : 1);
        t.kind = tok::string;
        t.text = std::string(s.substr(t.begin, i - t.begin));
        t.is_bytes = bytes;
        t.is_fstring = fstr;
        t.value = py_value::string(raw ? std::string(body) : unescape(body, bytes, start_line));
        t.end = i;
        out.push_back(std::move(t));
        continue;
      }
    }
    // Names (ASCII and the letters of other scripts).
    std::size_t cl = 1;
    auto lead = static_cast<unsigned char>(c);
    if (is_ascii_start(c) || (lead >= 0x80 && is_identifier_code_point(code_point(s, i, cl)))) {
      std::size_t j = i;
      while (j < s.size()) {
        auto b = static_cast<unsigned char>(s[j]);
        if (is_ascii_start(s[j]) || is_digit(s[j])) { ++j; continue; }
        std::size_t n = 1;
        if (b >= 0x80 && is_identifier_code_point(code_point(s, j, n))) { j += n; continue; }
        break;
      }
      push_word(t, tok::name, j);
      continue;
    }
    if (lead >= 0x80) {
      std::size_t n = 1;
      char32_t cp = code_point(s, i, n);
      char buf[16];
      std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
      syntax("invalid character '" + std::string(s.substr(i, n)) + "' (" + buf + ")", line);
    }
    // Numbers.
    if (is_digit(c) || (c == '.' && i + 1 < s.size() && is_digit(s[i + 1]))) {
      std::size_t j = i;
      auto digits = [&](auto pred) {
        std::size_t start = j;
        while (j < s.size() && (pred(s[j]) || (s[j] == '_' && j + 1 < s.size() && pred(s[j + 1]) && j > start))) ++j;
        return j > start;
      };
      bool is_float = false;
      std::int64_t ival = 0;
      bool overflow = false;
      if (c == '0' && i + 1 < s.size() && std::string_view("xXoObB").find(s[i + 1]) != std::string_view::npos) {
        char base_c = static_cast<char>(s[i + 1] | 0x20);
        int base = base_c == 'x' ? 16 : base_c == 'o' ? 8 : 2;
        j = i + 2;
        if (j < s.size() && s[j] == '_') ++j;
        std::size_t start = j;
        if (!digits([&](char d) { int v = hex_value(d); return v >= 0 && v < base; })) syntax("invalid " + std::string(base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary") + " literal", line);
        for (std::size_t k = start; k < j; ++k) {
          if (s[k] == '_') continue;
          if (ival > (std::numeric_limits<std::int64_t>::max() - 15) / base) overflow = true;
          ival = ival * base + hex_value(s[k]);
        }
      } else {
        digits(is_digit);
        std::string_view int_part = s.substr(i, j - i);
        if (j < s.size() && s[j] == '.') {
          is_float = true;
          ++j;
          digits(is_digit);
        }
        if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
          std::size_t k = j + 1;
          if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
          if (k < s.size() && is_digit(s[k])) {
            j = k;
            digits(is_digit);
            is_float = true;
          }
        }
        if (j < s.size() && (s[j] == 'j' || s[j] == 'J')) {
          t.is_imag = true;
          is_float = true;
          ++j;
        }
        if (!is_float && int_part.size() > 1 && int_part[0] == '0' &&
            int_part.find_first_not_of("0_") != std::string_view::npos)
          syntax("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers", line);
        std::string clean;
        for (std::size_t k = i; k < j; ++k)
          if (s[k] != '_' && s[k] != 'j' && s[k] != 'J') clean += s[k];
        if (is_float) {
          t.value = py_value::floating(std::strtod(clean.c_str(), nullptr));
        } else {
          errno = 0;
          ival = std::strtoll(clean.c_str(), nullptr, 10);
          overflow = errno == ERANGE;
          if (overflow) t.value = py_value::floating(std::strtod(clean.c_str(), nullptr));
        }
      }
      if (!is_float && !overflow) t.value = py_value::integer(ival);
      if (j < s.size() && (is_ascii_start(s[j]) || is_digit(s[j])))
        syntax("invalid decimal literal", line);
      push_word(t, tok::number, j);
      continue;
    }
    // Operators and brackets.
    t.kind = tok::op;
    std::string_view rest = s.substr(i);
    for (auto o : three_or_two) {
      if (rest.substr(0, o.size()) == o) {
        t.text = std::string(o);
        break;
      }
    }
    if (t.text.empty()) {
      if (std::string_view("+-*/%@&|^~<>()[]{},:.;=").find(c) == std::string_view::npos)
        syntax("invalid syntax", line);
      t.text = std::string(1, c);
      if (c == '(' || c == '[' || c == '{') {
        brackets.push_back(c);
        if (brackets.size() > 200) syntax("too many nested parentheses", line);
      }
      if (c == ')' || c == ']' || c == '}') {
        char open = c == ')' ? '(' : c == ']' ? '[' : '{';
        if (brackets.empty()) syntax("unmatched '" + std::string(1, c) + "'", line);
        if (brackets.back() != open)
          syntax("closing parenthesis '" + std::string(1, c) + "' does not match opening parenthesis '" + std::string(1, brackets.back()) + "'", line);
        brackets.pop_back();
      }
    }
    i += t.text.size();
    t.end = i;
    out.push_back(std::move(t));
  }
  if (!brackets.empty()) syntax("'" + std::string(1, brackets.back()) + "' was never closed", line);
  out.push_back({tok::end, "", {}, false, false, false, s.size(), s.size(), line});
  return out;
}

}  // namespace tooluse::eval::detail
