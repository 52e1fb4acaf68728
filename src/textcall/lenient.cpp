#include "textcall/lenient.hpp"

#include <charconv>
#include <cstdint>

#include "tooluse/text.hpp"

namespace tooluse::textcall::detail {
namespace {

constexpr int max_depth = 96;  // deeper nesting is not a tool call; keeps the stack bounded

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_start(char c) {
  // Bytes of multi-byte UTF-8 count as letters: Python 3 names may be non-ASCII (año).
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

// list_end skips space before a list's next item: incomplete at the end of the text, done past
// `close` (the list ended there), nothing when an item follows.
std::optional<scan_state> list_end(std::string_view s, std::size_t& pos, char close) {
  pos = skip_space(s, pos);
  if (pos >= s.size()) return scan_state::incomplete;
  if (s[pos] != close) return std::nullopt;
  ++pos;
  return scan_state::done;
}

// after_item reads what follows a list's item: a ',' (passed over) or `close` (left for
// list_end); anything else is invalid, the end of the text incomplete.
std::optional<scan_state> after_item(std::string_view s, std::size_t& pos, char close) {
  pos = skip_space(s, pos);
  if (pos >= s.size()) return scan_state::incomplete;
  if (s[pos] == ',') ++pos;
  else if (s[pos] != close) return scan_state::invalid;
  return std::nullopt;
}

class scanner {
 public:
  scanner(std::string_view s, bool python) : s_(s), python_(python) {}

  scan_state value(std::size_t& pos, json& out, int depth);
  scan_state string(std::size_t& pos, std::string& out);

 private:
  scan_state escape(std::size_t& pos, std::string& out);
  scan_state hex_digits(std::size_t pos, int count, std::uint32_t& cp) const;
  scan_state number(std::size_t& pos, json& out);
  scan_state word(std::size_t& pos, json& out);
  scan_state sequence(std::size_t& pos, json& out, char close, int depth);
  scan_state object(std::size_t& pos, json& out, int depth);
  scan_state key(std::size_t& pos, std::string& out);

  std::string_view s_;
  bool python_;
};

scan_state scanner::hex_digits(std::size_t pos, int count, std::uint32_t& cp) const {
  cp = 0;
  for (int i = 0; i < count; ++i) {
    if (pos + i >= s_.size()) return scan_state::incomplete;
    int h = hex_value(s_[pos + i]);
    if (h < 0) return scan_state::invalid;
    cp = cp * 16 + static_cast<std::uint32_t>(h);
  }
  return scan_state::done;
}

scan_state scanner::escape(std::size_t& pos, std::string& out) {
  // pos is just after the backslash.
  if (pos >= s_.size()) return scan_state::incomplete;
  char c = s_[pos++];
  switch (c) {
    case 'n': out += '\n'; return scan_state::done;
    case 't': out += '\t'; return scan_state::done;
    case 'r': out += '\r'; return scan_state::done;
    case 'b': out += '\b'; return scan_state::done;
    case 'f': out += '\f'; return scan_state::done;
    case '0': out += '\0'; return scan_state::done;
    case '\n': return scan_state::done;  // Python line continuation
    case 'x': {
      std::uint32_t cp = 0;
      if (auto st = hex_digits(pos, 2, cp); st != scan_state::done) return st;
      pos += 2;
      append_utf8(out, cp);
      return scan_state::done;
    }
    case 'u': {
      std::uint32_t cp = 0;
      if (auto st = hex_digits(pos, 4, cp); st != scan_state::done) return st;
      pos += 4;
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        // A high surrogate wants "\uDC00".."\uDFFF" next; anything else makes it U+FFFD.
        if (pos + 2 > s_.size()) return scan_state::incomplete;
        if (s_[pos] == '\\' && s_[pos + 1] == 'u') {
          std::uint32_t lo = 0;
          if (auto st = hex_digits(pos + 2, 4, lo); st == scan_state::incomplete) return st;
          if (lo >= 0xDC00 && lo <= 0xDFFF) {
            pos += 6;
            append_utf8(out, 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00));
            return scan_state::done;
          }
        }
        cp = 0xFFFD;
      } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        cp = 0xFFFD;
      }
      append_utf8(out, cp);
      return scan_state::done;
    }
    case '"': case '\'': case '\\': case '/':
      out += c;
      return scan_state::done;
    default:
      out += '\\';  // unknown escapes stay as written, as in Python
      out += c;
      return scan_state::done;
  }
}

scan_state scanner::string(std::size_t& pos, std::string& out) {
  char q = s_[pos];
  bool triple = false;
  if (python_) {
    if (s_.size() - pos == 2 && s_[pos + 1] == q) return scan_state::incomplete;  // "" or """?
    triple = s_.size() - pos >= 3 && s_[pos + 1] == q && s_[pos + 2] == q;
  }
  pos += triple ? 3 : 1;
  while (pos < s_.size()) {
    char c = s_[pos];
    if (c == '\\') {
      ++pos;
      if (auto st = escape(pos, out); st != scan_state::done) return st;
      continue;
    }
    if (c == q) {
      if (!triple) {
        ++pos;
        return scan_state::done;
      }
      if (pos + 3 > s_.size()) return scan_state::incomplete;
      if (s_[pos + 1] == q && s_[pos + 2] == q) {
        pos += 3;
        return scan_state::done;
      }
    }
    out += c;
    ++pos;
  }
  return scan_state::incomplete;
}

scan_state scanner::number(std::size_t& pos, json& out) {
  std::size_t start = pos;
  std::size_t i = pos;
  if (s_[i] == '-' || s_[i] == '+') ++i;
  bool digits = false;
  bool is_float = false;
  while (i < s_.size() && is_digit(s_[i])) ++i, digits = true;
  if (i < s_.size() && s_[i] == '.') {
    is_float = true;
    ++i;
    while (i < s_.size() && is_digit(s_[i])) ++i, digits = true;
  }
  if (digits && i < s_.size() && (s_[i] == 'e' || s_[i] == 'E')) {
    is_float = true;
    ++i;
    if (i < s_.size() && (s_[i] == '-' || s_[i] == '+')) ++i;
    bool exp_digits = false;
    while (i < s_.size() && is_digit(s_[i])) ++i, exp_digits = true;
    if (!exp_digits) return i >= s_.size() ? scan_state::incomplete : scan_state::invalid;
  }
  if (i >= s_.size()) return scan_state::incomplete;  // more digits may follow
  if (!digits) return scan_state::invalid;
  if (is_ident_char(s_[i])) return scan_state::invalid;
  std::size_t b = start + (s_[start] == '+' ? 1 : 0);
  const char* first = s_.data() + b;
  const char* last = s_.data() + i;
  if (!is_float) {
    std::int64_t v = 0;
    if (auto r = std::from_chars(first, last, v); r.ec == std::errc() && r.ptr == last) {
      out = v;
      pos = i;
      return scan_state::done;
    }
    std::uint64_t u = 0;
    if (auto r = std::from_chars(first, last, u); r.ec == std::errc() && r.ptr == last) {
      out = u;
      pos = i;
      return scan_state::done;
    }
  }
  double d = 0;
  auto r = std::from_chars(first, last, d);
  if (r.ptr != last) return scan_state::invalid;
  out = d;
  pos = i;
  return scan_state::done;
}

scan_state scanner::word(std::size_t& pos, json& out) {
  std::size_t i = pos;
  while (i < s_.size() && is_ident_char(s_[i])) ++i;
  std::string_view w = s_.substr(pos, i - pos);
  static constexpr std::string_view words[] = {"true", "false", "null", "True", "False", "None"};
  if (i >= s_.size()) {
    for (auto k : words)
      if (k.substr(0, w.size()) == w) return scan_state::incomplete;
    return scan_state::invalid;
  }
  if (w == "true" || w == "True") out = true;
  else if (w == "false" || w == "False") out = false;
  else if (w == "null" || w == "None") out = nullptr;
  else return scan_state::invalid;
  pos = i;
  return scan_state::done;
}

scan_state scanner::sequence(std::size_t& pos, json& out, char close, int depth) {
  out = json::array();
  ++pos;
  while (true) {
    if (auto end = list_end(s_, pos, close)) return *end;
    json item;
    if (auto st = value(pos, item, depth + 1); st != scan_state::done) return st;
    out.push_back(std::move(item));
    if (auto st = after_item(s_, pos, close)) return *st;
  }
}

scan_state scanner::key(std::size_t& pos, std::string& out) {
  char c = s_[pos];
  if (c == '"' || c == '\'') return string(pos, out);
  if (is_ident_start(c)) {  // bare keys, as in JavaScript object literals
    std::size_t i = pos;
    while (i < s_.size() && is_ident_char(s_[i])) ++i;
    if (i >= s_.size()) return scan_state::incomplete;
    out.assign(s_.substr(pos, i - pos));
    pos = i;
    return scan_state::done;
  }
  if (python_ && (is_digit(c) || c == '-')) {
    json k;
    if (auto st = number(pos, k); st != scan_state::done) return st;
    out = dump_json(k);
    return scan_state::done;
  }
  return scan_state::invalid;
}

scan_state scanner::object(std::size_t& pos, json& out, int depth) {
  out = json::object();
  ++pos;
  while (true) {
    if (auto end = list_end(s_, pos, '}')) return *end;
    std::string k;
    if (auto st = key(pos, k); st != scan_state::done) return st;
    pos = skip_space(s_, pos);
    if (pos >= s_.size()) return scan_state::incomplete;
    if (s_[pos] != ':') return scan_state::invalid;
    json v;
    ++pos;
    if (auto st = value(pos, v, depth + 1); st != scan_state::done) return st;
    out[k] = std::move(v);
    if (auto st = after_item(s_, pos, '}')) return *st;
  }
}

scan_state scanner::value(std::size_t& pos, json& out, int depth) {
  if (depth > max_depth) return scan_state::invalid;
  pos = skip_space(s_, pos);
  if (pos >= s_.size()) return scan_state::incomplete;
  char c = s_[pos];
  if (c == '{') return object(pos, out, depth);
  if (c == '[') return sequence(pos, out, ']', depth);
  if (c == '(' && python_) return sequence(pos, out, ')', depth);
  if (c == '"' || c == '\'') {
    std::string str;
    auto st = string(pos, str);
    if (st == scan_state::done) out = std::move(str);
    return st;
  }
  if (is_digit(c) || c == '-' || c == '+' || c == '.') return number(pos, out);
  if (is_ident_start(c)) return word(pos, out);
  return scan_state::invalid;
}

// skip_balanced moves past the ')' closing the '(' just before `pos`, honouring quotes.
scan_state skip_balanced(std::string_view s, std::size_t& pos) {
  int depth = 1;
  char quote = 0;
  for (; pos < s.size(); ++pos) {
    char c = s[pos];
    if (quote) {
      if (c == '\\') ++pos;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
      ++pos;
      return scan_state::done;
    }
  }
  return scan_state::incomplete;
}

// scan_arguments reads "a=1, b='x')" after the '(' of a call; pos ends past the ')'.
scan_state scan_arguments(std::string_view s, std::size_t& pos, py_call& call) {
  scanner sc(s, true);
  call.arguments = json::object();
  while (true) {
    if (auto end = list_end(s, pos, ')')) return *end;
    std::size_t i = pos;
    while (i < s.size() && is_ident_char(s[i])) ++i;
    std::size_t eq = skip_space(s, i);
    if (i > pos && is_ident_start(s[pos]) && eq >= s.size()) {
      return scan_state::incomplete;
    }
    json v;
    bool named = i > pos && is_ident_start(s[pos]) && s[eq] == '=';
    if (named && eq + 1 >= s.size()) return scan_state::incomplete;
    if (named && s[eq + 1] != '=') {
      std::string k(s.substr(pos, i - pos));
      pos = eq + 1;
      if (auto st = sc.value(pos, v, 1); st != scan_state::done) return st;
      call.arguments[k] = std::move(v);
    } else {
      if (auto st = sc.value(pos, v, 1); st != scan_state::done) return st;
      call.positional.push_back(std::move(v));
    }
    if (auto st = after_item(s, pos, ')')) return *st;
  }
}

// scan_one_call reads "name(args)" at pos. A call whose arguments do not parse is kept with
// null arguments once its closing parenthesis is found.
scan_state scan_one_call(std::string_view s, std::size_t& pos, py_call& call) {
  pos = skip_space(s, pos);
  if (pos >= s.size()) return scan_state::incomplete;
  if (!is_ident_start(s[pos])) return scan_state::invalid;
  std::size_t i = pos;
  while (i < s.size() && is_name_char(s[i])) ++i;
  std::size_t paren = skip_space(s, i);
  if (paren >= s.size()) return scan_state::incomplete;
  if (s[paren] != '(') return scan_state::invalid;
  call.name.assign(s.substr(pos, i - pos));
  std::size_t args_begin = paren + 1;
  std::size_t p = args_begin;
  auto st = scan_arguments(s, p, call);
  if (st == scan_state::invalid) {
    p = args_begin;
    st = skip_balanced(s, p);
    call.arguments = nullptr;
    call.positional.clear();
  }
  if (st != scan_state::done) return st;
  call.raw.assign(s.substr(args_begin, p - 1 - args_begin));
  pos = p;
  return scan_state::done;
}

}  // namespace

std::size_t skip_space(std::string_view s, std::size_t pos) {
  while (pos < s.size() && is_space(s[pos])) ++pos;
  return pos;
}

bool is_name_char(char c) { return is_ident_char(c) || c == '.' || c == '-'; }

value_scan scan_value(std::string_view s, std::size_t pos, bool python) {
  value_scan out;
  scanner sc(s, python);
  out.state = sc.value(pos, out.value, 0);
  out.end = pos;
  return out;
}

call_list_scan scan_call_list(std::string_view s, std::size_t pos, bool bracketed) {
  call_list_scan out;
  if (bracketed) {
    if (pos >= s.size() || s[pos] != '[') return out;
    ++pos;
  }
  while (true) {
    py_call call;
    out.state = scan_one_call(s, pos, call);
    if (out.state != scan_state::done) return out;
    out.calls.push_back(std::move(call));
    if (!bracketed) {
      out.end = pos;
      return out;
    }
    pos = skip_space(s, pos);
    if (pos < s.size() && s[pos] == ',') pos = skip_space(s, pos + 1);
    if (pos >= s.size()) {
      out.state = scan_state::incomplete;
      return out;
    }
    if (s[pos] == ']') {
      out.end = pos + 1;
      out.state = scan_state::done;
      return out;
    }
  }
}

std::string find_name_field(std::string_view text) {
  for (std::string_view key : {"\"name\"", "'name'", "\"tool_name\"", "'tool_name'"}) {
    std::size_t at = text.find(key);
    if (at == std::string_view::npos) continue;
    std::size_t p = skip_space(text, at + key.size());
    if (p >= text.size() || text[p] != ':') continue;
    p = skip_space(text, p + 1);
    if (p >= text.size() || (text[p] != '"' && text[p] != '\'')) continue;
    std::size_t close = text.find(text[p], p + 1);
    if (close == std::string_view::npos) continue;
    return std::string(text.substr(p + 1, close - p - 1));
  }
  return {};
}

}  // namespace tooluse::textcall::detail
