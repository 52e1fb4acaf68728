// java_type_converter: BFCL's java_type_converter.py (commit de8307b4), plus the Python
// str helpers (int, float, strip, split) both converters rely on.
//
// BFCL uses Python `re`; RE2 is used here with Python's meaning restored where it differs:
// `re.match` anchors only at the start, `$` also matches before one trailing "\n", `\s`
// is Unicode whitespace. (Python's `\d`/`\w` also match non-ASCII digits/letters; RE2's do not, a
// documented deviation that no recorded output exercises.)

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <memory>

#include <re2/re2.h>

#include "eval/java.hpp"
#include "eval/re_cache.hpp"

namespace tooluse::eval::detail {

namespace java_values {

// re.sub(r"[xX]$", "", s) for one letter class.
std::string strip_suffix_dollar(std::string_view s, std::string_view letters) {
  std::string out(s);
  if (!out.empty() && letters.find(out.back()) != std::string_view::npos) {
    out.pop_back();
  } else if (out.size() >= 2 && out.back() == '\n' &&
             letters.find(out[out.size() - 2]) != std::string_view::npos) {
    out.erase(out.size() - 2, 1);
  }
  return out;
}

// re.search(pattern, s) -> group 1, if it matched.
std::optional<std::string> search1(std::string_view s, const std::string& pattern) {
  std::string g;
  if (RE2::PartialMatch(sp(s), cached(pattern), &g)) return g;
  return std::nullopt;
}

// re.findall(pattern, s) for a pattern with `groups` groups.
std::vector<std::vector<std::string>> findall(std::string_view s, const std::string& pattern,
                                              int groups) {
  const RE2& re = cached(pattern);
  std::vector<std::vector<std::string>> out;
  std::vector<re2::StringPiece> m(groups + 1);
  std::size_t pos = 0;
  while (pos <= s.size() &&
         re.Match(sp(s), pos, s.size(), RE2::UNANCHORED, m.data(), groups + 1)) {
    std::vector<std::string> row;
    for (int i = 1; i <= groups; ++i) row.emplace_back(m[i].data() ? std::string(m[i]) : "");
    out.push_back(std::move(row));
    std::size_t end = static_cast<std::size_t>(m[0].data() - s.data()) + m[0].size();
    pos = m[0].empty() ? end + 1 : end;
  }
  return out;
}

std::string repr_str(std::string_view s) { return py_str_repr(s); }

const char* kDigits = R"(-?[0-9]+)";
const char* kFloat = R"(-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?[fF])";
const char* kDouble = R"(-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?)";
const char* kLong = R"(-?[0-9]+[lL])";

py_value int_or_raise(std::string_view s) {
  if (auto v = python_int(s)) return *v;
  throw decode_error("invalid literal for int() with base 10: " + repr_str(s));
}
py_value float_or_raise(std::string_view s) {
  if (auto v = python_float(s)) return py_value::floating(*v);
  throw decode_error("could not convert string to float: " + repr_str(s));
}

// parse_java_value: a value without type information.
py_value parse_java_value(const std::string& v) {
  if (v == "true") return py_value::boolean(true);
  if (v == "false") return py_value::boolean(false);
  if (!v.empty() && v.front() == '"' && v.back() == '"') return py_value::string(python_trim1(v));
  if (match_dollar(v, kLong)) return int_or_raise(python_trim1("x" + v));  // value_str[:-1]
  if (match_dollar(v, kFloat)) return float_or_raise(strip_suffix_dollar(v, "fF"));
  if (auto i = python_int(v)) return *i;
  if (auto f = python_float(v)) return py_value::floating(*f);
  return py_value::string(v);
}

bool is_str(const py_value& v) { return v.is_str(); }

py_value element(const std::string& e, std::optional<std::string_view> nested) {
  // parse_arraylist: char and String elements lose their first and last character.
  if (nested && (*nested == "char" || *nested == "String"))
    return py_value::string(python_trim1(e));
  if (nested) return java_type_converter(py_value::string(e), *nested);
  return parse_java_value(e);
}

py_value parse_arraylist(const std::string& s, std::optional<std::string_view> nested) {
  if (auto g = search1(s, ws(R"(new\s+ArrayList<\w*>\(Arrays\.asList\((.+?)\)\))"))) {
    py_value::items_t items;
    for (auto& e : split_comma(*g)) items.push_back(element(std::string(python_strip(e)), nested));
    return py_value::list(std::move(items));
  }
  if (auto g = search1(s, ws(R"((?s)new\s+ArrayList<\w*>\(\)\s*\{\{\s*(.+?)\s*\}\})"))) {
    py_value::items_t items;
    for (auto& row : findall(*g, R"(add\((.+?)\))", 1))
      items.push_back(element(std::string(python_strip(row[0])), nested));
    return py_value::list(std::move(items));
  }
  if (search1(s, ws(R"((new\s+ArrayList<\w*>\(\)))"))) return py_value::list();
  return py_value::string(s);  // default to string
}

py_value parse_array(const std::string& s, std::optional<std::string_view> nested) {
  auto g = search1(s, ws(R"(new\s+\w+\[\]\s*\{(.*?)\})"));
  if (!g) return py_value::string(s);
  py_value::items_t items;
  for (auto& x : split_comma(*g)) {
    std::string e(python_strip(x));
    if (e.empty()) continue;
    items.push_back(nested ? java_type_converter(py_value::string(e), *nested) : parse_java_value(e));
  }
  return py_value::list(std::move(items));
}

py_value parse_hashmap(const std::string& s) {
  if (auto g = search1(s, ws(R"((?s)new\s+HashMap<.*?>\s*\(\)\s*\{\s*\{?\s*(.*?)\s*\}?\s*\})"))) {
    py_value out = py_value::dict();
    if (!python_strip(*g).empty())
      for (auto& row : findall(*g, ws(R"re(put\("(.*?)",\s*(.*?)\))re"), 2))
        out.set_item(py_value::string(row[0]), parse_java_value(std::string(python_strip(row[1]))));
    return out;
  }
  if (search1(s, ws(R"((?s)(new\s+HashMap<.*?>\s*\(\)))"))) return py_value::dict();
  return py_value::string(s);  // default to string
}

}  // namespace java_values

py_value java_type_converter(const py_value& value, std::string_view t,
                             std::optional<std::string_view> nested) {
  using namespace java_values;
  require_known_type(t, {"byte", "short", "integer", "float", "double", "long", "boolean", "char",
                         "Array", "ArrayList", "Set", "HashMap", "Hashtable", "Queue", "Stack",
                         "String", "any"});
  if (t == "String" || t == "any") return py_value::string(value.str());
  if (t == "Set" || t == "Hashtable")  // sic: BFCL says "Set" for Hashtable too
    throw decode_error("Set conversion is not implemented");
  if (t == "Queue" || t == "Stack") throw decode_error(std::string(t) + " conversion is not implemented");
  if (t == "boolean") {
    if (value.is_str() && (value.as_str() == "true" || value.as_str() == "false"))
      return py_value::boolean(value.as_str() == "true");
    return py_value::string(value.str());
  }
  if (!is_str(value))  // re.match / re.search on a non-str
    throw decode_error("expected string or bytes-like object, got '" +
                       std::string(value.type_name()) + "'");
  const std::string& v = value.as_str();
  if (t == "byte" || t == "short" || t == "integer")
    return match_dollar(v, kDigits) ? int_or_raise(v) : py_value::string(v);
  if (t == "float")
    return match_dollar(v, kFloat) ? float_or_raise(strip_suffix_dollar(v, "fF")) : py_value::string(v);
  if (t == "double") return match_dollar(v, kDouble) ? float_or_raise(v) : py_value::string(v);
  if (t == "long")
    return match_dollar(v, kLong) ? int_or_raise(strip_suffix_dollar(v, "lL")) : py_value::string(v);
  if (t == "char") return py_value::string(v);  // BFCL's r"^\'.$\'" can never match
  if (t == "ArrayList") return parse_arraylist(v, nested);
  if (t == "Array") return parse_array(v, nested);
  return parse_hashmap(v);  // HashMap (nested type ignored, as in BFCL)
}

// ---- Python str -> number ---------------------------------------------------------------------

std::string_view python_strip(std::string_view s) {
  auto space_at = [&](std::size_t i, std::size_t* len) -> bool {
    unsigned char c = s[i];
    *len = 1;
    if (c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F)) return true;
    if (c < 0x80) return false;
    // Decode one UTF-8 code point and test Python's str.isspace().
    std::uint32_t cp = 0;
    std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (i + n > s.size() || n == 1) return false;
    cp = c & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    *len = n;
    return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) ||
           cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
  };
  std::size_t a = 0, len;
  while (a < s.size() && space_at(a, &len)) a += len;
  std::size_t b = s.size();
  while (b > a) {
    std::size_t k = b - 1;
    while (k > a && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80) --k;
    if (!space_at(k, &len) || k + len != b) break;
    b = k;
  }
  return s.substr(a, b - a);
}

std::vector<std::string> split_comma(std::string_view s) {
  std::vector<std::string> out;
  std::size_t a = 0;
  while (true) {
    auto b = s.find(',', a);
    out.emplace_back(s.substr(a, b == std::string_view::npos ? std::string_view::npos : b - a));
    if (b == std::string_view::npos) return out;
    a = b + 1;
  }
}

std::string python_trim1(std::string_view s) {
  std::vector<std::size_t> cps;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) cps.push_back(i);
  if (cps.size() <= 2) return {};
  return std::string(s.substr(cps[1], cps.back() - cps[1]));
}

std::optional<py_value> python_int(std::string_view s) {
  std::string_view t = python_strip(s);
  static const RE2& re = cached(R"([+-]?[0-9](_?[0-9])*)");
  if (!RE2::FullMatch(sp(t), re)) return std::nullopt;
  std::string digits;
  for (char c : t) if (c != '_' && c != '+') digits += c;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(digits.c_str(), &end, 10);
  if (errno == ERANGE) return py_value::floating(std::strtod(digits.c_str(), nullptr));
  return py_value::integer(v);
}

std::optional<double> python_float(std::string_view s) {
  std::string_view t = python_strip(s);
  static const RE2& num = cached(
      R"([+-]?(([0-9](_?[0-9])*)(\.([0-9](_?[0-9])*)?)?|\.[0-9](_?[0-9])*)([eE][+-]?[0-9](_?[0-9])*)?)");
  static const RE2& special = cached(R"((?i)[+-]?(inf|infinity|nan))");
  std::string clean;
  for (char c : t) if (c != '_') clean += c;
  if (RE2::FullMatch(sp(t), special)) {
    bool neg = t.front() == '-';
    if (clean.find_first_of("nN") != std::string::npos && clean.find_first_of("iI") == std::string::npos)
      return neg ? -std::nan("") : std::nan("");
    return neg ? -HUGE_VAL : HUGE_VAL;
  }
  if (!RE2::FullMatch(sp(t), num)) return std::nullopt;
  return std::strtod(clean.c_str(), nullptr);
}

}  // namespace tooluse::eval::detail
