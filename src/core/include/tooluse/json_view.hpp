#pragma once
/// \file json_view.hpp
/// json_reader and json_view: a JSON document read in place, for a hot path that looks at a few
/// members of a request and builds only the values it keeps (json_view::to_json), instead of
/// building the whole document with parse_json and taking it apart.
///
/// parse_json stays the parse that decides. json_reader::read takes a document only when its view
/// reads exactly what parse_json would build: valid, within the limits (size, depth, values),
/// at most 64 KiB, and without an integer beyond 64 bits. Any other document is declined
/// (nullopt) and the caller parses it with parse_json, which gives the value or the error;
/// to_json likewise declines a value that holds a number parse_json represents differently
/// (a -0 or -0.0). design/json-parse.md, "Reading in place".
///
///   tooluse::json_reader reader;  // one per thread: it keeps its buffers between documents
///   if (auto doc = reader.read(text)) {  // or read(text, text.capacity(), limits): no copy
///     for (auto [key, value] : doc->members())
///       if (key == "arguments") args = value.to_json();   // only this part is built
///   } else {
///     auto parsed = tooluse::parse_json(text);             // the general path
///   }
#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>
#include <string_view>

#include "tooluse/json.hpp"

namespace tooluse {

namespace detail {
struct view_document;  // json_view.cpp: what the views of one read share
}  // namespace detail

/// json_view is one value of a document a json_reader read. It is valid until the reader reads
/// another document or is destroyed. Copying one is free.
class json_view {
 public:
  /// kind: nlohmann's types as parse_json builds them (integer: a number without a fraction or
  /// exponent that fits in 64 bits; number: any other).
  enum class kind : unsigned char { null, boolean, integer, number, string, array, object };

  kind type() const noexcept;
  bool is_object() const noexcept { return type() == kind::object; }
  bool is_array() const noexcept { return type() == kind::array; }
  bool is_string() const noexcept { return type() == kind::string; }

  /// string is a string's text, unescaped; empty for any other kind.
  std::string_view string() const noexcept;
  /// size is the number of an object's members (duplicates included) or an array's elements; 0
  /// for a scalar.
  std::size_t size() const noexcept;

  /// to_json builds this value as parse_json builds it inside its document, node types
  /// included. nullopt for a value parse_json represents in a way this view cannot (a zero in a
  /// document with a "-0" token, a float -0.0): parse the document with parse_json.
  std::optional<json> to_json() const;

  struct member;
  class member_iterator;
  class element_iterator;
  template <class It>
  struct range {
    It first, last;
    It begin() const { return first; }
    It end() const { return last; }
  };
  /// members are an object's members in document order, a duplicate key each time it appears
  /// (parse_json keeps the first one's place and the last one's value); none for other kinds.
  range<member_iterator> members() const noexcept;
  /// elements are an array's elements in order; none for other kinds.
  range<element_iterator> elements() const noexcept;

 private:
  friend class json_reader;
  friend struct json_view_access;
  // A simdjson::dom::element (a tape position), kept as bytes so that simdjson stays out of the
  // headers; json_view.cpp checks that it fits and is trivially copyable.
  alignas(8) unsigned char element_[16] = {};
  const detail::view_document* doc_ = nullptr;  ///< the reader's, for to_json
  std::size_t depth_ = 0;                      ///< containers around this value
};

struct json_view::member {
  std::string_view key;
  json_view value;
};

class json_view::member_iterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = member;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = member;
  member operator*() const noexcept;
  member_iterator& operator++() noexcept;
  member_iterator operator++(int) noexcept {
    auto old = *this;
    ++*this;
    return old;
  }
  bool operator==(const member_iterator& other) const noexcept;

 private:
  friend struct json_view_access;
  alignas(8) unsigned char at_[16] = {};  // a simdjson::dom::object::iterator
  const detail::view_document* doc_ = nullptr;
  std::size_t depth_ = 0;  ///< the object's members' depth
};

class json_view::element_iterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = json_view;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = json_view;
  json_view operator*() const noexcept;
  element_iterator& operator++() noexcept;
  element_iterator operator++(int) noexcept {
    auto old = *this;
    ++*this;
    return old;
  }
  bool operator==(const element_iterator& other) const noexcept;

 private:
  friend struct json_view_access;
  alignas(8) unsigned char at_[16] = {};  // a simdjson::dom::array::iterator
  const detail::view_document* doc_ = nullptr;
  std::size_t depth_ = 0;
};

/// json_reader reads documents in place, one at a time: each read invalidates the views of the
/// one before. Not thread-safe; keep one per thread. It holds on to its buffers (a few times the
/// largest document it read, at most about a megabyte).
class json_reader {
 public:
  json_reader();
  ~json_reader();
  json_reader(const json_reader&) = delete;
  json_reader& operator=(const json_reader&) = delete;

  /// read parses `text` and returns its root; nullopt when the document is not one it reads as
  /// parse_json(text, limits) builds it (see the file comment): parse it with parse_json.
  std::optional<json_view> read(std::string_view text, const json_limits& limits) {
    return read(text, text.size(), limits);
  }
  std::optional<json_view> read(std::string_view text) { return read(text, default_json_limits()); }
  /// read, where `readable` bytes from text.data() may be read (at least text.size(); for a
  /// std::string, its capacity()): with 64 to spare past the text (simdjson reads ahead), the
  /// text is parsed where it is instead of in a copy. The views never point into the text.
  std::optional<json_view> read(std::string_view text, std::size_t readable, const json_limits& limits);

 private:
  struct impl;
  std::unique_ptr<impl> d_;
};

}  // namespace tooluse
