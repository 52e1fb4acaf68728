// The schema compiler's second half: one subschema's keywords parsed into a node, with the
// schema's own mistakes reported as errc::schema_error naming the keyword and its location.
#include <algorithm>
#include <cmath>

#include "schema/compiler.hpp"

namespace tooluse::schema::detail {
namespace {

tl::unexpected<error> bad(const schema_info& where, std::string_view keyword,
                          const std::string& what) {
  return fail(errc::schema_error,
              "keyword \"" + std::string(keyword) + "\" at " + where.location + ": " + what);
}

const json* find(const json& s, std::string_view keyword) {
  auto it = s.find(std::string(keyword));
  return it == s.end() ? nullptr : &*it;
}

// count reads a non-negative integer keyword ("minLength": 2; 2.0 is accepted too).
status count(const json& s, std::string_view keyword, const schema_info& where,
             std::optional<std::uint64_t>& out) {
  const json* v = find(s, keyword);
  if (!v) return {};
  if (!v->is_number() || !is_integer_value(*v) || to_long_double(*v) < 0)
    return bad(where, keyword, "expected a non-negative integer, got " + describe_value(*v));
  long double d = to_long_double(*v);
  out = d >= 1.8e19L ? UINT64_MAX : static_cast<std::uint64_t>(d);
  return {};
}

status number(const json& s, std::string_view keyword, const schema_info& where,
              std::optional<long double>& out) {
  const json* v = find(s, keyword);
  if (!v) return {};
  if (!v->is_number()) return bad(where, keyword, "expected a number, got " + describe_value(*v));
  out = to_long_double(*v);
  return {};
}

result<std::uint8_t> parse_type_name(const json& v, const schema_info& where) {
  static const std::pair<std::string_view, std::uint8_t> k_types[] = {
      {"null", t_null},     {"boolean", t_boolean}, {"integer", t_integer}, {"number", t_number},
      {"string", t_string}, {"array", t_array},     {"object", t_object},
  };
  if (v.is_string())
    for (const auto& [name, bit] : k_types)
      if (v.get_ref<const std::string&>() == name) return bit;
  return bad(where, "type",
             "expected one of null, boolean, integer, number, string, array, object; got " +
                 short_json(v));
}

status string_list(const json& v, std::string_view keyword, const schema_info& where,
                   std::vector<std::string>& out) {
  if (!v.is_array())
    return bad(where, keyword, "expected an array of strings, got " + describe_value(v));
  for (const auto& item : v) {
    if (!item.is_string())
      return bad(where, keyword, "expected an array of strings, found " + describe_value(item));
    out.push_back(item.get<std::string>());
  }
  return {};
}

}  // namespace

status compiler::fill(node& n) {
  const json& s = *n.source;
  const schema_info where = info.at(n.source);
  if (s.is_boolean()) {
    n.always_false = !s.get<bool>();
    n.trivially_true = s.get<bool>();
    return {};
  }
  if (!s.is_object())
    return fail(errc::schema_error, "the schema at " + where.location +
                                        " must be an object or a boolean, got " +
                                        std::string(type_name(s)));
  if (auto st = fill_references(n, s, where); !st) return st;
  if (n.res->vocab & v_applicator)
    if (auto st = fill_applicators(n, s, where); !st) return st;
  if (auto st = fill_scalars(n, s, where); !st) return st;
  if (auto st = fill_arrays(n, s, where); !st) return st;
  if (auto st = fill_objects(n, s, where); !st) return st;
  n.has_unevaluated = n.unevaluated_items || n.unevaluated_properties;
  return {};
}

status compiler::fill_references(node& n, const json& s, const schema_info& where) {
  if (const json* ref = find(s, "$ref")) {
    if (!ref->is_string()) return bad(where, "$ref", "expected a string, got " + describe_value(*ref));
    auto target = resolve_ref(ref->get<std::string>(), where, "$ref");
    if (!target) return fail(target.error());
    n.ref = *target;
  }
  if (const json* ref = find(s, "$dynamicRef")) {
    if (!ref->is_string())
      return bad(where, "$dynamicRef", "expected a string, got " + describe_value(*ref));
    const std::string& text = ref->get_ref<const std::string&>();
    auto target = resolve_ref(text, where, "$dynamicRef");
    if (!target) return fail(target.error());
    n.dynamic_ref = *target;
    // The reference is dynamic only when its fragment is a name and the statically resolved
    // target declares that same $dynamicAnchor (2020-12's "bookending" rule).
    std::string fragment = split_fragment(text).second;
    const json& t = *(*target)->source;
    if (!fragment.empty() && fragment[0] != '/' && t.is_object())
      if (const json* anchor = find(t, "$dynamicAnchor"); anchor && *anchor == fragment)
        n.dynamic_anchor = fragment;
  }
  return {};
}

status compiler::fill_applicators(node& n, const json& s, const schema_info& where) {
  auto list = [&](std::string_view kw, std::vector<const node*>& out) -> status {
    const json* v = find(s, kw);
    if (!v) return {};
    if (!v->is_array() || v->empty())
      return bad(where, kw, "expected a non-empty array of schemas, got " + describe_value(*v));
    for (std::size_t i = 0; i < v->size(); ++i)
      out.push_back(child((*v)[i], where, std::string(kw) + "/" + std::to_string(i)));
    return {};
  };
  auto single = [&](std::string_view kw, const node*& out) -> status {
    const json* v = find(s, kw);
    if (!v) return {};
    if (!is_schema(*v))
      return bad(where, kw, "expected a schema (object or boolean), got " + describe_value(*v));
    out = child(*v, where, std::string(kw));
    return {};
  };
  for (auto st : {list("allOf", n.all_of), list("anyOf", n.any_of), list("oneOf", n.one_of),
                  single("not", n.not_schema), single("if", n.if_schema),
                  single("then", n.then_schema), single("else", n.else_schema),
                  single("contains", n.contains), single("propertyNames", n.property_names),
                  single("additionalProperties", n.additional_properties)})
    if (!st) return st;
  if (!n.if_schema) n.then_schema = n.else_schema = nullptr;
  if (n.res->vocab & v_unevaluated) {
    if (auto st = single("unevaluatedItems", n.unevaluated_items); !st) return st;
    if (auto st = single("unevaluatedProperties", n.unevaluated_properties); !st) return st;
  }
  if (auto st = list("prefixItems", n.prefix_items); !st) return st;
  const json* items = find(s, "items");
  if (items && items->is_array()) {
    // Draft 2019-09 and older: "items": [...] is prefixItems, "additionalItems" the rest.
    for (std::size_t i = 0; i < items->size(); ++i)
      n.prefix_items.push_back(child((*items)[i], where, "items/" + std::to_string(i)));
    return single("additionalItems", n.items);
  }
  return single("items", n.items);
}

status compiler::fill_scalars(node& n, const json& s, const schema_info& where) {
  const bool validation = n.res->vocab & v_validation;
  if (const json* t = find(s, "type"); t && validation) {
    for (const json& name : t->is_array() ? *t : json::array({*t})) {
      auto bit = parse_type_name(name, where);
      if (!bit) return fail(bit.error());
      n.types |= *bit;
    }
    if (n.types == 0) return bad(where, "type", "expected at least one type");
  }
  if (const json* e = find(s, "enum"); e && validation) {
    if (!e->is_array()) return bad(where, "enum", "expected an array, got " + describe_value(*e));
    n.has_enum = true;
    n.enum_values.assign(e->begin(), e->end());
    n.enum_all_strings = std::all_of(e->begin(), e->end(), [](const json& v) { return v.is_string(); });
  }
  if (const json* c = find(s, "const"); c && validation) n.const_value = *c;
  if (validation) {
    for (auto st : {number(s, "minimum", where, n.minimum), number(s, "maximum", where, n.maximum),
                    number(s, "exclusiveMinimum", where, n.exclusive_minimum),
                    number(s, "exclusiveMaximum", where, n.exclusive_maximum),
                    number(s, "multipleOf", where, n.multiple_of),
                    count(s, "minLength", where, n.min_length),
                    count(s, "maxLength", where, n.max_length)})
      if (!st) return st;
    if (n.multiple_of && !(*n.multiple_of > 0))
      return bad(where, "multipleOf", "expected a number greater than 0");
    if (const json* p = find(s, "pattern")) {
      if (!p->is_string()) return bad(where, "pattern", "expected a string, got " + describe_value(*p));
      auto re = compile_regex(p->get_ref<const std::string&>());
      if (!re) return bad(where, "pattern", re.error().message);
      n.pattern = std::move(*re);
    }
  }
  if (const json* f = find(s, "format"); f && f->is_string()) {
    bool assert = options.format_assertion || (n.res->vocab & v_format_assertion);
    if (assert) {
      n.format = parse_format(f->get_ref<const std::string&>());
      n.format_name = f->get<std::string>();
      if (n.format == format_kind::unknown) n.format = format_kind::none;
    }
  }
  return {};
}

status compiler::fill_arrays(node& n, const json& s, const schema_info& where) {
  if (!(n.res->vocab & v_validation)) return {};
  for (auto st : {count(s, "minItems", where, n.min_items), count(s, "maxItems", where, n.max_items),
                  count(s, "minContains", where, n.min_contains),
                  count(s, "maxContains", where, n.max_contains)})
    if (!st) return st;
  if (const json* u = find(s, "uniqueItems")) {
    if (!u->is_boolean())
      return bad(where, "uniqueItems", "expected a boolean, got " + describe_value(*u));
    n.unique_items = u->get<bool>();
  }
  return {};
}

status compiler::fill_objects(node& n, const json& s, const schema_info& where) {
  if (n.res->vocab & v_validation) {
    for (auto st : {count(s, "minProperties", where, n.min_properties),
                    count(s, "maxProperties", where, n.max_properties)})
      if (!st) return st;
    if (const json* r = find(s, "required"))
      if (auto st = string_list(*r, "required", where, n.required); !st) return st;
    if (const json* d = find(s, "dependentRequired")) {
      if (!d->is_object())
        return bad(where, "dependentRequired", "expected an object, got " + describe_value(*d));
      for (auto it = d->begin(); it != d->end(); ++it) {
        auto& entry = n.dependent_required.emplace_back(it.key(), std::vector<std::string>{});
        if (auto st = string_list(it.value(), "dependentRequired", where, entry.second); !st)
          return st;
      }
    }
  }
  if (n.res->vocab & v_applicator) return fill_object_maps(n, s, where);
  return {};
}

status compiler::fill_object_maps(node& n, const json& s, const schema_info& where) {
  auto schema_map = [&](std::string_view kw, auto&& add) -> status {
    const json* v = find(s, kw);
    if (!v) return {};
    if (!v->is_object())
      return bad(where, kw, "expected an object of schemas, got " + describe_value(*v));
    for (auto it = v->begin(); it != v->end(); ++it) {
      if (!is_schema(it.value()))
        return bad(where, kw, "\"" + it.key() + "\" must be a schema, got " +
                                  describe_value(it.value()));
      if (auto st = add(it.key(), child(it.value(), where, std::string(kw) + "/" + it.key())); !st)
        return st;
    }
    return {};
  };
  auto st = schema_map("properties", [&](const std::string& key, const node* c) -> status {
    n.properties.emplace_back(key, c);
    n.property_order.push_back(key);
    return {};
  });
  if (!st) return st;
  std::sort(n.properties.begin(), n.properties.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  st = schema_map("patternProperties", [&](const std::string& key, const node* c) -> status {
    auto re = compile_regex(key);
    if (!re) return bad(where, "patternProperties", re.error().message);
    n.pattern_properties.emplace_back(std::move(*re), c);
    return {};
  });
  if (!st) return st;
  st = schema_map("dependentSchemas", [&](const std::string& key, const node* c) -> status {
    n.dependent_schemas.emplace_back(key, c);
    return {};
  });
  if (!st) return st;
  // Draft 7 "dependencies" (arrays: dependentRequired, schemas: dependentSchemas), for tool
  // schemas written against older drafts.
  if (const json* d = find(s, "dependencies"); d && d->is_object())
    for (auto it = d->begin(); it != d->end(); ++it) {
      if (it.value().is_array()) {
        auto& entry = n.dependent_required.emplace_back(it.key(), std::vector<std::string>{});
        if (auto st2 = string_list(it.value(), "dependencies", where, entry.second); !st2)
          return st2;
      } else if (is_schema(it.value())) {
        n.dependent_schemas.emplace_back(it.key(),
                                         child(it.value(), where, "dependencies/" + it.key()));
      }
    }
  return {};
}

}  // namespace tooluse::schema::detail
