// Lenient coercion of model-written arguments, guided by the compiled schema (coerce.hpp).
#include "tooluse/schema/coerce.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "schema/evaluator.hpp"
#include "schema/validator_access.hpp"
#include "tooluse/text.hpp"

namespace tooluse::schema {
namespace {

using detail::node;

// The nodes whose keywords apply in place to the same value: n, its $ref / $dynamicRef
// (static) targets and allOf members, transitively.
void in_place_nodes(const node* n, std::vector<const node*>& out, int depth = 0) {
  if (!n || depth > 32 || std::find(out.begin(), out.end(), n) != out.end()) return;
  out.push_back(n);
  in_place_nodes(n->ref, out, depth + 1);
  in_place_nodes(n->dynamic_ref, out, depth + 1);
  for (const node* c : n->all_of) in_place_nodes(c, out, depth + 1);
}

bool is_json_number_text(const std::string& s) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  std::size_t int_start = i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == int_start || (s[int_start] == '0' && i - int_start > 1)) return false;
  if (i < s.size() && s[i] == '.') {
    std::size_t frac = ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == frac) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exp = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == exp) return false;
  }
  return i == s.size();
}

struct coercer {
  const coerce_options& options;
  std::vector<coercion>& changes;

  void record(const std::string& path, const json& from, const json& to, std::string rule) {
    changes.push_back({path, from, to, std::move(rule)});
  }

  bool valid(const node& n, const json& v) {
    detail::evaluator e{.max_depth = 512};
    return e.eval(n, v, nullptr);
  }

  // scalar converts `v` to one of `types` if a rule allows it.
  void scalar(std::uint8_t types, json& v, const std::string& path) {
    using namespace detail;
    if (!types || type_matches(types, v)) return;
    if (v.is_number_float() && (types & t_integer) && !(types & t_number)) return;
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      if ((types & (t_integer | t_number)) && is_json_number_text(s)) {
        auto bounded = parse_json(s);
        json parsed = bounded ? std::move(*bounded) : json(json::value_t::discarded);
        if (!parsed.is_discarded() && (!parsed.is_number_float() ||
                                       std::isfinite(parsed.get<double>()))) {
          bool want_int = (types & t_integer) && !(types & t_number);
          if (want_int && parsed.is_number_float() && is_integer_value(parsed) &&
              std::fabs(parsed.get<double>()) < 9e15)
            parsed = static_cast<std::int64_t>(parsed.get<double>());
          if (!want_int || parsed.is_number_integer()) {
            record(path, v, parsed, want_int ? "string_to_integer" : "string_to_number");
            v = std::move(parsed);
            return;
          }
        }
      }
      if (types & t_boolean) {
        std::string l = ascii_lower(s);
        if (l == "true" || l == "yes" || l == "1" || l == "false" || l == "no" || l == "0") {
          json b = l == "true" || l == "yes" || l == "1";
          record(path, v, b, "string_to_boolean");
          v = std::move(b);
          return;
        }
      }
      if (types & (t_object | t_array)) {
        auto bounded = parse_json(s);
        json parsed = bounded ? std::move(*bounded) : json(json::value_t::discarded);
        if (!parsed.is_discarded() && type_matches(types & (t_object | t_array), parsed)) {
          record(path, v, parsed, "json_string");
          v = std::move(parsed);
          return;
        }
      }
    }
    if (types & t_array) {
      json wrapped = json::array({v});
      record(path, v, wrapped, "wrap_in_array");
      v = std::move(wrapped);
    }
  }

  void clamp(const std::vector<const node*>& chain, json& v, const std::string& path) {
    if (!options.clamp || !v.is_number()) return;
    for (const node* n : chain) {
      long double x = detail::to_long_double(v);
      std::optional<long double> bound;
      if (n->minimum && x < *n->minimum) bound = *n->minimum;
      if (n->maximum && x > *n->maximum) bound = *n->maximum;
      if (!bound) continue;
      json to = v.is_number_integer() && *bound == std::floor(*bound) &&
                        std::fabs(*bound) < 9e18L
                    ? json(static_cast<std::int64_t>(*bound))
                    : json(static_cast<double>(*bound));
      record(path, v, to, "clamp");
      v = std::move(to);
    }
  }

  void walk(const node& root, json& v, const std::string& path, int depth) {
    if (depth > 64 || root.trivially_true || root.always_false) return;
    std::vector<const node*> chain;
    in_place_nodes(&root, chain);
    std::uint8_t types = 0;
    for (const node* n : chain) types |= n->types;
    if (v.is_number_float() && (types & detail::t_integer) && !(types & detail::t_number) &&
        detail::is_integer_value(v) && std::fabs(v.get<double>()) < 9e15) {
      json to = static_cast<std::int64_t>(v.get<double>());
      record(path, v, to, "number_to_integer");
      v = std::move(to);
    }
    if (!valid(root, v)) scalar(types, v, path);
    clamp(chain, v, path);
    for (const node* n : chain) {
      if (v.is_object()) members(*n, v, path, depth);
      if (v.is_array()) items(*n, v, path, depth);
      alternatives(n->any_of, v, path, depth);
      alternatives(n->one_of, v, path, depth);
    }
  }

  void members(const node& n, json& v, const std::string& path, int depth) {
    for (auto it = v.begin(); it != v.end(); ++it) {
      std::string child = path;
      detail::append_path(child, {&it.key(), 0});
      if (const node* p = n.find_property(it.key())) {
        walk(*p, it.value(), child, depth + 1);
        continue;
      }
      bool matched = false;
      for (const auto& [re, sub] : n.pattern_properties)
        if (re.search(it.key())) {
          matched = true;
          walk(*sub, it.value(), child, depth + 1);
        }
      if (!matched && n.additional_properties) walk(*n.additional_properties, it.value(), child, depth + 1);
    }
  }

  void items(const node& n, json& v, const std::string& path, int depth) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      const node* sub = i < n.prefix_items.size() ? n.prefix_items[i] : n.items;
      if (!sub) continue;
      std::string child = path;
      detail::append_path(child, {nullptr, i});
      walk(*sub, v[i], child, depth + 1);
    }
  }

  void alternatives(const std::vector<const node*>& branches, json& v, const std::string& path,
                    int depth) {
    if (branches.empty()) return;
    for (const node* b : branches)
      if (valid(*b, v)) return;
    for (const node* b : branches) {
      json copy = v;
      std::vector<coercion> tried;
      coercer sub{options, tried};
      sub.walk(*b, copy, path, depth + 1);
      if (!tried.empty() && valid(*b, copy)) {
        v = std::move(copy);
        changes.insert(changes.end(), tried.begin(), tried.end());
        return;
      }
    }
  }
};

}  // namespace

coerce_outcome coerce(const validator& v, json instance, const coerce_options& options) {
  coerce_outcome out;
  const auto& impl = detail::validator_access::impl(v);
  coercer c{options, out.coercions};
  c.walk(*impl.root, instance, options.root_path, 0);
  out.errors = v.validate(instance, {.root_path = options.root_path, .max_errors = options.max_errors});
  out.value = std::move(instance);
  return out;
}

json coercions_to_json(const std::vector<coercion>& coercions) {
  json out = json::array();
  for (const auto& c : coercions)
    out.push_back({{"path", c.path}, {"from", c.from}, {"to", c.to}, {"rule", c.rule}});
  return out;
}

}  // namespace tooluse::schema
