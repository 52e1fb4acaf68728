// write_compact: dump_json's compact text without nlohmann's serializer, whose setup (an output
// adapter on the heap, the locale's separators, a 512-byte buffer) cost more than writing a
// small reply. The text is byte for byte nlohmann's dump(-1, ' ', false, replace): strings
// escaped as its serializer does with ensure_ascii off, integers in decimal. What it does not
// write itself (a float, a string that is not valid UTF-8, binary) it leaves to nlohmann
// (design/json-parse.md, "Writing JSON").
//
// The text is written through a cursor into the string's own bytes, grown by doubling, and cut
// to its length at the end: one check of the room per value or per run of plain characters,
// where appending character by character checked the capacity and called out of line for each.
#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <string_view>
#include <simdjson.h>

#include "core/json_dump.hpp"

namespace tooluse::detail {
namespace {

class cursor {
 public:
  // The room it starts with is what the string already holds (up to 4 KiB: resizing fills it).
  explicit cursor(std::string& s) : s_(s), at_(s.size()) {
    s_.resize(std::max(at_ + 128, std::min(s_.capacity(), at_ + 4096)));
  }
  cursor(const cursor&) = delete;
  cursor& operator=(const cursor&) = delete;
  ~cursor() { s_.resize(at_); }

  // room makes `n` bytes writable at the cursor and returns them.
  char* room(std::size_t n) {
    if (s_.size() - at_ < n) s_.resize(std::max(s_.size() * 2, at_ + n));
    return s_.data() + at_;
  }
  void advance(std::size_t n) { at_ += n; }
  void put(char c) {
    *room(1) = c;
    ++at_;
  }
  void put(std::string_view v) {
    std::memcpy(room(v.size()), v.data(), v.size());
    at_ += v.size();
  }

 private:
  std::string& s_;
  std::size_t at_;
};

// plain: the bytes a JSON string holds as they are (ASCII, not a control, quote or backslash).
constexpr auto plain_table = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x80; ++c) t[c] = c != '"' && c != '\\';
  return t;
}();

bool write_string(std::string_view s, cursor& out) {
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n && plain_table[b[i]]) ++i;
  if (i == n) {  // the common case: nothing to escape, one copy
    char* p = out.room(n + 2);
    p[0] = '"';
    std::memcpy(p + 1, s.data(), n);
    p[n + 1] = '"';
    out.advance(n + 2);
    return true;
  }
  for (std::size_t k = i; k < n; ++k)
    if (b[k] >= 0x80) {
      if (!simdjson::validate_utf8(s.data(), n)) return false;  // nlohmann replaces
      break;
    }
  out.put('"');
  std::size_t run = 0;  // start of the bytes not yet copied
  for (; i < n; ++i) {
    const unsigned char c = b[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;  // UTF-8 continues as it is
    out.put(s.substr(run, i - run));
    run = i + 1;
    // the bytes with a short escape, then each one's letter: \" \\ \b \t \n \f \r
    static constexpr std::string_view named = "\"\\\b\t\n\f\r", letter = "\"\\btnfr";
    if (auto at = named.find(static_cast<char>(c)); at != std::string_view::npos) {
      const char e[2] = {'\\', letter[at]};
      out.put(std::string_view(e, 2));
      continue;
    }
    static constexpr char hex[] = "0123456789abcdef";
    const char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};
    out.put(std::string_view(u, sizeof u));
  }
  out.put(s.substr(run));
  out.put('"');
  return true;
}

template <class I>
void write_integer(I v, cursor& out) {
  char* p = out.room(24);
  out.advance(static_cast<std::size_t>(std::to_chars(p, p + 24, v).ptr - p));
}

bool write_value(const json& v, cursor& out) {
  switch (v.type()) {
    case json::value_t::null:
      out.put("null");
      return true;
    case json::value_t::boolean:
      out.put(v.get<bool>() ? std::string_view("true") : std::string_view("false"));
      return true;
    case json::value_t::number_integer:
      write_integer(v.get<json::number_integer_t>(), out);
      return true;
    case json::value_t::number_unsigned:
      write_integer(v.get<json::number_unsigned_t>(), out);
      return true;
    case json::value_t::number_float:
      out.put(v.dump());  // nlohmann's shortest round-trip digits, its exponent format
      return true;
    case json::value_t::string:
      return write_string(v.get_ref<const std::string&>(), out);
    case json::value_t::array: {
      out.put('[');
      bool first = true;
      for (const auto& e : v.get_ref<const json::array_t&>()) {
        if (!first) out.put(',');
        first = false;
        if (!write_value(e, out)) return false;
      }
      out.put(']');
      return true;
    }
    case json::value_t::object: {
      out.put('{');
      bool first = true;
      for (const auto& [key, value] : v.get_ref<const json::object_t&>()) {
        if (!first) out.put(',');
        first = false;
        if (!write_string(key, out)) return false;
        out.put(':');
        if (!write_value(value, out)) return false;
      }
      out.put('}');
      return true;
    }
    case json::value_t::binary:
    case json::value_t::discarded:
      return false;
  }
  return false;
}

}  // namespace

bool write_compact(const json& v, std::string& out) {
  cursor c(out);
  return write_value(v, c);
}

bool write_compact_string(std::string_view s, std::string& out) {
  cursor c(out);
  return write_string(s, c);
}

}  // namespace tooluse::detail
