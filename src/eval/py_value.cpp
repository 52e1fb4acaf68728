#include "tooluse/eval/py_value.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "tooluse/text.hpp"

namespace tooluse::eval {

template <class T>
py_value py_value::with(kind k, T py_value::*member, T value) {
  py_value v;
  v.kind_ = k;
  v.*member = std::move(value);
  return v;
}

py_value py_value::boolean(bool b) { return with(kind::boolean, &py_value::b_, b); }
py_value py_value::integer(std::int64_t i) { return with(kind::integer, &py_value::i_, i); }
py_value py_value::floating(double f) { return with(kind::floating, &py_value::f_, f); }
py_value py_value::string(std::string s) { return with(kind::string, &py_value::s_, std::move(s)); }
py_value py_value::list(items_t items) {
  return with(kind::list, &py_value::items_, std::move(items));
}
py_value py_value::tuple(items_t items) {
  return with(kind::tuple, &py_value::items_, std::move(items));
}

py_value py_value::set(items_t items) {
  py_value v;
  v.kind_ = kind::set;
  for (auto& item : items)
    if (!py_in(item, v.items_)) v.items_.push_back(std::move(item));
  return v;
}

py_value py_value::dict(entries_t entries) {
  py_value v;
  v.kind_ = kind::dict;
  for (auto& [key, value] : entries) v.set_item(std::move(key), std::move(value));
  return v;
}

bool py_value::is_number() const noexcept {
  return kind_ == kind::boolean || kind_ == kind::integer || kind_ == kind::floating;
}

double py_value::number() const noexcept {
  switch (kind_) {
    case kind::boolean: return b_ ? 1.0 : 0.0;
    case kind::integer: return static_cast<double>(i_);
    case kind::floating: return f_;
    default: return 0;
  }
}

std::size_t py_value::size() const noexcept {
  switch (kind_) {
    case kind::string: {
      std::size_t n = 0;
      for (unsigned char c : s_) n += (c & 0xC0) != 0x80;
      return n;
    }
    case kind::list:
    case kind::tuple:
    case kind::set: return items_.size();
    case kind::dict: return entries_.size();
    default: return 0;
  }
}

const py_value* py_value::find(std::string_view key) const noexcept {
  if (kind_ != kind::dict) return nullptr;
  for (const auto& [k, v] : entries_)
    if (k.kind_ == kind::string && k.s_ == key) return &v;
  return nullptr;
}

py_value* py_value::find(std::string_view key) noexcept {
  return const_cast<py_value*>(std::as_const(*this).find(key));
}

const py_value* py_value::find(const py_value& key) const noexcept {
  if (kind_ != kind::dict) return nullptr;
  for (const auto& [k, v] : entries_)
    if (k == key) return &v;
  return nullptr;
}

void py_value::set_item(py_value key, py_value value) {
  for (auto& [k, v] : entries_) {
    if (k == key) {  // Python keeps the first key object and replaces the value
      v = std::move(value);
      return;
    }
  }
  entries_.emplace_back(std::move(key), std::move(value));
}

std::string_view py_value::type_name() const noexcept {
  switch (kind_) {
    case kind::none: return "NoneType";
    case kind::boolean: return "bool";
    case kind::integer: return "int";
    case kind::floating: return "float";
    case kind::string: return "str";
    case kind::list: return "list";
    case kind::tuple: return "tuple";
    case kind::set: return "set";
    case kind::dict: return "dict";
  }
  return "object";
}

bool operator==(const py_value& a, const py_value& b) noexcept {
  using k = py_value::kind;
  if (a.is_number() && b.is_number()) {
    if (a.kind_ != k::floating && b.kind_ != k::floating) {
      auto ai = a.kind_ == k::boolean ? std::int64_t{a.b_} : a.i_;
      auto bi = b.kind_ == k::boolean ? std::int64_t{b.b_} : b.i_;
      return ai == bi;
    }
    return a.number() == b.number();
  }
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case k::none: return true;
    case k::string: return a.s_ == b.s_;
    case k::list:
    case k::tuple: return a.items_ == b.items_;
    case k::set:
      if (a.items_.size() != b.items_.size()) return false;
      for (const auto& x : a.items_)
        if (!py_in(x, b.items_)) return false;
      return true;
    case k::dict:
      if (a.entries_.size() != b.entries_.size()) return false;
      for (const auto& [key, value] : a.entries_) {
        const py_value* other = b.find(key);
        if (!other || !(*other == value)) return false;
      }
      return true;
    default: return false;
  }
}

bool py_in(const py_value& value, const py_value::items_t& values) noexcept {
  for (const auto& v : values)
    if (v == value) return true;
  return false;
}

std::string py_float_repr(double f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
  if (f == 0) return std::signbit(f) ? "-0.0" : "0.0";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  // sci: [-]d[.ddd]e[+-]XX
  bool neg = sci[0] == '-';
  if (neg) sci.erase(0, 1);
  auto e = sci.find('e');
  int exp = std::stoi(sci.substr(e + 1));
  std::string digits;
  for (char c : sci.substr(0, e))
    if (c != '.') digits += c;
  std::string out = neg ? "-" : "";
  if (exp < -4 || exp >= 16) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    char eb[16];
    std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return out + eb;
  }
  if (exp < 0) return out + "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
  auto point = static_cast<std::size_t>(exp + 1);
  if (digits.size() <= point) return out + digits + std::string(point - digits.size(), '0') + ".0";
  return out + digits.substr(0, point) + "." + digits.substr(point);
}

std::string py_str_repr(std::string_view s) {
  bool has_single = s.find('\'') != std::string_view::npos;
  bool has_double = s.find('"') != std::string_view::npos;
  return python_quoted(s, has_single && !has_double ? '"' : '\'');
}

namespace {
std::string join_repr(const py_value::items_t& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += items[i].repr();
  }
  return out;
}
}  // namespace

std::string py_value::repr() const {
  switch (kind_) {
    case kind::none: return "None";
    case kind::boolean: return b_ ? "True" : "False";
    case kind::integer: return std::to_string(i_);
    case kind::floating: return py_float_repr(f_);
    case kind::string: return py_str_repr(s_);
    case kind::list: return "[" + join_repr(items_) + "]";
    case kind::tuple: return items_.size() == 1 ? "(" + items_[0].repr() + ",)" : "(" + join_repr(items_) + ")";
    case kind::set: return items_.empty() ? "set()" : "{" + join_repr(items_) + "}";
    case kind::dict: {
      std::string out = "{";
      for (std::size_t i = 0; i < entries_.size(); ++i) {
        if (i) out += ", ";
        out += entries_[i].first.repr() + ": " + entries_[i].second.repr();
      }
      return out + "}";
    }
  }
  return "";
}

std::string py_value::str() const { return kind_ == kind::string ? s_ : repr(); }

py_value py_value::from_json(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return none();
    case json::value_t::boolean: return boolean(j.get<bool>());
    case json::value_t::number_integer: return integer(j.get<std::int64_t>());
    case json::value_t::number_unsigned: {
      auto u = j.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return integer(static_cast<std::int64_t>(u));
      return floating(static_cast<double>(u));
    }
    case json::value_t::number_float: return floating(j.get<double>());
    case json::value_t::string: return string(j.get<std::string>());
    case json::value_t::array: {
      items_t items;
      items.reserve(j.size());
      for (const auto& e : j) items.push_back(from_json(e));
      return list(std::move(items));
    }
    case json::value_t::object: {
      py_value d;
      d.kind_ = kind::dict;
      d.entries_.reserve(j.size());
      for (const auto& [k, v] : j.items()) d.set_item(string(k), from_json(v));
      return d;
    }
    default: return none();
  }
}

json py_value::to_json() const {
  switch (kind_) {
    case kind::none: return nullptr;
    case kind::boolean: return b_;
    case kind::integer: return i_;
    case kind::floating: return std::isfinite(f_) ? json(f_) : json(py_float_repr(f_));
    case kind::string: return s_;
    case kind::list:
    case kind::tuple:
    case kind::set: {
      json a = json::array();
      for (const auto& e : items_) a.push_back(e.to_json());
      return a;
    }
    case kind::dict: {
      json o = json::object();
      for (const auto& [k, v] : entries_) o[k.str()] = v.to_json();
      return o;
    }
  }
  return nullptr;
}

}  // namespace tooluse::eval
