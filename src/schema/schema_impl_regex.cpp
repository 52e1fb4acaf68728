// ECMA-262 regular expressions (as JSON Schema's "pattern" uses them, with Unicode semantics)
// translated to RE2 syntax. RE2 runs in linear time, so a schema cannot make validation
// exponential (no ReDoS); the price is that lookaround and backreferences are rejected when
// the schema is compiled.
#include <re2/re2.h>

#include <cctype>
#include <cstdio>

#include "schema/schema_impl.hpp"

namespace tooluse::schema::detail {
namespace {

// ECMA-262 WhiteSpace and LineTerminator code points (\s), as class ranges.
constexpr std::string_view k_space_ranges =
    "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}"
    "\\x{205F}\\x{3000}\\x{FEFF}";
// Their complement (\S), for use inside a bracket class.
constexpr std::string_view k_non_space_ranges =
    "\\x{0}-\\x{8}\\x{E}-\\x{1F}\\x{21}-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}"
    "\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}"
    "\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}";

std::string hex_escape(unsigned long cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\x{%lX}", cp);
  return buf;
}

// Maps an ECMA-262 Unicode property name (long or short) to RE2's name.
std::string property_name(std::string_view name) {
  if (auto eq = name.find('='); eq != std::string_view::npos) name = name.substr(eq + 1);
  static const std::pair<std::string_view, std::string_view> k_names[] = {
      {"Letter", "L"},          {"Lowercase_Letter", "Ll"}, {"Uppercase_Letter", "Lu"},
      {"Titlecase_Letter", "Lt"}, {"Modifier_Letter", "Lm"}, {"Other_Letter", "Lo"},
      {"Mark", "M"},            {"Number", "N"},            {"Decimal_Number", "Nd"},
      {"digit", "Nd"},          {"Letter_Number", "Nl"},    {"Other_Number", "No"},
      {"Punctuation", "P"},     {"punct", "P"},             {"Symbol", "S"},
      {"Math_Symbol", "Sm"},    {"Currency_Symbol", "Sc"},  {"Separator", "Z"},
      {"Space_Separator", "Zs"}, {"Other", "C"},            {"Control", "Cc"},
      {"cntrl", "Cc"},          {"Format", "Cf"},           {"Private_Use", "Co"},
  };
  for (const auto& [ecma, re2_name] : k_names)
    if (name == ecma) return std::string(re2_name);
  return std::string(name);
}

struct translator {
  std::string_view in;
  bool syntax_only = false;  // accept what ECMA-262 allows but RE2 cannot run
  std::size_t i = 0;
  int open_groups = 0;
  std::string out;
  std::string error;

  bool fail(std::string message) {
    if (error.empty()) error = std::move(message);
    return false;
  }

  bool read_hex(std::size_t digits, unsigned long& cp) {
    if (i + digits > in.size()) return false;
    cp = 0;
    for (std::size_t k = 0; k < digits; ++k) {
      char c = in[i + k];
      if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
      cp = cp * 16 + static_cast<unsigned long>(std::isdigit(static_cast<unsigned char>(c))
                                                    ? c - '0'
                                                    : std::tolower(c) - 'a' + 10);
    }
    i += digits;
    return true;
  }

  // \u escapes: \uHHHH, a surrogate pair \uHHHH\uHHHH, or \u{H...}.
  bool unicode_escape(unsigned long& cp) {
    if (i < in.size() && in[i] == '{') {
      auto close = in.find('}', i);
      if (close == std::string_view::npos || close == i + 1 || close - i > 7)
        return fail("malformed \\u{...} escape");
      ++i;
      if (!read_hex(close - i, cp) || cp > 0x10FFFF) return fail("malformed \\u{...} escape");
      ++i;
      return true;
    }
    if (!read_hex(4, cp)) return fail("malformed \\u escape (expected 4 hex digits)");
    if (cp >= 0xD800 && cp <= 0xDBFF && in.substr(i, 2) == "\\u") {
      std::size_t save = i;
      i += 2;
      unsigned long low = 0;
      if (read_hex(4, low) && low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      } else {
        i = save;
      }
    }
    return true;
  }

  // Translates the escape after a backslash; `in_class` changes \b, \s and \S.
  bool escape(bool in_class) {
    if (i >= in.size()) return fail("the pattern ends with a lone backslash");
    char c = in[i++];
    unsigned long cp = 0;
    switch (c) {
      case 'd': case 'D': case 'w': case 'W': case 't': case 'n': case 'r': case 'f': case 'v':
        out += '\\';
        out += c;
        return true;
      case 'b': case 'B':
        if (in_class) {
          if (c == 'B') return fail("\\B is not allowed in a character class");
          out += "\\x{8}";
        } else {
          out += '\\';
          out += c;
        }
        return true;
      case 's':
        out += in_class ? std::string(k_space_ranges) : "[" + std::string(k_space_ranges) + "]";
        return true;
      case 'S':
        out += in_class ? std::string(k_non_space_ranges)
                        : "[^" + std::string(k_space_ranges) + "]";
        return true;
      case '0':
        if (i < in.size() && std::isdigit(static_cast<unsigned char>(in[i])))
          return fail("octal escapes are not allowed");
        out += "\\x{0}";
        return true;
      case 'c':
        if (i < in.size() && std::isalpha(static_cast<unsigned char>(in[i]))) {
          out += hex_escape(static_cast<unsigned long>(in[i++]) % 32);
          return true;
        }
        return fail("\\c must be followed by a letter");
      case 'x':
        if (!read_hex(2, cp)) return fail("malformed \\x escape (expected 2 hex digits)");
        out += hex_escape(cp);
        return true;
      case 'u':
        if (!unicode_escape(cp)) return false;
        out += hex_escape(cp);
        return true;
      case 'p': case 'P': {
        auto close = in.find('}', i);
        if (i >= in.size() || in[i] != '{' || close == std::string_view::npos)
          return fail("malformed \\p{...} escape");
        out += '\\';
        out += c;
        out += "{" + property_name(in.substr(i + 1, close - i - 1)) + "}";
        i = close + 1;
        return true;
      }
      case 'k':
        if (syntax_only) {
          out += "k";
          return true;
        }
        return fail("named backreferences (\\k<...>) are not supported: RE2 has no backtracking");
      default:
        break;
    }
    if (c >= '1' && c <= '9' && syntax_only) return true;
    if (c >= '1' && c <= '9')
      return fail("backreferences (\\" + std::string(1, c) +
                  ") are not supported: RE2 has no backtracking");
    if (std::isalnum(static_cast<unsigned char>(c)))
      return fail("\\" + std::string(1, c) + " is not a valid escape");
    if (static_cast<unsigned char>(c) >= 0x80) {
      out += c;  // first byte of a UTF-8 sequence: identity escape
      return true;
    }
    out += '\\';
    out += c;
    return true;
  }

  bool char_class() {
    // in[i-1] == '['
    bool negated = i < in.size() && in[i] == '^';
    if (negated) ++i;
    if (i < in.size() && in[i] == ']') {
      ++i;
      out += negated ? "[\\x{0}-\\x{10FFFF}]" : "[^\\x{0}-\\x{10FFFF}]";
      return true;
    }
    out += negated ? "[^" : "[";
    while (i < in.size() && in[i] != ']') {
      char c = in[i++];
      if (c == '\\') {
        if (!escape(true)) return false;
      } else if (c == '[') {
        out += "\\[";
      } else {
        out += c;
      }
    }
    if (i >= in.size()) return fail("unterminated character class");
    ++i;
    out += ']';
    return true;
  }

  bool group() {
    // in[i-1] == '('
    ++open_groups;
    if (i >= in.size() || in[i] != '?') {
      out += '(';
      return true;
    }
    std::string_view rest = in.substr(i);
    if (rest.rfind("?:", 0) == 0) {
      out += "(?:";
      i += 2;
      return true;
    }
    if (rest.rfind("?=", 0) == 0 || rest.rfind("?!", 0) == 0 || rest.rfind("?<=", 0) == 0 ||
        rest.rfind("?<!", 0) == 0) {
      if (syntax_only) {
        i += rest[1] == '<' ? 3 : 2;
        out += "(?:";
        return true;
      }
      return fail("lookahead and lookbehind are not supported: RE2 runs in linear time");
    }
    if (rest.rfind("?<", 0) == 0) {
      out += "(?P<";
      i += 2;
      return true;
    }
    return fail("unsupported group syntax \"(" + std::string(rest.substr(0, 2)) + "\"");
  }

  bool run() {
    while (i < in.size()) {
      char c = in[i++];
      bool ok = true;
      switch (c) {
        case '\\': ok = escape(false); break;
        case '[': ok = char_class(); break;
        case '(': ok = group(); break;
        case ')':
          if (--open_groups < 0) return fail("unmatched \")\"");
          out += c;
          break;
        case '.': out += "[^\\n\\r\\x{2028}\\x{2029}]"; break;
        default: out += c; break;
      }
      if (!ok) return false;
    }
    if (open_groups != 0) return fail("unclosed \"(\"");
    return true;
  }
};

}  // namespace

result<std::string> translate_regex(std::string_view ecma) {
  translator t{.in = ecma};
  if (!t.run())
    return fail(errc::schema_error, "pattern " + short_json(json(std::string(ecma))) + ": " +
                                        t.error);
  return std::move(t.out);
}

bool is_ecma_regex(std::string_view ecma) {
  translator t{.in = ecma, .syntax_only = true};
  return t.run();
}

result<compiled_regex> compile_regex(std::string_view ecma) {
  auto translated = translate_regex(ecma);
  if (!translated) return fail(translated.error());
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingUTF8);
  options.set_log_errors(false);
  options.set_never_capture(true);
  options.set_max_mem(8 << 20);
  auto re = std::make_shared<const RE2>(*translated, options);
  if (!re->ok())
    return fail(errc::schema_error, "pattern " + short_json(json(std::string(ecma))) +
                                        " is not a valid regular expression: " + re->error());
  return compiled_regex{.source = std::string(ecma), .re = std::move(re)};
}

bool compiled_regex::search(std::string_view text) const {
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re);
}

}  // namespace tooluse::schema::detail
