// BFCL function docs -> JSON Schema 2020-12 (design/schema-translation.md, "BFCL").
#include <algorithm>
#include <array>
#include <optional>
#include <set>

#include "schema/translate_util.hpp"
#include "tooluse/schema/import.hpp"

namespace tooluse::schema {
namespace {

struct type_alias {
  std::string_view bfcl;
  std::string_view schema;  // "" means no type constraint
};

// BFCL's Python names, Java and JavaScript names (simple_java, simple_javascript) and the JSON
// Schema names themselves.
constexpr std::array<type_alias, 30> type_aliases = {{
    {"dict", "object"},     {"HashMap", "object"},   {"object", "object"},
    {"Map", "object"},      {"map", "object"},       {"Object", "object"},
    {"float", "number"},    {"double", "number"},    {"number", "number"},
    {"Double", "number"},   {"Float", "number"},     {"integer", "integer"},
    {"int", "integer"},     {"long", "integer"},     {"Long", "integer"},
    {"Integer", "integer"}, {"short", "integer"},    {"string", "string"},
    {"String", "string"},   {"str", "string"},       {"char", "string"},
    {"boolean", "boolean"}, {"Boolean", "boolean"},  {"bool", "boolean"},
    {"array", "array"},     {"Array", "array"},      {"ArrayList", "array"},
    {"list", "array"},      {"tuple", "array"},      {"any", ""},
}};

// Keywords with the same meaning in BFCL docs and JSON Schema, copied as they are.
constexpr std::array<std::string_view, 12> copied_keywords = {
    "title",   "format",   "minimum",   "maximum",   "exclusiveMinimum", "exclusiveMaximum",
    "multipleOf", "minItems", "maxItems", "minLength", "maxLength",     "pattern"};

std::optional<std::string_view> map_type(std::string_view t) {
  if (t.empty()) return std::string_view{};
  for (const auto& a : type_aliases)
    if (a.bfcl == t) return a.schema;
  return std::nullopt;
}

bool conforms(const json& v, std::string_view type) {
  if (type.empty()) return true;
  std::string_view actual = type_name(v);
  return actual == type || (type == "number" && actual == "integer");
}

// An enum that contradicts the declared type wins (BFCL's live data has boolean parameters
// with the enum ["True", "False", "dontcare"]): the type becomes what the enum values are.
void reconcile_enum(json& out, std::string_view type) {
  const json& values = out["enum"];
  if (std::all_of(values.begin(), values.end(), [&](const json& v) { return conforms(v, type); }))
    return;
  std::set<std::string> types;
  for (const auto& v : values) types.insert(std::string(type_name(v)));
  if (types.contains("number")) types.erase("integer");
  if (types.size() == 1) out["type"] = *types.begin();
  else out["type"] = json(types);
}

// The documented default is always an acceptable value (BFCL's live data has integer, float
// and boolean parameters defaulting to "dontcare"): a default outside the enum joins it; a
// default of another type is accepted as that one value, through anyOf.
void accept_default(json& out, const json& value) {
  std::string t(type_name(value));
  bool typed_ok = !out.contains("type") || detail::has_type(out, t) ||
                  (t == "integer" && detail::has_type(out, "number"));
  if (typed_ok) {
    if (out.contains("enum") && std::find(out["enum"].begin(), out["enum"].end(), value) ==
                                    out["enum"].end())
      out["enum"].push_back(value);
    return;
  }
  json outer = json::object();
  if (out.contains("description")) outer["description"] = out["description"];
  out.erase("description");
  outer["anyOf"] = json::array({std::move(out), {{"const", value}}});
  out = std::move(outer);
}

void make_nullable(json& out) {
  if (out.contains("type")) {
    if (out["type"].is_string()) out["type"] = json::array({out["type"], "null"});
    else if (!detail::has_type(out, "null")) out["type"].push_back("null");
  }
  if (out.contains("enum") && std::none_of(out["enum"].begin(), out["enum"].end(),
                                           [](const json& v) { return v.is_null(); }))
    out["enum"].push_back(nullptr);
}

result<json> convert(const json& doc, const std::string& path, const bfcl_options& options,
                     bool root);

status convert_properties(const json& doc, json& out, const std::string& path,
                          const bfcl_options& options) {
  if (!doc["properties"].is_object())
    return fail(errc::invalid_argument, path + ": \"properties\" must be an object");
  out["properties"] = json::object();
  for (const auto& [name, sub] : doc["properties"].items()) {
    auto p = convert(sub, detail::child_path(path, name), options, false);
    if (!p) return fail(p.error());
    out["properties"][name] = std::move(*p);
  }
  return {};
}

result<json> convert(const json& doc, const std::string& path, const bfcl_options& options,
                     bool root) {
  if (!doc.is_object()) return fail(errc::invalid_argument, path + ": expected a parameter doc");
  std::string declared = doc.contains("type") && doc["type"].is_string() ? doc["type"] : "";
  auto type = map_type(declared);
  if (!type)
    return fail(errc::invalid_argument, path + ": unknown BFCL type \"" + declared +
                                            "\"; expected dict, float, integer, string, "
                                            "boolean, array, tuple, any or a Java/JS type name");
  json out = json::object();
  if (!type->empty()) out["type"] = *type;
  if (declared == "char") {
    out["minLength"] = 1;
    out["maxLength"] = 1;
  }
  if (doc.contains("description")) out["description"] = doc["description"];
  for (const auto& k : copied_keywords)
    if (doc.contains(k)) out[std::string(k)] = doc[std::string(k)];
  if (doc.contains("properties"))
    if (auto st = convert_properties(doc, out, path, options); !st) return fail(st.error());
  if (doc.contains("required") && doc["required"].is_array()) {
    std::set<std::string> seen;
    json required = json::array();
    for (const auto& r : doc["required"])
      if (r.is_string() && seen.insert(r.get<std::string>()).second) required.push_back(r);
    out["required"] = std::move(required);
  }
  bool has_props = out.contains("properties") && !out["properties"].empty();
  if (*type == "object" && options.close_objects && (root || has_props))
    out["additionalProperties"] = false;
  if (doc.contains("items") && doc["items"].is_object()) {
    auto items = convert(doc["items"], path + "[]", options, false);
    if (!items) return items;
    out["items"] = std::move(*items);
  }
  if (doc.contains("enum") && doc["enum"].is_array()) {
    if (*type == "array") {
      // An enum on a list parameter lists what its elements may be.
      if (!out.contains("items")) out["items"] = json::object();
      if (!out["items"].contains("enum")) out["items"]["enum"] = doc["enum"];
    } else {
      out["enum"] = doc["enum"];
      reconcile_enum(out, *type);
    }
  }
  if (doc.contains("default") && !root) {  // a default for the whole call means nothing
    if (doc["default"].is_null()) make_nullable(out);  // Python's `x: str = None`
    else if (*type != "array") accept_default(out, doc["default"]);
    out["default"] = doc["default"];
  }
  return out;
}

}  // namespace

result<json> bfcl_to_json_schema(const json& parameters, const bfcl_options& options) {
  auto out = convert(parameters, "parameters", options, true);
  if (!out) return out;
  if (!out->contains("type")) (*out)["type"] = "object";
  if (!detail::has_type(*out, "object"))
    return fail(errc::invalid_argument, "parameters: the root of a BFCL function doc must be "
                                        "\"dict\", got " + dump_json(parameters.value("type", json())));
  if (!out->contains("properties")) (*out)["properties"] = json::object();
  return out;
}

}  // namespace tooluse::schema
