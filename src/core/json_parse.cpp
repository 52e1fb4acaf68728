// parse_json: the one bounded JSON parse every peer's text goes through. nlohmann's SAX parser
// is iterative (a state stack, no recursion), so a builder that refuses to open container 129
// keeps the stack and the heap bounded however deep the text nests. ordered_json looks keys up
// linearly, which made an object with a million members quadratic to build; large objects get
// a hash index while they are being built.
//
// Documents up to simd_max_bytes are first tokenized by simdjson (a validating parser many
// times faster than nlohmann's lexer); a small, shallow one is built straight from its tape
// (direct_builder), any other is fed to the builder from the tape; any document
// simdjson refuses, or that it would represent differently from nlohmann (an integer beyond
// 64 bits, -0), is parsed again by nlohmann, so the values and every error message stay
// nlohmann's (design/json-parse.md).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <atomic>
#include <optional>
#include <unordered_map>
#include <vector>

#include "json_simd.hpp"
#include "tooluse/json.hpp"

namespace tooluse {
namespace {

// The process's default limits, read by every parse_json without a lock: a mutex here was one
// more lock every request's threads shared. A change is seen field by field; they are set at
// startup.
struct atomic_limits {
  std::atomic<std::size_t> max_depth{json_limits{}.max_depth};
  std::atomic<std::size_t> max_bytes{json_limits{}.max_bytes};
  std::atomic<std::size_t> max_values{json_limits{}.max_values};
} defaults;

std::string describe(const std::string& what) {
  // Strip "[json.exception.parse_error.101] " for a message written for people.
  if (auto pos = what.find("] "); pos != std::string::npos) return what.substr(pos + 2);
  return what;
}

class bounded_builder {
 public:
  explicit bounded_builder(const json_limits& limits) : limits_(limits) {}

  bool null() { return put(json(nullptr)); }
  bool boolean(bool v) { return put(json(v)); }
  bool number_integer(json::number_integer_t v) { return put(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return put(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return put(json(v)); }
  bool string(json::string_t& v) { return put(json(std::move(v))); }
  bool binary(json::binary_t& v) { return put(json::binary(std::move(v))); }
  /// value takes a scalar made elsewhere (scalar_value), counted as nlohmann's events are.
  bool value(json&& v) { return put(std::move(v)); }

  // simdjson knows a container's size before its members come (nlohmann's parser passes
  // unknown_size): the container reserves it, and an object's members go straight into it.
  static constexpr std::size_t unknown_size = static_cast<std::size_t>(-1);
  bool start_object(std::size_t n) { return open_container(json(json::value_t::object), n); }
  bool start_array(std::size_t n) { return open_container(json(json::value_t::array), n); }
  bool end_object() { return close_container(); }
  bool end_array() { return close_container(); }

  bool key(json::string_t& k) {
    frame& f = stack_.back();
    if (f.direct) return add_key(f, items_of(*f.value), k);
    return add_key(f, f.members, k);
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) {
    if (!failure_) failure_ = error{errc::parse_error, "invalid JSON: " + describe(ex.what())};
    return false;
  }

  const json_limits& limits() const { return limits_; }
  /// set_root takes a value built elsewhere (direct_builder) as the document's.
  void set_root(json&& v) { root_ = std::move(v); }

  result<json> finish(bool ok) {
    if (failure_) return fail(*failure_);
    if (!ok) return fail(errc::parse_error, "invalid JSON");
    return std::move(root_);
  }

 private:
  // Without a size, an object's members are gathered in `members` while it is built and moved
  // into it when it closes: ordered_json keeps them in a vector of pair<const string, json>,
  // which cannot be moved, so each time that vector grew it copied every member built so far,
  // subtrees and all. With a size (`direct`), the object reserves it and never grows.
  struct frame {
    json* value;
    bool direct = false;
    std::vector<std::pair<std::string, json>> members;
    std::unique_ptr<std::unordered_map<std::string, std::size_t>> index;
  };
  using items = json::object_t::Container;  // the ordered map's vector

  static items& items_of(json& object) { return static_cast<items&>(object.get_ref<json::object_t&>()); }

  // add_key makes `k` the member the next value goes to: a new one, or (a duplicate key) the
  // one already there, whose value the last one replaces, as in nlohmann. Large objects look
  // their keys up in a hash index.
  template <class Members>
  bool add_key(frame& f, Members& members, json::string_t& k) {
    constexpr std::size_t index_from = 16;
    if (!f.index && members.size() >= index_from) {
      f.index = std::make_unique<std::unordered_map<std::string, std::size_t>>();
      for (std::size_t i = 0; i < members.size(); ++i) f.index->emplace(members[i].first, i);
    }
    if (f.index) {
      auto [it, fresh] = f.index->emplace(k, members.size());
      if (!fresh) {
        slot_ = &members[it->second].second;
        return true;
      }
    } else {
      for (auto& kv : members)
        if (kv.first == k) {
          slot_ = &kv.second;
          return true;
        }
    }
    members.emplace_back(std::move(k), nullptr);
    slot_ = &members.back().second;
    return true;
  }

  bool count() {
    if (++values_ <= limits_.max_values) return true;
    failure_ = limit_error("a JSON document with more than " + std::to_string(limits_.max_values) +
                               " values",
                           "json_limits::max_values", limits_.max_values);
    return false;
  }

  // place stores `v` where the next value goes and returns where it now lives.
  json* place(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json* top = stack_.back().value;
    if (top->is_array()) {
      auto& arr = top->get_ref<json::array_t&>();
      arr.push_back(std::move(v));
      return &arr.back();
    }
    *slot_ = std::move(v);
    return slot_;
  }

  bool put(json&& v) {
    if (!count()) return false;
    place(std::move(v));
    return true;
  }

  bool open_container(json&& container, std::size_t size) {
    if (!count()) return false;
    if (stack_.size() >= limits_.max_depth) {
      failure_ = limit_error("JSON nested more than " + std::to_string(limits_.max_depth) +
                                 " levels deep",
                             "json_limits::max_depth", limits_.max_depth, "levels");
      return false;
    }
    if (stack_.empty()) stack_.reserve(8);  // one allocation for the usual depth
    json* at = place(std::move(container));
    bool direct = false;
    if (size != unknown_size && size > 0) {
      // No more than the values still allowed: past them the document is refused anyway.
      std::size_t room = std::min(size, limits_.max_values - std::min(values_, limits_.max_values));
      if (at->is_object()) {
        items_of(*at).reserve(room);
        direct = true;
      } else {
        at->get_ref<json::array_t&>().reserve(room);
      }
    }
    stack_.push_back(frame{at, direct, {}, nullptr});
    return true;
  }

  bool close_container() {
    frame& f = stack_.back();
    if (!f.direct && f.value->is_object() && !f.members.empty()) {
      auto& vec = items_of(*f.value);
      vec.reserve(f.members.size());
      for (auto& [k, v] : f.members) vec.emplace_back(std::move(k), std::move(v));
    }
    stack_.pop_back();
    return true;
  }

  json_limits limits_;
  json root_;
  std::vector<frame> stack_;
  json* slot_ = nullptr;
  std::size_t values_ = 0;
  std::optional<error> failure_;
};

// scalar_value makes the value of a simdjson scalar as nlohmann's parser makes it: an integer
// without a minus sign is unsigned, a negative one signed. False for a container, and for a
// float -0.0 ("-0" is an integer to nlohmann: a document with one is left to nlohmann). A zero
// integer sets saw_zero: "0" or "-0", which simd_parse tells apart.
bool scalar_value(simdjson::dom::element e, json& out, bool& saw_zero) {
  using simdjson::dom::element_type;
  switch (e.type()) {
    case element_type::INT64: {
      std::int64_t v = int64_t(e);
      if (v == 0) saw_zero = true;
      if (v >= 0) out = static_cast<json::number_unsigned_t>(v);
      else out = static_cast<json::number_integer_t>(v);
      return true;
    }
    case element_type::UINT64:
      out = static_cast<json::number_unsigned_t>(uint64_t(e));
      return true;
    case element_type::DOUBLE: {
      double d = double(e);
      if (d == 0 && std::signbit(d)) return false;
      out = static_cast<json::number_float_t>(d);
      return true;
    }
    case element_type::STRING:
      out = std::string(std::string_view(e));
      return true;
    case element_type::BOOL:
      out = bool(e);
      return true;
    case element_type::NULL_VALUE:
      out = nullptr;
      return true;
    case element_type::ARRAY:
    case element_type::OBJECT:
      break;
  }
  return false;
}

using detail::has_minus_zero;
using detail::simd_max_bytes;

enum class simd_outcome { built, builder_refused, not_taken };

// simd_walk feeds `b` the events nlohmann's SAX parser would for the document simdjson parsed,
// in document order, without recursion.
simd_outcome simd_walk(simdjson::dom::element root, bounded_builder& b, bool& saw_zero) {
  using simdjson::dom::element_type;
  struct level {
    bool is_object;
    simdjson::dom::array::iterator a, a_end;
    simdjson::dom::object::iterator o, o_end;
  };
  std::vector<level> stack;
  stack.reserve(8);
  std::string text;
  saw_zero = false;
  // value emits one scalar, or opens a container and pushes it; false when the builder refused.
  auto value = [&](simdjson::dom::element e, bool& unrepresentable) -> bool {
    switch (e.type()) {
      case element_type::ARRAY: {
        auto arr = simdjson::dom::array(e);
        if (!b.start_array(arr.size())) return false;
        stack.push_back(level{false, arr.begin(), arr.end(), {}, {}});
        return true;
      }
      case element_type::OBJECT: {
        auto obj = simdjson::dom::object(e);
        if (!b.start_object(obj.size())) return false;
        stack.push_back(level{true, {}, {}, obj.begin(), obj.end()});
        return true;
      }
      default: {
        json v;
        if (!scalar_value(e, v, saw_zero)) break;
        return b.value(std::move(v));  // false: a limit
      }
    }
    unrepresentable = true;
    return false;
  };
  bool unrepresentable = false;
  auto refused = [&] {
    return unrepresentable ? simd_outcome::not_taken : simd_outcome::builder_refused;
  };
  if (!value(root, unrepresentable)) return refused();
  while (!stack.empty()) {
    level& top = stack.back();
    bool ok = true;
    if (top.is_object) {
      if (top.o == top.o_end) {
        stack.pop_back();
        ok = b.end_object();
      } else {
        auto kv = *top.o;
        ++top.o;
        text.assign(kv.key);
        ok = b.key(text) && value(kv.value, unrepresentable);
      }
    } else if (top.a == top.a_end) {
      stack.pop_back();
      ok = b.end_array();
    } else {
      auto e = *top.a;
      ++top.a;
      ok = value(e, unrepresentable);  // may push: `top` is not used after this
    }
    if (!ok) return refused();
  }
  return simd_outcome::built;
}

// direct_builder builds the value of a small, shallow document straight from simdjson's tape: a
// recursive descent that puts each value where it belongs, without the event stream, frames
// and staging copies of bounded_builder (which costs about twice as much per value). It gives up
// (false) on anything it does not take, and simd_parse then walks the same document with
// bounded_builder, which gives the answer and every refusal as nlohmann's parser would: a limit
// reached, a container nested deeper than direct_max_depth, an object of more than
// direct_max_members members (bounded_builder indexes large objects' keys), -0.0.
class direct_builder {
 public:
  static constexpr std::size_t direct_max_depth = 32;
  static constexpr std::size_t direct_max_members = 32;
  explicit direct_builder(const json_limits& limits)
      : max_values_(limits.max_values), max_depth_(std::min(limits.max_depth, direct_max_depth)) {}

  bool build(simdjson::dom::element e, std::size_t depth, json& out) {
    using simdjson::dom::element_type;
    if (++values_ > max_values_) return false;
    switch (e.type()) {
      case element_type::OBJECT: {
        auto obj = simdjson::dom::object(e);
        const std::size_t n = obj.size();
        if (depth >= max_depth_ || n > direct_max_members) return false;
        out = json(json::value_t::object);
        auto& items = static_cast<json::object_t::Container&>(out.get_ref<json::object_t&>());
        items.reserve(n);
        for (auto kv : obj) {
          json* slot = nullptr;
          for (auto& member : items)  // a duplicate key: the first's place, the last's value
            if (member.first == kv.key) {
              slot = &member.second;
              break;
            }
          if (!slot) slot = &items.emplace_back(std::string(kv.key), nullptr).second;
          if (!build(kv.value, depth + 1, *slot)) return false;
        }
        return true;
      }
      case element_type::ARRAY: {
        auto arr = simdjson::dom::array(e);
        if (depth >= max_depth_) return false;
        out = json(json::value_t::array);
        auto& items = out.get_ref<json::array_t&>();
        items.reserve(std::min(arr.size(), max_values_ - values_ + 1));
        for (auto v : arr)
          if (!build(v, depth + 1, items.emplace_back())) return false;
        return true;
      }
      default:
        return scalar_value(e, out, saw_zero);
    }
    return false;
  }

  bool saw_zero = false;

 private:
  std::size_t values_ = 0;
  std::size_t max_values_;
  std::size_t max_depth_;
};

// simd_parse parses `text` with simdjson into `b`; not_taken when nlohmann must decide.
simd_outcome simd_parse(std::string_view text, bounded_builder& b) {
  if (text.size() > simd_max_bytes) return simd_outcome::not_taken;
  thread_local simdjson::dom::parser parser(simd_max_bytes);
  thread_local std::string padded;
  // simdjson reads up to SIMDJSON_PADDING bytes past the end; a copy the thread keeps has them.
  padded.assign(text);
  padded.resize(text.size() + simdjson::SIMDJSON_PADDING);
  simdjson::dom::element root;
  if (parser.parse(padded.data(), text.size(), false).get(root) != simdjson::SUCCESS)
    return simd_outcome::not_taken;
  bool saw_zero = false;
  simd_outcome outcome;
  direct_builder direct(b.limits());
  if (json value; direct.build(root, 0, value)) {
    saw_zero = direct.saw_zero;
    b.set_root(std::move(value));
    outcome = simd_outcome::built;
  } else {
    outcome = simd_walk(root, b, saw_zero);
  }
  // simdjson reads "-0" as the integer 0, which nlohmann keeps signed (and "0" unsigned). A
  // document with a zero and a "-0" not followed by '.' or 'e' (perhaps inside a string: then
  // nlohmann merely parses it again) is left to nlohmann.
  if (outcome == simd_outcome::built && saw_zero && has_minus_zero(text))
    return simd_outcome::not_taken;
  return outcome;
}

}  // namespace

bool detail::has_minus_zero(std::string_view text) {
  for (auto at = text.find("-0"); at != std::string_view::npos; at = text.find("-0", at + 1)) {
    const unsigned char before = at > 0 ? static_cast<unsigned char>(text[at - 1]) : ' ';
    if (before < 0x80 && std::isalnum(before)) continue;  // "2026-07-28", "1e-0": not a number's start
    char next = at + 2 < text.size() ? text[at + 2] : ' ';
    if (next != '.' && next != 'e' && next != 'E') return true;
  }
  return false;
}

std::optional<json> detail::json_from_simd(simdjson::dom::element e, std::size_t depth,
                                           const json_limits& limits, bool& saw_zero) {
  try {
    direct_builder direct(limits);
    if (json value; direct.build(e, depth, value)) {
      saw_zero = direct.saw_zero;
      return value;
    }
    // Deeper or wider than the direct builder takes, or a -0.0: the event walk, with the depth
    // that remains below `depth` (a scalar needs none).
    json_limits rest = limits;
    rest.max_depth = limits.max_depth > depth ? limits.max_depth - depth : 0;
    bounded_builder b(rest);
    if (simd_walk(e, b, saw_zero) != simd_outcome::built) return std::nullopt;
    auto built = b.finish(true);
    if (!built) return std::nullopt;
    return std::move(*built);
  } catch (const std::exception&) {  // bad_alloc: parse_json says so
    return std::nullopt;
  }
}

json_limits default_json_limits() noexcept {
  return {.max_depth = defaults.max_depth.load(std::memory_order_relaxed),
          .max_bytes = defaults.max_bytes.load(std::memory_order_relaxed),
          .max_values = defaults.max_values.load(std::memory_order_relaxed)};
}

void set_default_json_limits(const json_limits& limits) noexcept {
  defaults.max_depth = limits.max_depth;  // rare: the ordering of an assignment is plenty
  defaults.max_bytes = limits.max_bytes;
  defaults.max_values = limits.max_values;
}

result<json> parse_json(std::string_view text) { return parse_json(text, default_json_limits()); }

result<json> parse_json(std::string_view text, const json_limits& limits) {
  if (text.size() <= limits.max_bytes) {  // else the reference path refuses it
    try {
      bounded_builder builder(limits);
      switch (simd_parse(text, builder)) {
        case simd_outcome::built:
          return builder.finish(true);
        case simd_outcome::builder_refused:  // a limit: nlohmann would stop at the same event
          return builder.finish(false);
        case simd_outcome::not_taken:
          break;
      }
    } catch (const std::exception& e) {  // bad_alloc, as on the reference path
      return fail(errc::parse_error, std::string("invalid JSON: ") + e.what());
    }
  }
  return detail::parse_json_nlohmann(text, limits);
}

result<json> detail::parse_json_nlohmann(std::string_view text, const json_limits& limits) {
  if (text.size() > limits.max_bytes)
    return fail(limit_error("a JSON document of " + std::to_string(text.size()) + " bytes",
                            "json_limits::max_bytes", limits.max_bytes, "bytes"));
  bounded_builder builder(limits);
  try {
    bool ok = json::sax_parse(text.begin(), text.end(), &builder,
                              nlohmann::detail::input_format_t::json, /*strict=*/true);
    return builder.finish(ok);
  } catch (const std::exception& e) {
    // sax_parse reports syntax errors through parse_error(); this is, e.g., bad_alloc.
    return fail(errc::parse_error, std::string("invalid JSON: ") + e.what());
  }
}

}  // namespace tooluse
