// json_reader and json_view: a document read in place with simdjson (json_view.hpp). The
// views are simdjson's own tape positions; to_json builds with parse_json's builders
// (json_simd.hpp), so a value built here is the value parse_json builds for it.
#include "tooluse/json_view.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "json_simd.hpp"

namespace tooluse {

struct detail::view_document {
  json_limits limits;
  bool minus_zero = false;  ///< the text has a "-0" that may be a number (has_minus_zero)
};

namespace {

using simdjson::dom::element;
using object_iterator = simdjson::dom::object::iterator;
using array_iterator = simdjson::dom::array::iterator;

template <class T, std::size_t N>
void store(unsigned char (&to)[N], const T& v) {
  static_assert(sizeof(T) <= N && std::is_trivially_copyable_v<T>, "json_view's storage is too small");
  std::memcpy(to, &v, sizeof(T));
}

template <class T, std::size_t N>
T load(const unsigned char (&from)[N]) {
  T v;
  std::memcpy(static_cast<void*>(&v), from, sizeof(T));
  return v;
}

}  // namespace

// json_view_access makes views and iterators from simdjson's types (friend of each).
struct json_view_access {
  static json_view view(element e, const detail::view_document* doc, std::size_t depth) {
    json_view v;
    store(v.element_, e);
    v.doc_ = doc;
    v.depth_ = depth;
    return v;
  }
  static element of(const json_view& v) { return load<element>(v.element_); }

  static json_view::member_iterator members(object_iterator at, const detail::view_document* doc, std::size_t depth) {
    json_view::member_iterator it;
    store(it.at_, at);
    it.doc_ = doc;
    it.depth_ = depth;
    return it;
  }
  static object_iterator at(const json_view::member_iterator& it) { return load<object_iterator>(it.at_); }
  static void set(json_view::member_iterator& it, object_iterator at) { store(it.at_, at); }

  static json_view::element_iterator elements(array_iterator at, const detail::view_document* doc, std::size_t depth) {
    json_view::element_iterator it;
    store(it.at_, at);
    it.doc_ = doc;
    it.depth_ = depth;
    return it;
  }
  static array_iterator at(const json_view::element_iterator& it) { return load<array_iterator>(it.at_); }
  static void set(json_view::element_iterator& it, array_iterator at) { store(it.at_, at); }
};

using access = json_view_access;

json_view::kind json_view::type() const noexcept {
  using simdjson::dom::element_type;
  switch (access::of(*this).type()) {
    case element_type::ARRAY:
      return kind::array;
    case element_type::OBJECT:
      return kind::object;
    case element_type::INT64:
    case element_type::UINT64:
      return kind::integer;
    case element_type::DOUBLE:
      return kind::number;
    case element_type::STRING:
      return kind::string;
    case element_type::BOOL:
      return kind::boolean;
    case element_type::NULL_VALUE:
      break;
  }
  return kind::null;
}

std::string_view json_view::string() const noexcept {
  std::string_view s;
  if (access::of(*this).get_string().get(s) != simdjson::SUCCESS) return {};
  return s;
}

std::size_t json_view::size() const noexcept {
  element e = access::of(*this);
  if (e.is_object()) return simdjson::dom::object(e).size();
  if (e.is_array()) return simdjson::dom::array(e).size();
  return 0;
}

std::optional<json> json_view::to_json() const {
  bool saw_zero = false;
  auto value = detail::json_from_simd(access::of(*this), depth_, doc_->limits, saw_zero);
  // simdjson reads "-0" as the integer 0, which parse_json keeps signed (and "0" unsigned).
  if (value && saw_zero && doc_->minus_zero) return std::nullopt;
  return value;
}

json_view::range<json_view::member_iterator> json_view::members() const noexcept {
  element e = access::of(*this);
  if (!e.is_object()) return {};
  auto obj = simdjson::dom::object(e);
  return {access::members(obj.begin(), doc_, depth_ + 1), access::members(obj.end(), doc_, depth_ + 1)};
}

json_view::range<json_view::element_iterator> json_view::elements() const noexcept {
  element e = access::of(*this);
  if (!e.is_array()) return {};
  auto arr = simdjson::dom::array(e);
  return {access::elements(arr.begin(), doc_, depth_ + 1), access::elements(arr.end(), doc_, depth_ + 1)};
}

json_view::member json_view::member_iterator::operator*() const noexcept {
  auto kv = *access::at(*this);
  return {kv.key, access::view(kv.value, doc_, depth_)};
}

json_view::member_iterator& json_view::member_iterator::operator++() noexcept {
  auto at = access::at(*this);
  ++at;
  access::set(*this, at);
  return *this;
}

bool json_view::member_iterator::operator==(const member_iterator& other) const noexcept {
  // Default-constructed (an empty range) iterators are equal; others compare tape positions.
  if (!doc_ || !other.doc_) return doc_ == other.doc_;
  return access::at(*this) == access::at(other);
}

json_view json_view::element_iterator::operator*() const noexcept {
  return access::view(*access::at(*this), doc_, depth_);
}

json_view::element_iterator& json_view::element_iterator::operator++() noexcept {
  auto at = access::at(*this);
  ++at;
  access::set(*this, at);
  return *this;
}

bool json_view::element_iterator::operator==(const element_iterator& other) const noexcept {
  if (!doc_ || !other.doc_) return doc_ == other.doc_;
  return access::at(*this) == access::at(other);
}

struct json_reader::impl {
  simdjson::dom::parser parser{detail::simd_max_bytes};
  std::string padded;
  detail::view_document doc;
};

json_reader::json_reader() : d_(std::make_unique<impl>()) {}
json_reader::~json_reader() = default;

std::optional<json_view> json_reader::read(std::string_view text, std::size_t readable, const json_limits& limits) {
  // What parse_json refuses, or builds from nlohmann's parser: for parse_json to decide.
  if (text.size() > limits.max_bytes || text.size() > detail::simd_max_bytes || limits.max_depth == 0)
    return std::nullopt;
  auto& parser = d_->parser;
  // simdjson refuses a document nested deeper than max_depth containers, as parse_json does
  // (and one of max_depth containers with a scalar in the deepest, which parse_json takes: the
  // rare document at the limit is left to it).
  if (parser.max_depth() != limits.max_depth &&
      parser.allocate(std::max({parser.capacity(), text.size(), std::size_t{64}}), limits.max_depth) !=
          simdjson::SUCCESS)
    return std::nullopt;
  // simdjson reads up to SIMDJSON_PADDING bytes past the end: the text where it is when they
  // are readable, else the reader's copy, which has them.
  const char* at = text.data();
  if (readable < text.size() + simdjson::SIMDJSON_PADDING) {
    d_->padded.assign(text);
    d_->padded.resize(text.size() + simdjson::SIMDJSON_PADDING);
    at = d_->padded.data();
  }
  element root;
  if (parser.parse(at, text.size(), false).get(root) != simdjson::SUCCESS) return std::nullopt;
  // Every value takes at least one word of the tape, which starts and ends with a root word:
  // within the value limit when the tape is.
  std::size_t tape_words = (parser.doc.tape[0] & simdjson::internal::JSON_VALUE_MASK) + 1;
  if (tape_words - 2 > limits.max_values) return std::nullopt;
  d_->doc.limits = limits;
  d_->doc.minus_zero = detail::has_minus_zero(text);
  return access::view(root, &d_->doc, 0);
}

}  // namespace tooluse
