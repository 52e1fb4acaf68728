// js_type_converter: BFCL's js_type_converter.py (commit de8307b4).
//
// BFCL uses Python `re`; RE2 is used here with Python's meaning restored where it differs
// (`re.match` anchors only at the start, `$` also matches before a final "\n", `\s` is
// Unicode whitespace). The dict pattern uses a lookahead, which RE2 lacks, so its findall is
// a small hand-written backtracking matcher (dict_pairs) with the same match order.

#include <mutex>
#include <memory>
#include <unordered_map>

#include <re2/re2.h>

#include "eval/java.hpp"  // python_int / python_float / python_strip / python_trim1
#include "eval/js.hpp"
#include "eval/re_cache.hpp"

namespace tooluse::eval::detail {
namespace js_values {

bool is_quoted(std::string_view v) {
  return !v.empty() && ((v.front() == '"' && v.back() == '"') || (v.front() == '\'' && v.back() == '\''));
}

// str.strip("'\"")
std::string_view strip_quotes(std::string_view s) {
  while (!s.empty() && (s.front() == '\'' || s.front() == '"')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == '\'' || s.back() == '"')) s.remove_suffix(1);
  return s;
}

py_value parse_js_value(std::string_view raw) {
  std::string v(python_strip(raw));
  if (v == "true") return py_value::boolean(true);
  if (v == "false") return py_value::boolean(false);
  if (is_quoted(v)) return py_value::string(python_trim1(v));
  if (auto i = python_int(v)) return *i;
  if (auto f = python_float(v)) return py_value::floating(*f);
  return py_value::string(v);
}

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }

// re.findall(r"([^:]+):\s*(.*?)(?:,\s*(?=[^,]+:)|$)", content), backtracking in Python's
// order: greedy `\s*` longest first, lazy `(.*?)` shortest first, `,` branch before `$`.
std::vector<std::pair<std::string, std::string>> dict_pairs(std::string_view s) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::size_t n = s.size();
  // (?=[^,]+:) at t: a `:` after t with no `,` from t up to it; precomputed right to left
  // (next `,` at or after i, next `:` after i) so the whole findall stays linear.
  std::vector<std::size_t> next_comma(n + 1, n), next_colon(n + 1, n);
  for (std::size_t i = n; i-- > 0;) {
    next_comma[i] = s[i] == ',' ? i : next_comma[i + 1];
    next_colon[i] = i + 1 < n ? (s[i + 1] == ':' ? i + 1 : next_colon[i + 1]) : n;
  }
  auto lookahead = [&](std::size_t t) {
    return t < n && next_colon[t] < n && next_colon[t] < next_comma[t];
  };
  std::size_t p = 0;
  while (p < n) {
    std::size_t q = s.find(':', p);
    if (q == std::string_view::npos) break;
    if (q == p) { ++p; continue; }  // `[^:]+` needs one character
    std::size_t w = q + 1;
    while (w < n && is_space(s[w])) ++w;
    bool found = false;
    std::size_t g2a = 0, g2b = 0, end = 0;
    for (std::size_t ws0 = w + 1; ws0-- > q + 1 && !found;) {  // \s* from longest to empty
      for (std::size_t r = ws0; !found; ++r) {
        if (r < n && s[r] == ',') {
          std::size_t t = r + 1, tmax = t;
          while (tmax < n && is_space(s[tmax])) ++tmax;
          for (std::size_t t2 = tmax + 1; t2-- > t;)
            if (lookahead(t2)) { found = true; end = t2; break; }
        }
        if (!found && (r == n || (r + 1 == n && s[r] == '\n'))) { found = true; end = r; }
        if (found) { g2a = ws0; g2b = r; break; }
        if (r >= n || s[r] == '\n') break;  // `.` stops at a newline
      }
    }
    if (!found) { ++p; continue; }
    out.emplace_back(std::string(s.substr(p, q - p)), std::string(s.substr(g2a, g2b - g2a)));
    p = end > p ? end : p + 1;
  }
  return out;
}

struct any_error {};  // BFCL's bare `except:` around the array parsing

py_value collection(const std::string& code_in, bool array, std::optional<std::string_view> nested);

py_value parse_array(const std::string& code, std::optional<std::string_view> nested) {
  static const std::string k2d = ws(
      R"((\[\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\]|\bnew\s+Array\(\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\)))");
  static const std::string k1d = R"(\[(.*?)\]|\bnew\s+Array\((.*?)\))";
  try {
    re2::StringPiece m[3];
    if (cached(k2d).Match(sp(code), 0, code.size(), RE2::ANCHOR_START, m, 1)) {
      std::string whole(m[0]);
      py_value::items_t rows;
      const RE2& inner = cached(R"(\[(.*?)\])");
      re2::StringPiece in(whole), g;
      bool first = true;
      while (RE2::FindAndConsume(&in, inner, &g)) {  // re.findall(r"\[(.*?)\]", ...)
        std::string row(python_strip(std::string_view(g.data(), g.size())));
        if (first && !row.empty() && row.front() == '[') row = row.substr(1);
        first = false;
        py_value::items_t items;
        for (auto& e : split_comma(row)) items.push_back(parse_js_value(python_strip(e)));
        rows.push_back(py_value::list(std::move(items)));
      }
      return py_value::list(std::move(rows));
    }
    if (cached(ws(k1d)).Match(sp(code), 0, code.size(), RE2::ANCHOR_START, m, 3)) {
      std::vector<std::string> elements;
      re2::StringPiece g = m[1].data() ? m[1] : m[2];
      std::string body(python_strip(std::string_view(g.data(), g.size())));
      if (g.data() && !body.empty()) elements = split_comma(body);
      py_value::items_t items;
      for (auto& e : elements) {
        std::string x(python_strip(e));
        if (nested) {
          bool q = !x.empty() && (x.front() == '\'' || x.front() == '"');
          items.push_back(q ? js_type_converter(py_value::string(x), *nested, "String")
                            : js_type_converter(py_value::string(x), *nested));
        } else {
          items.push_back(parse_js_value(x));
        }
      }
      return py_value::list(std::move(items));
    }
    return py_value::string(code);
  } catch (const decode_error&) {
    return py_value::string(code);  // `except: return code`
  }
}

py_value parse_dict(const std::string& code) {
  if (code == "{}") return py_value::dict();
  std::string content;
  if (!RE2::PartialMatch(sp(code), cached(R"(^\{(.*?)\})"), &content))
    return py_value::string(code);  // default to string
  py_value out = py_value::dict();
  for (auto& [k, v] : dict_pairs(content)) {
    std::string key(strip_quotes(python_strip(k)));
    std::string val(python_strip(v));
    py_value parsed;
    if (!val.empty() && val.front() == '[' && val.back() == ']') parsed = collection(val, true, std::nullopt);
    else if (!val.empty() && val.front() == '{' && val.back() == '}') parsed = collection(val, false, std::nullopt);
    else parsed = parse_js_value(strip_quotes(val));
    out.set_item(py_value::string(key), std::move(parsed));
  }
  return out;
}

py_value collection(const std::string& code_in, bool array, std::optional<std::string_view> nested) {
  std::string code(python_strip(code_in));
  return array ? parse_array(code, nested) : parse_dict(code);
}

}  // namespace js_values

py_value js_type_converter(const py_value& value, std::string_view t,
                           std::optional<std::string_view> nested) {
  using namespace js_values;
  require_known_type(t, {"String", "integer", "float", "Bigint", "Boolean", "dict", "array", "any"});
  if (t == "any") return py_value::string(value.str());
  if (t == "Boolean") {
    if (value.is_str() && (value.as_str() == "true" || value.as_str() == "false"))
      return py_value::boolean(value.as_str() == "true");
    return py_value::string(value.str());
  }
  if (!value.is_str()) {
    if (t == "String")
      throw decode_error("'" + std::string(value.type_name()) + "' object has no attribute 'startswith'");
    if (t == "dict" || t == "array")
      throw decode_error("'" + std::string(value.type_name()) + "' object has no attribute 'strip'");
    throw decode_error("expected string or bytes-like object, got '" + std::string(value.type_name()) + "'");
  }
  const std::string& v = value.as_str();
  if (t == "String") return py_value::string(is_quoted(v) ? python_trim1(v) : v);
  if (t == "integer") {
    if (!match_dollar(v, R"(-?[0-9]+)")) return py_value::string(v);
    if (auto i = python_int(v)) return *i;
    throw decode_error("invalid literal for int() with base 10: " + py_str_repr(v));
  }
  if (t == "float") {
    if (!match_dollar(v, R"(-?[0-9]+(\.[0-9]+)?)")) return py_value::string(v);
    if (auto f = python_float(v)) return py_value::floating(*f);
    throw decode_error("could not convert string to float: " + py_str_repr(v));
  }
  if (t == "Bigint") {
    if (!match_dollar(v, R"(-?[0-9]+n)")) return py_value::string(v);
    std::string cut = python_trim1("x" + v);  // value[:-1]
    if (auto i = python_int(cut)) return *i;
    throw decode_error("invalid literal for int() with base 10: " + py_str_repr(cut));
  }
  return collection(v, t == "array", nested);
}

}  // namespace tooluse::eval::detail
