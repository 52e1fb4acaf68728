#pragma once
/// \file enum_names.hpp
/// TOOLUSE_ENUM_NAMES: an enum's names written once, at the bottom of the module graph (core),
/// so that every module can turn its enums into text and back the same way. The schema
/// module's TOOLUSE_DESCRIBE_ENUM (describe.hpp) is this table plus a JSON Schema and codec.
///
/// Example:
///   enum class color { red, dark_blue };
///   TOOLUSE_ENUM_NAMES(color, (red), (dark_blue, "dark-blue"))
///   tooluse::enum_name(color::dark_blue);         // "dark-blue"
///   tooluse::enum_from_name<color>("red");        // color::red
///   tooluse::enum_name_list<color>();             // "red, dark-blue"
///
/// Rules: use the macro at namespace scope, in the namespace of the enum (the table is found by
/// argument-dependent lookup). `(enumerator)` names an enumerator by its own spelling,
/// `(enumerator, "name")` by another; a name may appear once per enumerator, in the order
/// given, and the first entry for an enumerator is its name (later ones are accepted aliases
/// when reading, e.g. `(required, "required"), (required, "any")`).

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// ---- preprocessor machinery: FOR_EACH over parenthesized entries (C++20 __VA_OPT__) --------
#define TOOLUSE_DETAIL_PARENS ()
#define TOOLUSE_DETAIL_EXPAND(...) \
  TOOLUSE_DETAIL_EXPAND4(TOOLUSE_DETAIL_EXPAND4(TOOLUSE_DETAIL_EXPAND4(TOOLUSE_DETAIL_EXPAND4(__VA_ARGS__))))
#define TOOLUSE_DETAIL_EXPAND4(...) \
  TOOLUSE_DETAIL_EXPAND3(TOOLUSE_DETAIL_EXPAND3(TOOLUSE_DETAIL_EXPAND3(TOOLUSE_DETAIL_EXPAND3(__VA_ARGS__))))
#define TOOLUSE_DETAIL_EXPAND3(...) \
  TOOLUSE_DETAIL_EXPAND2(TOOLUSE_DETAIL_EXPAND2(TOOLUSE_DETAIL_EXPAND2(TOOLUSE_DETAIL_EXPAND2(__VA_ARGS__))))
#define TOOLUSE_DETAIL_EXPAND2(...) \
  TOOLUSE_DETAIL_EXPAND1(TOOLUSE_DETAIL_EXPAND1(TOOLUSE_DETAIL_EXPAND1(TOOLUSE_DETAIL_EXPAND1(__VA_ARGS__))))
#define TOOLUSE_DETAIL_EXPAND1(...) __VA_ARGS__
// Each entry is emitted with a leading comma: `, macro(entry)`.
#define TOOLUSE_DETAIL_FOR_EACH(macro, ...) \
  __VA_OPT__(TOOLUSE_DETAIL_EXPAND(TOOLUSE_DETAIL_FOR_EACH_HELPER(macro, __VA_ARGS__)))
#define TOOLUSE_DETAIL_FOR_EACH_HELPER(macro, entry, ...) \
  , macro(entry) __VA_OPT__(TOOLUSE_DETAIL_FOR_EACH_AGAIN TOOLUSE_DETAIL_PARENS(macro, __VA_ARGS__))
#define TOOLUSE_DETAIL_FOR_EACH_AGAIN() TOOLUSE_DETAIL_FOR_EACH_HELPER

#define TOOLUSE_DETAIL_ENUM_ENTRY(entry) TOOLUSE_DETAIL_ENUM_ENTRY_IMPL entry
#define TOOLUSE_DETAIL_ENUM_ENTRY_IMPL(value, ...) \
  ::tooluse::detail::enum_entry(tooluse_self_::value, #value __VA_OPT__(, ) __VA_ARGS__)

namespace tooluse {

/// enum_table is an enum's name (as written in TOOLUSE_ENUM_NAMES) and each enumerator with
/// its name, in the order given.
template <class E>
struct enum_table {
  std::string_view name;
  std::vector<std::pair<E, std::string_view>> values;
};

/// enum_tag<E> selects E's table in tooluse_enum_names (found by argument-dependent lookup).
template <class E>
struct enum_tag {};

namespace detail {

template <class E>
std::pair<E, std::string_view> enum_entry(E value, std::string_view spelled,
                                          std::string_view name = {}) {
  return {value, name.empty() ? spelled : name};
}

template <class E, class... V>
enum_table<E> make_enum_table(std::string_view name, V... values) {
  return {name, {values...}};
}

/// join_names lists `names` as "a, b, c".
std::string join_names(const std::vector<std::string_view>& names);

}  // namespace detail

/// enum_name returns the name of `value`, or `fallback` for a value the table does not list.
template <class E>
std::string_view enum_name(E value, std::string_view fallback = {}) noexcept {
  for (const auto& [v, name] : tooluse_enum_names(enum_tag<E>{}).values)
    if (v == value) return name;
  return fallback;
}

/// enum_from_name returns the enumerator named `name` (exact spelling), or nothing.
template <class E>
std::optional<E> enum_from_name(std::string_view name) noexcept {
  for (const auto& [v, n] : tooluse_enum_names(enum_tag<E>{}).values)
    if (n == name) return v;
  return std::nullopt;
}

/// enum_name_list returns the names of E, "a, b, c", for error messages.
template <class E>
std::string enum_name_list() {
  std::vector<std::string_view> names;
  for (const auto& [v, n] : tooluse_enum_names(enum_tag<E>{}).values) names.push_back(n);
  return detail::join_names(names);
}

}  // namespace tooluse

/// TOOLUSE_ENUM_NAMES(E, (enumerator), (enumerator, "name"), ...) writes E's names once.
#define TOOLUSE_ENUM_NAMES(E, ...)                                                      \
  [[maybe_unused]] inline const ::tooluse::enum_table<E>& tooluse_enum_names(           \
      ::tooluse::enum_tag<E>) {                                                         \
    using tooluse_self_ = E;                                                            \
    static const auto table = ::tooluse::detail::make_enum_table<E>(                    \
        #E TOOLUSE_DETAIL_FOR_EACH(TOOLUSE_DETAIL_ENUM_ENTRY, __VA_ARGS__));            \
    return table;                                                                       \
  }
