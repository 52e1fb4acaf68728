// write_compact: dump_json's compact text without nlohmann's serializer, whose setup (an output
// adapter on the heap, the locale's separators, a 512-byte buffer) cost more than writing a
// small reply. The text is byte for byte nlohmann's dump(-1, ' ', false, replace): strings
// escaped as its serializer does with ensure_ascii off, integers in decimal. What it does not
// write itself (a float, a string that is not valid UTF-8, binary) it leaves to nlohmann
// (design/json-parse.md, "Writing JSON").
#include <charconv>
#include <string_view>
#include <simdjson.h>

#include "core/json_dump.hpp"

namespace tooluse::detail {
namespace {

bool write_string(const std::string& s, std::string& out) {
  bool ascii = true;
  for (unsigned char c : s) ascii &= c < 0x80;
  if (!ascii && !simdjson::validate_utf8(s.data(), s.size())) return false;  // nlohmann replaces
  out += '"';
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s, run, i - run);
    run = i + 1;
    // the bytes with a short escape, then each one's letter: \" \\ \b \t \n \f \r
    static constexpr std::string_view named = "\"\\\b\t\n\f\r", letter = "\"\\btnfr";
    if (auto at = named.find(static_cast<char>(c)); at != std::string_view::npos) {
      out += '\\';
      out += letter[at];
      continue;
    }
    static constexpr char hex[] = "0123456789abcdef";
    char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};
    out.append(u, sizeof u);
  }
  out.append(s, run, s.size() - run);
  out += '"';
  return true;
}

template <class I>
void write_integer(I v, std::string& out) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

}  // namespace

bool write_compact(const json& v, std::string& out) {
  switch (v.type()) {
    case json::value_t::null:
      out += "null";
      return true;
    case json::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      return true;
    case json::value_t::number_integer:
      write_integer(v.get<json::number_integer_t>(), out);
      return true;
    case json::value_t::number_unsigned:
      write_integer(v.get<json::number_unsigned_t>(), out);
      return true;
    case json::value_t::number_float:
      out += v.dump();  // nlohmann's shortest round-trip digits, its exponent format
      return true;
    case json::value_t::string:
      return write_string(v.get_ref<const std::string&>(), out);
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v.get_ref<const json::array_t&>()) {
        if (!first) out += ',';
        first = false;
        if (!write_compact(e, out)) return false;
      }
      out += ']';
      return true;
    }
    case json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : v.get_ref<const json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        if (!write_string(key, out)) return false;
        out += ':';
        if (!write_compact(value, out)) return false;
      }
      out += '}';
      return true;
    }
    case json::value_t::binary:
    case json::value_t::discarded:
      return false;
  }
  return false;
}

}  // namespace tooluse::detail
