#pragma once
/// \file py_value.hpp
/// py_value is a value as the Berkeley Function Calling Leaderboard's Python checker sees it:
/// None, bool, int, float, str, list, tuple, set, dict. Scoring must agree with that checker to
/// the entry, so the comparisons here follow Python's rules, not JSON's: `True == 1 == 1.0`,
/// a list never equals a tuple, `type(x)` tells bool from int, dict keys compare with `==`.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tooluse/json.hpp"

namespace tooluse::eval {

class py_value {
 public:
  enum class kind { none, boolean, integer, floating, string, list, tuple, set, dict };
  using items_t = std::vector<py_value>;
  using entries_t = std::vector<std::pair<py_value, py_value>>;

  py_value() = default;  ///< None
  static py_value none() { return {}; }
  static py_value boolean(bool b);
  static py_value integer(std::int64_t i);
  static py_value floating(double f);
  static py_value string(std::string s);
  static py_value list(items_t items = {});
  static py_value tuple(items_t items = {});
  /// set: duplicates (by Python ==) are dropped, the first kept.
  static py_value set(items_t items = {});
  /// dict: a later entry whose key equals an earlier one (by Python ==) replaces its value.
  static py_value dict(entries_t entries = {});

  kind type() const noexcept { return kind_; }
  bool is(kind k) const noexcept { return kind_ == k; }
  bool is_none() const noexcept { return kind_ == kind::none; }
  bool is_str() const noexcept { return kind_ == kind::string; }
  bool is_dict() const noexcept { return kind_ == kind::dict; }
  bool is_list() const noexcept { return kind_ == kind::list; }
  /// Python's bool(), int and float views; numbers only (bool counts as a number).
  bool is_number() const noexcept;
  double number() const noexcept;

  bool as_bool() const noexcept { return b_; }
  std::int64_t as_int() const noexcept { return i_; }
  double as_float() const noexcept { return f_; }
  const std::string& as_str() const noexcept { return s_; }
  /// The elements of a list, tuple or set.
  const items_t& items() const noexcept { return items_; }
  items_t& items() noexcept { return items_; }
  /// The entries of a dict, in insertion order.
  const entries_t& entries() const noexcept { return entries_; }
  entries_t& entries() noexcept { return entries_; }
  /// len(): elements, entries or characters (code points) of a str.
  std::size_t size() const noexcept;

  /// Dict lookup by a str key; null when absent or not a dict.
  const py_value* find(std::string_view key) const noexcept;
  py_value* find(std::string_view key) noexcept;
  const py_value* find(const py_value& key) const noexcept;
  /// d[key] = value.
  void set_item(py_value key, py_value value);

  /// type(x).__name__: NoneType, bool, int, float, str, list, tuple, set, dict.
  std::string_view type_name() const noexcept;
  /// repr(x) and str(x) as CPython 3 prints them (str of a str is the str itself).
  std::string repr() const;
  std::string str() const;

  /// json.loads semantics: integers stay int, numbers with a fraction or exponent are float,
  /// objects are dicts (a repeated key keeps the last value), arrays are lists.
  static py_value from_json(const json& j);
  /// json.dumps-like projection for reports (tuples and sets become arrays, non-str dict keys
  /// their str()).
  json to_json() const;

  /// Python ==.
  friend bool operator==(const py_value& a, const py_value& b) noexcept;

 private:
  /// with makes a value of kind `k` whose payload `member` is `value`.
  template <class T>
  static py_value with(kind k, T py_value::*member, T value);

  kind kind_ = kind::none;
  bool b_ = false;
  std::int64_t i_ = 0;
  double f_ = 0;
  std::string s_;
  items_t items_;
  entries_t entries_;
};

/// `value in values` (Python ==).
bool py_in(const py_value& value, const py_value::items_t& values) noexcept;

/// repr of a Python float as CPython prints it (shortest round-trip digits; `1.0`, `1e-05`,
/// `1e+16`, `inf`, `nan`).
std::string py_float_repr(double f);

/// repr of a Python str: single quotes unless the text holds ' and no ", escapes as CPython.
std::string py_str_repr(std::string_view s);

}  // namespace tooluse::eval
