// The schema compiler's first half: documents, identifiers ($id, $anchor, $dynamicAnchor),
// references, metaschemas and vocabularies. Subschemas are compiled from a work list, so deep
// $ref chains do not recurse.
#include "schema/compiler.hpp"

#include <algorithm>

namespace tooluse::schema::detail {
namespace {

constexpr std::string_view k_single_keywords[] = {
    "additionalProperties", "propertyNames", "contains", "not", "if", "then", "else",
    "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems", "items",
};
constexpr std::string_view k_map_keywords[] = {
    "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies",
};
constexpr std::string_view k_array_keywords[] = {"allOf", "anyOf", "oneOf", "prefixItems", "items"};

std::string pointer_escape(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

const node* resource::find_dynamic(std::string_view name) const {
  for (const auto& [anchor, target] : dynamic_anchors)
    if (anchor == name) return target;
  return nullptr;
}

const node* node::find_property(std::string_view name) const {
  auto it = std::lower_bound(properties.begin(), properties.end(), name,
                             [](const auto& p, std::string_view n) { return p.first < n; });
  return it != properties.end() && it->first == name ? it->second : nullptr;
}

status compiler::add_document(const json& doc, const std::string& uri) {
  index.emplace(uri, &doc);
  std::string location = uri == options.base_uri ? "#" : uri + "#";
  return walk(doc, uri, nullptr, location, 0);
}

status compiler::walk(const json& s, std::string base, resource* res,
                      const std::string& location, int depth) {
  if (static_cast<std::size_t>(depth) > out.max_depth)
    return fail(errc::schema_error, "the schema nests more than " +
                                        std::to_string(out.max_depth) + " levels deep at " +
                                        location);
  if (!s.is_object()) {
    if (!res) {
      res = &out.resources.emplace_back();
      res->uri = base;
    }
    info.try_emplace(&s, schema_info{base, res, location});
    return {};
  }
  auto id = s.find("$id");
  if (id != s.end() && id->is_string()) {
    base = split_fragment(resolve_uri(base, id->get<std::string>())).first;
    index.emplace(base, &s);
    res = nullptr;
  }
  if (!res) {
    res = &out.resources.emplace_back();
    res->uri = base;
    if (auto meta = s.find("$schema"); meta != s.end() && meta->is_string()) apply_metaschema(*res, s);
  }
  info.try_emplace(&s, schema_info{base, res, location});
  if (auto a = s.find("$anchor"); a != s.end() && a->is_string())
    index.emplace(base + "#" + a->get<std::string>(), &s);
  if (auto a = s.find("$dynamicAnchor"); a != s.end() && a->is_string()) {
    index.emplace(base + "#" + a->get<std::string>(), &s);
    res->dynamic_anchor_sources.emplace_back(a->get<std::string>(), &s);
  }
  for (auto kw : k_single_keywords)
    if (auto it = s.find(std::string(kw)); it != s.end() && is_schema(*it))
      if (auto st = walk(*it, base, res, location + "/" + std::string(kw), depth + 1); !st)
        return st;
  for (auto kw : k_map_keywords) {
    auto it = s.find(std::string(kw));
    if (it == s.end() || !it->is_object()) continue;
    for (auto m = it->begin(); m != it->end(); ++m)
      if (is_schema(m.value()))
        if (auto st = walk(m.value(), base, res,
                           location + "/" + std::string(kw) + "/" + pointer_escape(m.key()),
                           depth + 1);
            !st)
          return st;
  }
  for (auto kw : k_array_keywords) {
    auto it = s.find(std::string(kw));
    if (it == s.end() || !it->is_array()) continue;
    for (std::size_t i = 0; i < it->size(); ++i)
      if (auto st = walk((*it)[i], base, res,
                         location + "/" + std::string(kw) + "/" + std::to_string(i), depth + 1);
          !st)
        return st;
  }
  return {};
}

// A metaschema's $vocabulary decides which keywords its schemas may use: a custom metaschema
// without the validation vocabulary turns "minimum" and friends into annotations.
void compiler::apply_metaschema(resource& res, const json& s) {
  std::string uri = split_fragment(s["$schema"].get<std::string>()).first;
  const json* meta = load_document(uri);
  if (!meta || !meta->is_object()) return;
  auto vocabulary = meta->find("$vocabulary");
  if (vocabulary == meta->end() || !vocabulary->is_object()) return;
  std::uint8_t bits = 0;
  for (auto it = vocabulary->begin(); it != vocabulary->end(); ++it) {
    const std::string& v = it.key();
    auto ends_with = [&](std::string_view tail) {
      return v.size() >= tail.size() && v.compare(v.size() - tail.size(), tail.size(), tail) == 0;
    };
    if (ends_with("/vocab/applicator")) bits |= v_applicator;
    if (ends_with("/vocab/validation")) bits |= v_validation;
    if (ends_with("/vocab/unevaluated")) bits |= v_unevaluated;
    if (ends_with("/vocab/format-assertion")) bits |= v_format_assertion;
  }
  res.vocab = bits;
}

const json* compiler::load_document(const std::string& uri) {
  if (auto it = index.find(uri); it != index.end()) return it->second;
  if (!attempted.insert(uri).second) return nullptr;
  std::optional<json> doc;
  if (const json* builtin = builtin_metaschema(uri)) {
    doc = *builtin;
  } else if (options.resolve) {
    doc = options.resolve(uri);
  }
  if (!doc) return nullptr;
  const json& stored = out.documents.emplace_back(std::move(*doc));
  if (!add_document(stored, uri)) return nullptr;
  return &stored;
}

node* compiler::node_for(const json* s, const schema_info& fallback) {
  if (auto it = memo.find(s); it != memo.end()) return it->second;
  const schema_info& where = info.try_emplace(s, fallback).first->second;
  node& n = out.nodes.emplace_back();
  n.source = s;
  n.res = where.res;
  n.location = where.location;
  memo.emplace(s, &n);
  todo.push_back(&n);
  return &n;
}

node* compiler::child(const json& s, const schema_info& parent, const std::string& location) {
  return node_for(&s, schema_info{parent.base, parent.res, parent.location + "/" + location});
}

result<node*> compiler::resolve_ref(const std::string& ref, const schema_info& where,
                                    std::string_view keyword) {
  std::string absolute = resolve_uri(where.base, ref);
  auto [doc_uri, raw_fragment] = split_fragment(absolute);
  std::string fragment = percent_decode(raw_fragment);
  const json* doc = load_document(doc_uri);
  const json* target = nullptr;
  if (doc) {
    if (fragment.empty() || fragment[0] == '/') {
      target = resolve_pointer(*doc, fragment);
    } else if (auto it = index.find(doc_uri + "#" + fragment); it != index.end()) {
      target = it->second;
    }
  }
  if (!target)
    return fail(errc::schema_error, std::string(keyword) + " \"" + ref + "\" at " +
                                        where.location + " does not resolve (looked for \"" +
                                        absolute + "\")");
  if (!is_schema(*target))
    return fail(errc::schema_error, std::string(keyword) + " \"" + ref + "\" at " +
                                        where.location + " points at " +
                                        std::string(type_name(*target)) + ", not a schema");
  schema_info fallback = where;
  if (auto it = info.find(doc); it != info.end()) fallback = it->second;
  fallback.location = absolute;
  return node_for(target, fallback);
}

status compiler::drain() {
  while (!todo.empty()) {
    node* n = todo.back();
    todo.pop_back();
    if (auto st = fill(*n); !st) return st;
  }
  return {};
}

status compiler::run() {
  if (!is_schema(out.schema))
    return fail(errc::schema_error, "a schema must be an object or a boolean, got " +
                                        std::string(type_name(out.schema)));
  if (auto st = add_document(out.schema, options.base_uri); !st) return st;
  out.root = node_for(&out.schema, info.at(&out.schema));
  if (auto st = drain(); !st) return st;
  // $dynamicRef looks anchors up at validation time in whatever resources are in the dynamic
  // scope, so every resource's dynamic anchors are compiled up front.
  for (std::size_t i = 0; i < out.resources.size(); ++i) {
    resource& res = out.resources[i];
    for (const auto& [name, source] : res.dynamic_anchor_sources) {
      res.dynamic_anchors.emplace_back(name, node_for(source, info.at(source)));
      if (auto st = drain(); !st) return st;
    }
  }
  return {};
}

status compile_into(compiled_schema& out, const compile_options& options) {
  out.max_depth = options.max_depth;
  compiler c{.out = out, .options = options};
  return c.run();
}

}  // namespace tooluse::schema::detail
