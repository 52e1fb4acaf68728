// read_plain_request: the plain HTTP/1.1 request read in one pass (http_request.hpp), as
// Beast's parser (request_reader) reads it; anything else is left to Beast.
#include <boost/beast/http/detail/rfc7230.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>
#include <array>
#include <cstring>

#include "mcp/http_request.hpp"

namespace tooluse::mcp::detail {

namespace {

namespace http = boost::beast::http;

// One table for the bytes of a head: what each may be part of.
enum : unsigned char { token_byte = 1, value_byte = 2, target_byte = 4 };
const auto byte_classes = [] {  // Beast's token test is not constexpr
  std::array<unsigned char, 256> t{};
  for (int c = 0x21; c <= 0x7e; ++c) t[c] |= value_byte | target_byte;  // visible ASCII
  t[' '] |= value_byte;
  t['\t'] |= value_byte;  // Beast's values also take bytes past 0x7f, and its targets: those go to it
  for (int c = 0; c < 256; ++c)
    if (http::detail::is_token_char(static_cast<char>(c))) t[c] |= token_byte;
  return t;
}();

// span_of: how many bytes from `p` (before `end`) are of `cls`.
std::size_t span_of(const char* p, const char* end, unsigned char cls) {
  const char* q = p;
  while (q < end && (byte_classes[static_cast<unsigned char>(*q)] & cls)) ++q;
  return static_cast<std::size_t>(q - p);
}

bool is_ows(char c) { return c == ' ' || c == '\t'; }
bool is_token(char c) { return byte_classes[static_cast<unsigned char>(c)] & token_byte; }

std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && is_ows(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ows(s.back())) s.remove_suffix(1);
  return s;
}

// plain_list: a list of tokens, empty elements allowed, as Beast validates Connection's value
// (opt_token_list), and without "upgrade" (which Beast's parser flags).
bool plain_list(std::string_view value) {
  while (true) {
    const auto comma = value.find(',');
    std::string_view element = trim_ows(value.substr(0, comma));
    for (char c : element)
      if (!is_token(c)) return false;
    if (element.size() == 7 && boost::beast::iequals({element.data(), element.size()}, "upgrade")) return false;
    if (comma == std::string_view::npos) return true;
    value.remove_prefix(comma + 1);
  }
}

}  // namespace

std::size_t read_plain_request(std::string_view data, http_request& into, std::size_t header_limit,
                               std::uint64_t body_limit) {
  // What it read before it found the request is not plain goes: Beast reads it from the start.
  struct clear_unless_read {
    http_request& r;
    bool read = false;
    ~clear_unless_read() {
      if (!read) r.clear();
    }
  } guard{into};
  into.clear();
  // One pass over the head, within the limit with bytes to spare (Beast counts it its own way);
  // running out of bytes before its end is a head not all here, or too long: Beast's.
  const char* const base = data.data();
  const char* const limit = base + std::min(data.size(), header_limit > 8 ? header_limit - 8 : 0);
  auto at = [base](const char* p) { return static_cast<std::uint32_t>(p - base); };
  // request-line = method SP request-target SP HTTP-version CRLF
  const char* p = base + span_of(base, limit, token_byte);
  if (p == base || p >= limit || *p != ' ') return 0;
  into.method_ = http::string_to_verb({base, static_cast<std::size_t>(p - base)});
  if (into.method_ == http::verb::unknown) return 0;  // an extension method: Beast reads it
  const char* const target = ++p;
  p += span_of(p, limit, target_byte);
  if (p == target || p >= limit || *p != ' ') return 0;
  into.target_at_ = at(target);
  into.target_size_ = at(p) - into.target_at_;
  ++p;
  if (limit - p < 10 || std::memcmp(p, "HTTP/1.1\r\n", 10) != 0) return 0;
  p += 10;
  into.version_ = 11;
  // header-field = field-name ":" OWS field-value OWS CRLF, no folding; then CRLF
  std::uint64_t length = 0;
  bool has_length = false;
  for (;;) {
    if (limit - p < 2) return 0;
    if (p[0] == '\r' && p[1] == '\n') {
      p += 2;
      break;
    }
    const char* const name = p;
    p += span_of(p, limit, token_byte);
    if (p == name || p >= limit || *p != ':') return 0;
    const std::string_view name_sv(name, static_cast<std::size_t>(p - name));
    const char* const value_begin = ++p;
    p += span_of(p, limit, value_byte);
    if (limit - p < 2 || p[0] != '\r' || p[1] != '\n') return 0;  // a CR or LF alone, or a control byte
    const std::string_view value = trim_ows({value_begin, static_cast<std::size_t>(p - value_begin)});
    p += 2;
    if (p < limit && is_ows(*p)) return 0;  // a folded line
    const http::field id = http::string_to_field({name_sv.data(), name_sv.size()});
    switch (id) {
      case http::field::content_length: {
        if (has_length || value.empty() || value.size() > 15) return 0;
        for (char c : value) {
          if (c < '0' || c > '9') return 0;
          length = length * 10 + static_cast<std::uint64_t>(c - '0');
        }
        has_length = true;
        break;
      }
      case http::field::transfer_encoding:
      case http::field::upgrade:
      case http::field::proxy_connection:
        return 0;
      case http::field::connection:
        if (!plain_list(value)) return 0;
        break;
      default:
        break;
    }
    into.fields_.push_back({id, at(name), static_cast<std::uint32_t>(name_sv.size()), at(value.data()),
                            static_cast<std::uint32_t>(value.size())});
  }
  // The body: all of it already here, and within the limit.
  const std::size_t body_at = at(p);
  if (length >= body_limit || length > data.size() - body_at) return 0;
  into.text_.assign(base, body_at);  // the target, names and values are where they were in it
  into.body_.reserve(static_cast<std::size_t>(length) + request_reader::body_read_ahead);
  into.body_.assign(base + body_at, static_cast<std::size_t>(length));
  guard.read = true;
  return body_at + static_cast<std::size_t>(length);
}

}  // namespace tooluse::mcp::detail
