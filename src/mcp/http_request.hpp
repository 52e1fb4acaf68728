#pragma once
// http_request: one HTTP request as the MCP endpoint reads it, and request_reader, which fills
// it from Beast's HTTP/1 parser (boost::beast::http::basic_parser: the grammar, the header and
// body limits, chunked bodies). Beast's own message keeps each header field in a node of its
// own, allocated and freed per field and per request, in a tree ordered by name; here a
// connection keeps one request and reuses it: the method, target, names and values are copied
// back to back into one string, the fields are an array of offsets into it, and the body is a
// string, so that after the first requests reading a request allocates nothing
// (design/mcp-server.md, "Reading a request").
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/rfc7230.hpp>
#include <boost/beast/http/verb.hpp>
#include <boost/optional.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tooluse::mcp::detail {

class http_request;

/// read_plain_request reads the plain HTTP/1.1 request at the start of `data` into `into`
/// (cleared first by its reader) when all of it is there: a request line with a method Beast
/// knows, a visible-ASCII target and "HTTP/1.1"; fields of visible ASCII, none folded, no
/// Transfer-Encoding, Upgrade or Proxy-Connection, a Connection of plain tokens without
/// "upgrade", at most one Content-Length of digits; the head within `header_limit` and the
/// body, whole, within `body_limit`. Returns the bytes it read, or 0 (and `into` cleared): Beast
/// reads the request then (request_reader). What it reads is what Beast reads from the same
/// bytes (tests/fuzz/http_request_fuzz.cpp); it only does it in one pass, without Beast's
/// table per byte. design/mcp-server.md, "Reading a request".
std::size_t read_plain_request(std::string_view data, http_request& into, std::size_t header_limit,
                               std::uint64_t body_limit);

class http_request {
  struct entry {
    boost::beast::http::field id;
    std::uint32_t name_at, name_size, value_at, value_size;
  };

 public:
  /// field_ref is one header field, as Beast's fields iterate: its known name (or unknown),
  /// the name as sent and its value.
  class field_ref {
   public:
    field_ref(const http_request& r, const entry& e) : r_(&r), e_(&e) {}
    boost::beast::http::field name() const { return e_->id; }
    std::string_view name_string() const { return r_->text(e_->name_at, e_->name_size); }
    std::string_view value() const { return r_->text(e_->value_at, e_->value_size); }

   private:
    const http_request* r_;
    const entry* e_;
  };
  class iterator {
   public:
    iterator(const http_request& r, std::size_t i) : r_(&r), i_(i) {}
    field_ref operator*() const { return {*r_, r_->fields_[i_]}; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const iterator& o) const { return i_ == o.i_; }

   private:
    const http_request* r_;
    std::size_t i_;
  };

  boost::beast::http::verb method() const { return method_; }
  std::string_view method_string() const {
    if (method_ == boost::beast::http::verb::unknown) return text(method_at_, method_size_);
    const auto known = boost::beast::http::to_string(method_);
    return {known.data(), known.size()};
  }
  std::string_view target() const { return text(target_at_, target_size_); }
  unsigned version() const { return version_; }
  std::string& body() { return body_; }
  const std::string& body() const { return body_; }

  /// The value of the first field named `f` (or `name`, in any case); empty when there is none.
  std::string_view operator[](boost::beast::http::field f) const {
    const entry* e = first(f);
    return e ? text(e->value_at, e->value_size) : std::string_view();
  }
  std::string_view operator[](std::string_view name) const {
    const auto id = boost::beast::http::string_to_field({name.data(), name.size()});
    if (id != boost::beast::http::field::unknown) return (*this)[id];
    for (const auto& e : fields_)
      if (e.name_size == name.size() && boost::beast::iequals({text_.data() + e.name_at, e.name_size}, {name.data(), name.size()}))
        return text(e.value_at, e.value_size);
    return {};
  }
  /// The fields in the order they came (Beast's message moves a field next to the last one of
  /// its name; the first of each name is the same in both).
  iterator begin() const { return {*this, 0}; }
  iterator end() const { return {*this, fields_.size()}; }
  std::size_t field_count() const { return fields_.size(); }

  /// keep_alive as Beast's message tells it: HTTP/1.1 unless the first Connection field has
  /// "close", HTTP/1.0 only when it has "keep-alive".
  bool keep_alive() const {
    const entry* c = first(boost::beast::http::field::connection);
    if (!c) return version_ >= 11;
    boost::beast::http::token_list tokens{{text_.data() + c->value_at, c->value_size}};  // exists() is not const
    return version_ < 11 ? tokens.exists("keep-alive") : !tokens.exists("close");
  }

  /// clear empties the request and keeps its storage for the next one.
  void clear() {
    text_.clear();
    fields_.clear();
    body_.clear();
    method_ = boost::beast::http::verb::unknown;
    method_at_ = method_size_ = target_at_ = target_size_ = 0;
    version_ = 11;
  }

 private:
  friend class request_reader;
  friend std::size_t read_plain_request(std::string_view, http_request&, std::size_t, std::uint64_t);
  std::string_view text(std::uint32_t at, std::uint32_t size) const { return {text_.data() + at, size}; }
  const entry* first(boost::beast::http::field f) const {
    for (const auto& e : fields_)
      if (e.id == f) return &e;
    return nullptr;
  }
  std::uint32_t keep(std::string_view s) {
    const auto at = static_cast<std::uint32_t>(text_.size());
    text_.append(s);
    return at;
  }

  std::string text_;  ///< the method (when unknown), the target, each name and value
  std::vector<entry> fields_;
  std::string body_;
  boost::beast::http::verb method_ = boost::beast::http::verb::unknown;
  std::uint32_t method_at_ = 0, method_size_ = 0, target_at_ = 0, target_size_ = 0;
  unsigned version_ = 11;
};

/// request_reader parses one request into an http_request (cleared first). Like Beast's
/// request_parser, one reader reads one message: make a new one for the next.
class request_reader : public boost::beast::http::basic_parser<true> {
 public:
  /// body_read_ahead: bytes a body gets reserved past its end, which simdjson reads ahead
  /// (SIMDJSON_PADDING), so that the fast path parses it where it is.
  static constexpr std::size_t body_read_ahead = 64;
  explicit request_reader(http_request& into) : r_(into) { r_.clear(); }

 private:
  using error_code = boost::beast::error_code;
  using string_view = boost::beast::string_view;
  static std::string_view sv(string_view s) { return {s.data(), s.size()}; }

  void on_request_impl(boost::beast::http::verb method, string_view method_str, string_view target, int version,
                       error_code&) override {
    r_.method_ = method;
    if (method == boost::beast::http::verb::unknown) {
      r_.method_at_ = r_.keep(sv(method_str));
      r_.method_size_ = static_cast<std::uint32_t>(method_str.size());
    }
    r_.target_at_ = r_.keep(sv(target));
    r_.target_size_ = static_cast<std::uint32_t>(target.size());
    r_.version_ = static_cast<unsigned>(version);
  }
  void on_response_impl(int, string_view, int, error_code&) override {}
  void on_field_impl(boost::beast::http::field name, string_view name_string, string_view value,
                     error_code&) override {
    http_request::entry e{name, 0, static_cast<std::uint32_t>(name_string.size()), 0,
                          static_cast<std::uint32_t>(value.size())};
    e.name_at = r_.keep(sv(name_string));
    e.value_at = r_.keep(sv(value));
    r_.fields_.push_back(e);
  }
  void on_header_impl(error_code&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>& content_length, error_code& ec) override {
    if (content_length) {
      if (*content_length > r_.body_.max_size() - body_read_ahead) {
        ec = boost::beast::http::error::buffer_overflow;
        return;
      }
      // With room for a JSON parser's read-ahead past the end (json_reader::read).
      r_.body_.reserve(static_cast<std::size_t>(*content_length) + body_read_ahead);
    }
  }
  std::size_t on_body_impl(string_view body, error_code&) override {
    r_.body_.append(body.data(), body.size());
    return body.size();
  }
  void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, string_view body, error_code&) override {
    r_.body_.append(body.data(), body.size());
    return body.size();
  }
  void on_finish_impl(error_code&) override {}

  http_request& r_;
};

}  // namespace tooluse::mcp::detail
