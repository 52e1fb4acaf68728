// Evaluation of array and object keywords, and of unevaluatedItems / unevaluatedProperties.
#include <algorithm>

#include "schema/evaluator.hpp"

namespace tooluse::schema::detail {
namespace {

// plural writes "1 item", "2 items", "2 properties".
std::string plural(std::uint64_t n, std::string_view word) {
  std::string out = std::to_string(n) + " " + std::string(word);
  if (n == 1) return out;
  if (word.ends_with('y')) return out.substr(0, out.size() - 1) + "ies";
  return out + "s";
}

// RAII push of one instance path segment.
struct path_scope {
  evaluator& e;
  path_scope(evaluator& ev, const std::string* key, std::size_t index) : e(ev) {
    e.path.push_back({key, index});
  }
  ~path_scope() { e.path.pop_back(); }
  path_scope(const path_scope&) = delete;
  path_scope& operator=(const path_scope&) = delete;
};

std::string allowed_names(const node& n) {
  std::string out;
  for (const auto& name : n.property_order) out += (out.empty() ? "" : ", ") + name;
  for (const auto& [re, unused] : n.pattern_properties)
    out += (out.empty() ? "names matching " : ", names matching ") + short_json(json(re.source));
  return out.empty() ? "none" : out;
}

}  // namespace

void annotations::mark_prop(std::size_t i, std::size_t size) {
  if (props.size() < size) props.resize(size, 0);
  props[i] = 1;
}

void annotations::mark_item(std::size_t i, std::size_t size) {
  if (items.size() < size) items.resize(size, 0);
  items[i] = 1;
}

void annotations::merge(const annotations& other) {
  if (props.size() < other.props.size()) props.resize(other.props.size(), 0);
  for (std::size_t i = 0; i < other.props.size(); ++i) props[i] |= other.props[i];
  if (items.size() < other.items.size()) items.resize(other.items.size(), 0);
  for (std::size_t i = 0; i < other.items.size(); ++i) items[i] |= other.items[i];
}

bool evaluator::eval_array(const node& n, const json& inst, annotations* a) {
  bool ok = true;
  const std::size_t size = inst.size();
  if (n.min_items && size < *n.min_items)
    ok = report("minItems", "expected at least " + plural(*n.min_items, "item") + ", got " +
                                std::to_string(size));
  if (n.max_items && size > *n.max_items)
    ok = report("maxItems", "expected at most " + plural(*n.max_items, "item") + ", got " +
                                std::to_string(size));
  if (n.unique_items)
    for (std::size_t i = 0; i < size && ok; ++i)
      for (std::size_t j = i + 1; j < size; ++j)
        if (json_equal(inst[i], inst[j])) {
          ok = report("uniqueItems", "expected unique items, but items " + std::to_string(i) +
                                         " and " + std::to_string(j) + " are equal");
          break;
        }
  if (!ok && stop()) return false;
  const std::size_t prefix = std::min(size, n.prefix_items.size());
  for (std::size_t i = 0; i < prefix; ++i) {
    path_scope ps(*this, nullptr, i);
    ok = eval(*n.prefix_items[i], inst[i], nullptr) && ok;
    if (!ok && stop()) return false;
    if (a) a->mark_item(i, size);
  }
  if (n.items && size > prefix) {
    if (n.items->always_false) {
      ok = report("items", "expected at most " + plural(prefix, "item") + ", got " +
                               std::to_string(size));
    } else {
      for (std::size_t i = prefix; i < size; ++i) {
        path_scope ps(*this, nullptr, i);
        ok = eval(*n.items, inst[i], nullptr) && ok;
        if (!ok && stop()) return false;
      }
    }
    if (a)
      for (std::size_t i = prefix; i < size; ++i) a->mark_item(i, size);
  }
  if (n.contains) {
    std::uint64_t matches = 0;
    for (std::size_t i = 0; i < size; ++i)
      if (test(*n.contains, inst[i], nullptr)) {
        ++matches;
        if (a) a->mark_item(i, size);
      }
    std::uint64_t min = n.min_contains.value_or(1);
    if (matches < min)
      ok = report("contains", "expected at least " + plural(min, "item") + " matching " +
                                  expectation(*n.contains) + ", got " + std::to_string(matches));
    if (n.max_contains && matches > *n.max_contains)
      ok = report("maxContains", "expected at most " + plural(*n.max_contains, "item") +
                                     " matching " + expectation(*n.contains) + ", got " +
                                     std::to_string(matches));
  }
  return ok;
}

bool evaluator::eval_object(const node& n, const json& inst, annotations* a) {
  bool ok = true;
  for (const auto& name : n.required)
    if (!inst.contains(name)) {
      ok = report("required", "missing required property \"" + name + "\"");
      if (stop()) return false;
    }
  const std::size_t size = inst.size();
  if (n.min_properties && size < *n.min_properties)
    ok = report("minProperties", "expected at least " + plural(*n.min_properties, "property") +
                                     ", got " + std::to_string(size));
  if (n.max_properties && size > *n.max_properties)
    ok = report("maxProperties", "expected at most " + plural(*n.max_properties, "property") +
                                     ", got " + std::to_string(size));
  for (const auto& [key, needed] : n.dependent_required)
    if (inst.contains(key))
      for (const auto& name : needed)
        if (!inst.contains(name))
          ok = report("dependentRequired", "missing property \"" + name +
                                               "\", required when \"" + key + "\" is present");
  if (!ok && stop()) return false;
  if (n.property_names)
    for (auto it = inst.begin(); it != inst.end(); ++it) {
      std::vector<validation_error> why;
      auto* saved = errors;
      errors = saved ? &why : nullptr;
      bool valid = eval(*n.property_names, json(it.key()), nullptr);
      errors = saved;
      if (!valid) {
        ok = report("propertyNames", "invalid property name \"" + it.key() + "\"" +
                                         (why.empty() ? "" : ": " + why.front().message));
        if (stop()) return false;
      }
    }
  return eval_members(n, inst, a) && ok;
}

bool evaluator::eval_members(const node& n, const json& inst, annotations* a) {
  if (n.properties.empty() && n.pattern_properties.empty() && !n.additional_properties)
    return true;
  bool ok = true;
  const std::size_t size = inst.size();
  std::size_t i = 0;
  for (auto it = inst.begin(); it != inst.end(); ++it, ++i) {
    const std::string& key = it.key();
    bool matched = false;
    if (const node* p = n.find_property(key)) {
      matched = true;
      path_scope ps(*this, &key, 0);
      ok = eval(*p, it.value(), nullptr) && ok;
    }
    for (const auto& [re, sub] : n.pattern_properties)
      if (re.search(key)) {
        matched = true;
        path_scope ps(*this, &key, 0);
        ok = eval(*sub, it.value(), nullptr) && ok;
      }
    if (!matched && n.additional_properties) {
      matched = true;
      if (n.additional_properties->always_false) {
        ok = report("additionalProperties",
                    "unknown property \"" + key + "\" (allowed: " + allowed_names(n) + ")");
      } else {
        path_scope ps(*this, &key, 0);
        ok = eval(*n.additional_properties, it.value(), nullptr) && ok;
      }
    }
    if (matched && a) a->mark_prop(i, size);
    if (!ok && stop()) return false;
  }
  return ok;
}

bool evaluator::eval_unevaluated(const node& n, const json& inst, annotations& a) {
  bool ok = true;
  const std::size_t size = inst.size();
  if (inst.is_object() && n.unevaluated_properties) {
    std::size_t i = 0;
    for (auto it = inst.begin(); it != inst.end(); ++it, ++i) {
      if (i < a.props.size() && a.props[i]) continue;
      if (n.unevaluated_properties->always_false) {
        ok = report("unevaluatedProperties", "unknown property \"" + it.key() + "\"");
      } else {
        path_scope ps(*this, &it.key(), 0);
        ok = eval(*n.unevaluated_properties, it.value(), nullptr) && ok;
      }
      if (!ok && stop()) return false;
    }
    for (std::size_t k = 0; k < size; ++k) a.mark_prop(k, size);
  }
  if (inst.is_array() && n.unevaluated_items) {
    for (std::size_t i = 0; i < size; ++i) {
      if (i < a.items.size() && a.items[i]) continue;
      if (n.unevaluated_items->always_false) {
        path_scope ps(*this, nullptr, i);
        ok = report("unevaluatedItems", "unexpected item (not allowed by the schema)");
      } else {
        path_scope ps(*this, nullptr, i);
        ok = eval(*n.unevaluated_items, inst[i], nullptr) && ok;
      }
      if (!ok && stop()) return false;
    }
    for (std::size_t k = 0; k < size; ++k) a.mark_item(k, size);
  }
  return ok;
}

}  // namespace tooluse::schema::detail
