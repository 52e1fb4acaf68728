#pragma once
/// \file field.hpp
/// Internals of TOOLUSE_DESCRIBE: field and enumerator descriptions, type traits shared by the
/// schema generator and the JSON codec. Not for direct use; include tooluse/describe.hpp.

#include <array>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "tooluse/enum_names.hpp"
#include "tooluse/json.hpp"
#include "tooluse/schema/constraints.hpp"

namespace tooluse {
/// other_fields_t marks the catch-all member of a TOOLUSE_WIRE type: a tooluse::json that
/// receives, as an object, every property the type does not declare, and gives them back on
/// encoding. Use the constant tooluse::other_fields.
struct other_fields_t {};
inline constexpr other_fields_t other_fields{};
}  // namespace tooluse

namespace tooluse::detail {

template <class T>
inline constexpr bool dependent_false = false;

/// describe_tag<T> is the argument TOOLUSE_DESCRIBE's tooluse_describe overload is found by
/// (argument-dependent lookup in T's namespace).
template <class T>
struct describe_tag {};

/// field_info describes one member of a described struct.
template <class T, class M>
struct field_info {
  using owner_type = T;
  using member_type = M;
  std::string_view name;
  M T::*member;
  std::string_view description;
  std::vector<field_constraint> constraints;
  bool rest = false;  ///< the other_fields catch-all of a wire type
};

/// struct_info is what TOOLUSE_DESCRIBE produces for a struct: its name and its fields.
template <class T, class... Fields>
struct struct_info {
  std::string_view name;
  std::tuple<Fields...> fields;
  /// open: a wire type (TOOLUSE_WIRE): properties it does not declare are ignored (or kept by
  /// its other_fields member) instead of refused, for forward compatibility with newer peers.
  bool open = false;
};

/// enum_info is what TOOLUSE_DESCRIBE_ENUM produces: each enumerator with its wire name, the
/// table TOOLUSE_ENUM_NAMES makes (enum_names.hpp).
template <class E>
using enum_info = enum_table<E>;

template <class T, class M, class... C>
field_info<T, M> make_field(std::string_view name, M T::*member, std::string_view description = {},
                            C&&... constraints) {
  static_assert((std::is_same_v<std::remove_cvref_t<C>, field_constraint> && ...),
                "TOOLUSE_DESCRIBE: after the description, list constraints such as "
                "tooluse::minimum(1) or tooluse::one_of({\"a\", \"b\"})");
  return {name, member, description, {std::forward<C>(constraints)...}};
}

template <class T, class... Fields>
struct_info<T, Fields...> make_struct_info(std::string_view name, Fields... fields) {
  return {name, std::tuple<Fields...>(std::move(fields)...)};
}

/// make_wire_field builds one TOOLUSE_WIRE entry `(member, ["wire name"], constraints...)` or
/// `(member, tooluse::other_fields)`.
template <class T, class M, class... A>
field_info<T, M> make_wire_field(std::string_view spelled, M T::*member, A&&... args) {
  field_info<T, M> f{spelled, member, {}, {}};
  [[maybe_unused]] auto one = [&f](auto&& a) {
    using X = std::remove_cvref_t<decltype(a)>;
    if constexpr (std::is_same_v<X, field_constraint>) {
      f.constraints.push_back(a);
    } else if constexpr (std::is_same_v<X, other_fields_t>) {
      // `|| dependent_false<X>` keeps the check dependent on X, so that clang evaluates it
      // only in this branch (it checks a non-dependent static_assert in discarded branches).
      static_assert(std::is_same_v<M, json> || dependent_false<X>,
                    "TOOLUSE_WIRE: tooluse::other_fields needs a tooluse::json member");
      f.rest = true;
    } else if constexpr (std::is_convertible_v<X, std::string_view>) {
      f.name = a;
    } else {
      static_assert(dependent_false<X>,
                    "TOOLUSE_WIRE: an entry is (member, \"wire name\", constraints...) or "
                    "(member, tooluse::other_fields)");
    }
  };
  (one(std::forward<A>(args)), ...);
  return f;
}

template <class T, class... Fields>
struct_info<T, Fields...> make_wire_info(std::string_view name, Fields... fields) {
  return {name, std::tuple<Fields...>(std::move(fields)...), true};
}

// ---- type traits -------------------------------------------------------------------------

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
struct is_sequence : std::false_type {};
template <class T, class A>
struct is_sequence<std::vector<T, A>> : std::true_type {};
template <class T, class A>
struct is_sequence<std::list<T, A>> : std::true_type {};
template <class T, class A>
struct is_sequence<std::deque<T, A>> : std::true_type {};

template <class T>
struct is_set : std::false_type {};
template <class T, class C, class A>
struct is_set<std::set<T, C, A>> : std::true_type {};
template <class T, class H, class E, class A>
struct is_set<std::unordered_set<T, H, E, A>> : std::true_type {};

template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};

template <class T>
struct is_string_map : std::false_type {};
template <class V, class C, class A>
struct is_string_map<std::map<std::string, V, C, A>> : std::true_type {};
template <class V, class H, class E, class A>
struct is_string_map<std::unordered_map<std::string, V, H, E, A>> : std::true_type {};

template <class T>
inline constexpr bool is_integer_v =
    std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char> &&
    !std::is_same_v<T, wchar_t> && !std::is_same_v<T, char8_t> && !std::is_same_v<T, char16_t> &&
    !std::is_same_v<T, char32_t>;

template <class T>
concept described = requires { tooluse_describe(describe_tag<T>{}); };

template <class T>
struct is_enum_info : std::false_type {};
template <class E>
struct is_enum_info<enum_info<E>> : std::true_type {};

template <class T>
concept described_enum =
    described<T> && std::is_enum_v<T> &&
    is_enum_info<std::remove_cvref_t<decltype(tooluse_describe(describe_tag<T>{}))>>::value;

template <class T>
concept described_struct = described<T> && std::is_class_v<T>;

/// deep_equality_comparable<M> tells whether `a == b` compiles for M, looking into containers
/// (whose operator== is not constrained on the element type).
template <class M>
constexpr bool deep_equality_comparable() {
  if constexpr (is_optional<M>::value || is_sequence<M>::value || is_set<M>::value ||
                is_std_array<M>::value)
    return deep_equality_comparable<typename M::value_type>();
  else if constexpr (is_string_map<M>::value)
    return deep_equality_comparable<typename M::mapped_type>();
  else
    return std::equality_comparable<M>;
}

}  // namespace tooluse::detail
