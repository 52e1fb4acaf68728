// OpenAI strict mode (Structured Outputs) rewrite: see design/schema-translation.md, "strict".
#include <algorithm>
#include <array>
#include <set>

#include "schema/translate_util.hpp"
#include "tooluse/schema/translate.hpp"

namespace tooluse::schema {
namespace {

using detail::child_path;

// Keywords strict mode cannot express (OpenAI "Supported schemas", wire-formats.md 2.1).
constexpr std::array<std::string_view, 22> unsupported_keywords = {
    "not",           "if",           "then",          "else",
    "dependentRequired", "dependentSchemas", "dependencies", "patternProperties",
    "unevaluatedProperties", "unevaluatedItems", "propertyNames", "minProperties",
    "maxProperties", "contains",     "minContains",   "maxContains",
    "prefixItems",   "uniqueItems",  "minLength",     "maxLength",
    "$dynamicRef",   "$recursiveRef"};

// Keywords copied as they are (their values hold no subschema).
constexpr std::array<std::string_view, 13> strict_kept_keywords = {
    "type",    "description",      "title",            "enum",       "pattern",
    "format",  "minimum",          "maximum",          "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minItems",       "maxItems"};

constexpr int max_depth = 10;
constexpr const char* any_value =
    "a schema that accepts any value (no \"type\") has no openai strict mode equivalent; "
    "give it a type";
constexpr std::size_t max_properties = 5000;
constexpr std::size_t max_enum_values = 1000;

template <std::size_t n>
bool in(const std::array<std::string_view, n>& list, std::string_view key) {
  return std::find(list.begin(), list.end(), key) != list.end();
}

tl::unexpected<error> unsupported(const std::string& path, const std::string& what) {
  return fail(errc::unsupported, path + ": " + what);
}

// Adds null to what `s` accepts, in the spelling strict mode documents.
void make_nullable(json& s, const json& root) {
  if (detail::accepts_null(s, root) && !s.contains("$ref")) return;
  if (s.contains("$ref") || (s.contains("anyOf") && !s.contains("type"))) {
    if (s.contains("anyOf")) {
      s["anyOf"].push_back({{"type", "null"}});
      return;
    }
    json wrapped = json::object();
    if (s.contains("description")) wrapped["description"] = s["description"];
    s.erase("description");
    wrapped["anyOf"] = json::array({s, {{"type", "null"}}});
    s = std::move(wrapped);
    return;
  }
  if (s.contains("type")) {
    if (s["type"].is_string()) s["type"] = json::array({s["type"], "null"});
    else if (!detail::has_type(s, "null")) s["type"].push_back("null");
  }
  if (s.contains("enum")) s["enum"].push_back(nullptr);
}

class strict_walker {
 public:
  strict_walker(const json& root, const strict_options& options) : root_(root), opt_(options) {}

  result<json> walk(const json& s, const std::string& path, int depth, int ref_depth = 0);

 private:
  result<json> walk_ref(const json& s, const std::string& path, int depth, int ref_depth);
  status walk_object(const json& s, json& out, const std::string& path, int depth);
  status walk_subschemas(const json& s, json& out, const std::string& path, int depth);

  const json& root_;
  strict_options opt_;
  std::size_t properties_ = 0;
  std::size_t enum_values_ = 0;
  std::size_t nodes_ = 0;  // schemas visited: inlining $refs with siblings can multiply them
};

result<json> strict_walker::walk_ref(const json& s, const std::string& path, int depth,
                                     int ref_depth) {
  std::string ref = s["$ref"].is_string() ? s["$ref"].get<std::string>() : "";
  const json* target = detail::resolve_local_ref(root_, ref);
  if (!target) return unsupported(path, "$ref \"" + ref + "\" does not resolve to a local schema");
  bool siblings = std::any_of(s.items().begin(), s.items().end(), [](const auto& kv) {
    return kv.key() != "$ref" && kv.key() != "description" && kv.key() != "title";
  });
  if (!siblings) {
    json out = json::object();
    if (ref.rfind("#/definitions/", 0) == 0) ref = "#/$defs/" + ref.substr(14);
    out["$ref"] = ref;
    if (s.contains("description")) out["description"] = s["description"];
    return out;
  }
  // Strict mode rejects $ref with sibling keywords: inline the target under the siblings.
  if (ref_depth > 8 || !target->is_object())
    return unsupported(path, "$ref \"" + ref + "\" with sibling keywords cannot be inlined");
  json merged = *target;
  for (const auto& [k, v] : s.items())
    if (k != "$ref") merged[k] = v;
  return walk(merged, path, depth, ref_depth + 1);
}

status strict_walker::walk_object(const json& s, json& out, const std::string& path, int depth) {
  if (depth > max_depth)
    return unsupported(path, "nesting deeper than openai strict mode's limit of 10 levels");
  json props = s.contains("properties") ? s["properties"] : json::object();
  if (!props.is_object()) return unsupported(path, "\"properties\" must be an object");
  const json ap = s.value("additionalProperties", json());
  bool closed = ap.is_boolean() && !ap.get<bool>();
  if (!ap.is_null() && !closed)
    return unsupported(path, "\"additionalProperties\" must be false in openai strict mode "
                             "(an object with free-form keys cannot be made strict)");
  if (props.empty() && !closed && depth > 0)
    return unsupported(path, "an object without declared properties has free-form keys, which "
                             "openai strict mode cannot express; declare its properties");
  std::set<std::string> required;
  if (s.contains("required"))
    for (const auto& r : s["required"])
      if (r.is_string()) required.insert(r.get<std::string>());
  json out_props = json::object();
  json out_required = json::array();
  for (const auto& [name, sub] : props.items()) {
    if (++properties_ > max_properties)
      return unsupported(path, "more than openai strict mode's 5000 properties");
    auto converted = walk(sub, child_path(path, name), depth + 1);
    if (!converted) return fail(converted.error());
    if (!required.contains(name)) make_nullable(*converted, root_);
    out_props[name] = std::move(*converted);
    out_required.push_back(name);
  }
  out["properties"] = std::move(out_props);
  out["required"] = std::move(out_required);
  out["additionalProperties"] = false;
  return {};
}

status strict_walker::walk_subschemas(const json& s, json& out, const std::string& path,
                                      int depth) {
  if (s.contains("items")) {
    auto items = walk(s["items"], path + "[]", depth + 1);
    if (!items) return fail(items.error());
    out["items"] = std::move(*items);
  }
  for (const char* key : {"anyOf", "oneOf"}) {
    if (!s.contains(key) || !s[key].is_array()) continue;
    json branches = json::array();
    for (std::size_t i = 0; i < s[key].size(); ++i) {
      auto b = walk(s[key][i], path, depth);
      if (!b) return fail(b.error());
      branches.push_back(std::move(*b));
    }
    for (auto& b : branches) out["anyOf"].push_back(std::move(b));  // oneOf becomes anyOf
  }
  return {};
}

result<json> strict_walker::walk(const json& s, const std::string& path, int depth,
                                 int ref_depth) {
  if (++nodes_ > opt_.max_schema_nodes)
    return fail(limit_error(path + ": translating the schema for openai strict mode visits more "
                                   "than " + std::to_string(opt_.max_schema_nodes) + " schemas",
                            "strict_options::max_schema_nodes", opt_.max_schema_nodes));
  if (s.is_boolean() && !s.get<bool>())
    return unsupported(path, "a schema that accepts nothing has no openai strict mode equivalent");
  if (s.is_boolean() || s.empty()) return unsupported(path, any_value);
  if (!s.is_object()) return unsupported(path, "a schema must be an object");
  if (s.contains("$ref")) return walk_ref(s, path, depth, ref_depth);
  if (s.contains("allOf")) {
    if (!s["allOf"].is_array() || s["allOf"].size() != 1)
      return unsupported(path, "\"allOf\" is not supported by openai strict mode");
    json merged = s["allOf"][0].is_object() ? s["allOf"][0] : json::object();
    for (const auto& [k, v] : s.items())
      if (k != "allOf") merged[k] = v;
    return walk(merged, path, depth, ref_depth);
  }
  json out = json::object();
  for (const auto& [k, v] : s.items()) {
    if (in(unsupported_keywords, k)) {
      if (opt_.drop_unsupported) continue;
      return unsupported(path, "\"" + k + "\" is not supported by openai strict mode");
    }
    if (k == "enum" && !v.is_array()) return unsupported(path, "\"enum\" must be an array");
    if (in(strict_kept_keywords, k)) out[k] = v;
    if (k == "const") out["enum"] = json::array({v});
  }
  if (out.contains("enum") && (enum_values_ += out["enum"].size()) > max_enum_values)
    return unsupported(path, "more than openai strict mode's 1000 enum values");
  if (detail::is_object_schema(s)) {
    if (!out.contains("type")) out["type"] = "object";
    if (auto st = walk_object(s, out, path, depth); !st) return fail(st.error());
  }
  if (auto st = walk_subschemas(s, out, path, depth); !st) return fail(st.error());
  if (!out.contains("type") && !out.contains("enum") && !out.contains("anyOf"))
    return unsupported(path, any_value);
  return out;
}

}  // namespace

result<json> make_strict_schema(const json& schema, const strict_options& options) {
  const std::string root_path = "arguments";
  if (!schema.is_object() || !detail::is_object_schema(schema))
    return unsupported(root_path, "openai strict mode needs an object schema at the root");
  if (schema.contains("anyOf") || schema.contains("oneOf"))
    return unsupported(root_path, "openai strict mode does not allow \"anyOf\" at the root");
  strict_walker walker(schema, options);
  auto out = walker.walk(schema, root_path, 0);
  if (!out) return out;
  for (const char* defs : {"$defs", "definitions"}) {
    if (!schema.contains(defs)) continue;
    for (const auto& [name, sub] : schema[defs].items()) {
      auto converted = walker.walk(sub, "$defs." + name, 1);
      if (!converted) return converted;
      (*out)["$defs"][name] = std::move(*converted);
    }
  }
  return out;
}

}  // namespace tooluse::schema
