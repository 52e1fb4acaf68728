#pragma once
/// \file codec_impl.hpp
/// Internals of tooluse::decode / tooluse::encode for described types.

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "tooluse/schema/detail/schema_gen.hpp"

namespace tooluse::detail {

inline bool is_identifier(std::string_view key) {
  if (key.empty() || (key[0] >= '0' && key[0] <= '9')) return false;
  for (char c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

/// path_push appends a property to a JSON path: `a.b`, or `a["odd key"]`.
inline void path_push(std::string& path, std::string_view key) {
  if (is_identifier(key)) {
    path += '.';
    path += key;
  } else if (std::all_of(key.begin(), key.end(), [](char c) {
               // nothing to escape: most odd keys, such as _meta's "io.modelcontextprotocol/..."
               return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
             })) {
    path += "[\"";
    path += key;
    path += "\"]";
  } else {
    path += '[' + dump_json(json(std::string(key))) + ']';
  }
}

inline tl::unexpected<error> decode_error(const std::string& path, std::string message) {
  return fail(errc::invalid_argument, path + ": " + std::move(message));
}

// The path is built only for an error: decoding a member passes its parent's path on unchanged,
// and when it fails, the member's step (`.name`, `["odd key"]`, `[3]`) is inserted into the
// message right after the parent's path, which every decode_error message starts with. The
// innermost step is inserted first, so the steps come out in order.
inline void insert_step(error& e, std::size_t at, std::string_view key) {
  std::string step;
  path_push(step, key);
  e.message.insert(at, step);
}
inline void insert_index(error& e, std::size_t at, std::size_t index) {
  e.message.insert(at, '[' + std::to_string(index) + ']');
}

inline std::string got(const json& j) {
  std::string_view t = type_name(j);
  if (j.is_string() || j.is_number() || j.is_boolean()) {
    std::string text = dump_json(j);
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return std::string(t) + " " + text;
  }
  return std::string(t);
}

template <class T>
status decode_value(const json& j, T& out, const std::string& path);

template <class I>
status decode_integer(const json& j, I& out, const std::string& path) {
  if (!j.is_number()) return decode_error(path, "expected integer, got " + got(j));
  bool in_range = false;
  if (j.is_number_unsigned()) {
    auto v = j.get<std::uint64_t>();
    in_range = std::in_range<I>(v);
    if (in_range) out = static_cast<I>(v);
  } else if (j.is_number_integer()) {
    auto v = j.get<std::int64_t>();
    in_range = std::in_range<I>(v);
    if (in_range) out = static_cast<I>(v);
  } else {
    double d = j.get<double>();
    if (!std::isfinite(d) || std::trunc(d) != d)
      return decode_error(path, "expected integer, got " + got(j));
    // 2^63 and 2^64 are exact doubles: compare against them, not against max() (rounded up).
    constexpr double lo = static_cast<double>(std::numeric_limits<I>::min());
    constexpr double hi = std::is_signed_v<I> ? -lo : 2.0 * (static_cast<double>(
                                                                 std::numeric_limits<I>::max() / 2) + 1);
    in_range = d >= lo && d < hi;
    if (in_range) out = static_cast<I>(d);
  }
  if (!in_range)
    return decode_error(path, got(j) + " is out of range [" +
                                  std::to_string(std::numeric_limits<I>::min()) + ", " +
                                  std::to_string(std::numeric_limits<I>::max()) + "]");
  return {};
}

template <class E>
status decode_enum(const json& j, E& out, const std::string& path) {
  const auto& info = tooluse_describe(describe_tag<E>{});
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    for (const auto& [value, wire] : info.values)
      if (wire == s) {
        out = value;
        return {};
      }
  }
  std::string allowed;
  for (const auto& [value, wire] : info.values)
    allowed += (allowed.empty() ? "\"" : ", \"") + std::string(wire) + "\"";
  return decode_error(path, "expected one of " + allowed + ", got " + got(j));
}

// declared_field tells whether `key` is the wire name of one of T's fields (the catch-all
// aside).
template <class Info>
bool declared_field(const Info& info, std::string_view key) {
  bool known = false;
  std::apply([&](const auto&... f) { known = ((!f.rest && f.name == key) || ...); }, info.fields);
  return known;
}

template <class T>
status decode_struct(const json& j, T& out, const std::string& path) {
  if (!j.is_object()) return decode_error(path, "expected object, got " + got(j));
  const auto& info = tooluse_describe(describe_tag<T>{});
  const auto& meta = meta_of<T>();
  // Unknown properties are refused (the schema says additionalProperties: false), so a typo
  // in an optional field's name is not silently ignored. Wire types ignore them instead: a
  // newer peer may send fields this version does not know.
  if (!info.open) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string& key = it.key();  // not a structured binding: clang 14 cannot capture one
      if (!declared_field(info, key)) {
        std::string names;
        std::apply([&](const auto&... f) { ((names += (names.empty() ? "" : ", ") + std::string(f.name)), ...); },
                   info.fields);
        return decode_error(path, "unknown property \"" + key + "\"; expected: " + names);
      }
    }
  }
  status st;
  std::size_t i = 0;
  auto one = [&](const auto& f) {
    const field_meta& m = meta[i++];
    if (!st) return;
    if constexpr (std::is_same_v<typename std::remove_cvref_t<decltype(f)>::member_type, json>) {
      if (f.rest) {
        json other = json::object();
        for (auto it = j.begin(); it != j.end(); ++it)
          if (!declared_field(info, it.key())) other[it.key()] = *it;
        out.*(f.member) = std::move(other);
        return;
      }
    }
    auto it = j.find(std::string_view(f.name));  // no key copied: ordered_json finds by view
    if (it != j.end()) {
      st = decode_value(*it, out.*(f.member), path);
    } else if (m.required) {
      st = decode_error(path, "missing required property \"" + std::string(f.name) + "\"");
      return;
    } else if (m.default_value) {
      st = decode_value(*m.default_value, out.*(f.member), path);
    }
    if (!st) insert_step(st.error(), path.size(), f.name);
  };
  std::apply([&](const auto&... f) { (one(f), ...); }, info.fields);
  return st;
}

template <class C>
status decode_array(const json& j, C& out, const std::string& path) {
  if (!j.is_array()) return decode_error(path, "expected array, got " + got(j));
  if constexpr (is_std_array<C>::value) {
    if (j.size() != out.size())
      return decode_error(path, "expected exactly " + std::to_string(out.size()) + " items, got " +
                                    std::to_string(j.size()));
  } else {
    out.clear();
  }
  for (std::size_t i = 0; i < j.size(); ++i) {
    typename C::value_type item{};
    if (auto st = decode_value(j[i], item, path); !st) {
      insert_index(st.error(), path.size(), i);
      return st;
    }
    if constexpr (is_std_array<C>::value)
      out[i] = std::move(item);
    else if constexpr (is_set<C>::value)
      out.insert(std::move(item));
    else
      out.push_back(std::move(item));
  }
  return {};
}

template <class M>
status decode_map(const json& j, M& out, const std::string& path) {
  if (!j.is_object()) return decode_error(path, "expected object, got " + got(j));
  out.clear();
  for (const auto& [key, value] : j.items()) {
    typename M::mapped_type item{};
    if (auto st = decode_value(value, item, path); !st) {
      insert_step(st.error(), path.size(), key);
      return st;
    }
    out.emplace(key, std::move(item));
  }
  return {};
}

template <class T>
status decode_value(const json& j, T& out, const std::string& path) {
  if constexpr (std::is_same_v<T, std::string>) {
    if (!j.is_string()) return decode_error(path, "expected string, got " + got(j));
    out = j.get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean()) return decode_error(path, "expected boolean, got " + got(j));
    out = j.get<bool>();
  } else if constexpr (std::is_same_v<T, json>) {
    out = j;
  } else if constexpr (is_integer_v<T>) {
    return decode_integer(j, out, path);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!j.is_number()) return decode_error(path, "expected number, got " + got(j));
    double d = j.get<double>();
    if (std::fabs(d) > static_cast<double>(std::numeric_limits<T>::max()))
      return decode_error(path, got(j) + " is out of range for a " + std::to_string(sizeof(T) * 8) +
                                    "-bit float");
    out = static_cast<T>(d);
  } else if constexpr (is_optional<T>::value) {
    if (j.is_null()) {
      out.reset();
      return {};
    }
    typename T::value_type v{};
    if (auto st = decode_value(j, v, path); !st) return st;
    out = std::move(v);
  } else if constexpr (is_std_array<T>::value || is_set<T>::value || is_sequence<T>::value) {
    return decode_array(j, out, path);
  } else if constexpr (is_string_map<T>::value) {
    return decode_map(j, out, path);
  } else if constexpr (described_enum<T>) {
    return decode_enum(j, out, path);
  } else if constexpr (described_struct<T>) {
    return decode_struct(j, out, path);
  } else {
    static_assert(dependent_false<T>,
                  "tooluse::decode: no JSON mapping for this type; describe it with "
                  "TOOLUSE_DESCRIBE / TOOLUSE_DESCRIBE_ENUM, or use tooluse::json");
  }
  return {};
}

template <class T>
json encode_value(const T& v) {
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool> ||
                std::is_same_v<T, json> || is_integer_v<T> || std::is_floating_point_v<T>) {
    return json(v);
  } else if constexpr (is_optional<T>::value) {
    return v ? encode_value(*v) : json(nullptr);
  } else if constexpr (is_std_array<T>::value || is_set<T>::value || is_sequence<T>::value) {
    json a = json::array();
    for (const auto& item : v) a.push_back(encode_value(item));
    return a;
  } else if constexpr (is_string_map<T>::value) {
    json o = json::object();
    for (const auto& [key, item] : v) o[key] = encode_value(item);
    return o;
  } else if constexpr (described_enum<T>) {
    for (const auto& [value, wire] : tooluse_describe(describe_tag<T>{}).values)
      if (value == v) return json(std::string(wire));
    return json(nullptr);
  } else if constexpr (described_struct<T>) {
    json o = json::object();
    const json* other = nullptr;
    auto one = [&](const auto& f) {
      const auto& member = v.*(f.member);
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(member)>, json>) {
        if (f.rest) {
          other = &member;
          return;
        }
      }
      if constexpr (is_optional<std::remove_cvref_t<decltype(member)>>::value)
        if (!member) return;  // absent rather than null
      o[std::string(f.name)] = encode_value(member);
    };
    std::apply([&](const auto&... f) { (one(f), ...); }, tooluse_describe(describe_tag<T>{}).fields);
    // The catch-all comes last and never overrides a declared field.
    if (other && other->is_object())
      for (auto it = other->begin(); it != other->end(); ++it)
        if (!o.contains(it.key())) o[it.key()] = *it;
    return o;
  } else {
    static_assert(dependent_false<T>,
                  "tooluse::encode: no JSON mapping for this type; describe it with "
                  "TOOLUSE_DESCRIBE / TOOLUSE_DESCRIBE_ENUM, or use tooluse::json");
    return {};
  }
}

}  // namespace tooluse::detail
