// The draft 2020-12 metaschema and its vocabulary metaschemas, served for $ref and $schema to
// their well-known URIs without any network access. Written for tooluse from the keyword
// definitions of JSON Schema Core and Validation 2020-12 (same URIs, $dynamicAnchor "meta"
// and vocabularies as the published ones; descriptions and metadata left out).
#include <map>

#include "schema/compiler.hpp"

namespace tooluse::schema::detail {
namespace {

constexpr std::string_view k_base = "https://json-schema.org/draft/2020-12/";

constexpr std::string_view k_main = R"({
  "$id": "https://json-schema.org/draft/2020-12/schema",
  "$vocabulary": {
    "https://json-schema.org/draft/2020-12/vocab/core": true,
    "https://json-schema.org/draft/2020-12/vocab/applicator": true,
    "https://json-schema.org/draft/2020-12/vocab/unevaluated": true,
    "https://json-schema.org/draft/2020-12/vocab/validation": true,
    "https://json-schema.org/draft/2020-12/vocab/meta-data": true,
    "https://json-schema.org/draft/2020-12/vocab/format-annotation": true,
    "https://json-schema.org/draft/2020-12/vocab/content": true
  },
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "allOf": [
    {"$ref": "meta/core"}, {"$ref": "meta/applicator"}, {"$ref": "meta/unevaluated"},
    {"$ref": "meta/validation"}, {"$ref": "meta/meta-data"}, {"$ref": "meta/format-annotation"},
    {"$ref": "meta/content"}
  ]
})";

// Each vocabulary's metaschema (meta/<name>) has one outline: its $id, $dynamicAnchor "meta", the
// type object-or-boolean, the schemas of its keywords ("properties") and the $defs they use.
struct vocabulary_doc {
  std::string_view name;
  std::string_view keywords;
  std::string_view defs;  // empty: none
};

constexpr std::string_view k_core_keywords = R"({
  "$id": {"type": "string", "pattern": "^[^#]*#?$"},
  "$schema": {"type": "string"},
  "$ref": {"type": "string"},
  "$anchor": {"$ref": "#/$defs/anchorString"},
  "$dynamicRef": {"type": "string"},
  "$dynamicAnchor": {"$ref": "#/$defs/anchorString"},
  "$vocabulary": {"type": "object", "additionalProperties": {"type": "boolean"}},
  "$comment": {"type": "string"},
  "$defs": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}}
})";

constexpr std::string_view k_core_defs =
    R"({"anchorString": {"type": "string", "pattern": "^[A-Za-z_][-A-Za-z0-9._]*$"}})";

constexpr std::string_view k_applicator_keywords = R"({
  "prefixItems": {"$ref": "#/$defs/schemaArray"},
  "items": {"$dynamicRef": "#meta"},
  "contains": {"$dynamicRef": "#meta"},
  "additionalProperties": {"$dynamicRef": "#meta"},
  "properties": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}},
  "patternProperties": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"},
                        "propertyNames": {"format": "regex"}},
  "dependentSchemas": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}},
  "propertyNames": {"$dynamicRef": "#meta"},
  "if": {"$dynamicRef": "#meta"},
  "then": {"$dynamicRef": "#meta"},
  "else": {"$dynamicRef": "#meta"},
  "allOf": {"$ref": "#/$defs/schemaArray"},
  "anyOf": {"$ref": "#/$defs/schemaArray"},
  "oneOf": {"$ref": "#/$defs/schemaArray"},
  "not": {"$dynamicRef": "#meta"}
})";

constexpr std::string_view k_applicator_defs =
    R"({"schemaArray": {"type": "array", "minItems": 1, "items": {"$dynamicRef": "#meta"}}})";

constexpr std::string_view k_unevaluated_keywords = R"({
  "unevaluatedItems": {"$dynamicRef": "#meta"},
  "unevaluatedProperties": {"$dynamicRef": "#meta"}
})";

constexpr std::string_view k_validation_keywords = R"({
  "type": {"anyOf": [{"$ref": "#/$defs/simpleTypes"},
                     {"type": "array", "items": {"$ref": "#/$defs/simpleTypes"},
                      "minItems": 1, "uniqueItems": true}]},
  "const": true,
  "enum": {"type": "array", "items": true},
  "multipleOf": {"type": "number", "exclusiveMinimum": 0},
  "maximum": {"type": "number"},
  "exclusiveMaximum": {"type": "number"},
  "minimum": {"type": "number"},
  "exclusiveMinimum": {"type": "number"},
  "maxLength": {"$ref": "#/$defs/nonNegativeInteger"},
  "minLength": {"$ref": "#/$defs/nonNegativeInteger"},
  "pattern": {"type": "string", "format": "regex"},
  "maxItems": {"$ref": "#/$defs/nonNegativeInteger"},
  "minItems": {"$ref": "#/$defs/nonNegativeInteger"},
  "uniqueItems": {"type": "boolean"},
  "maxContains": {"$ref": "#/$defs/nonNegativeInteger"},
  "minContains": {"$ref": "#/$defs/nonNegativeInteger"},
  "maxProperties": {"$ref": "#/$defs/nonNegativeInteger"},
  "minProperties": {"$ref": "#/$defs/nonNegativeInteger"},
  "required": {"$ref": "#/$defs/stringArray"},
  "dependentRequired": {"type": "object",
                        "additionalProperties": {"$ref": "#/$defs/stringArray"}}
})";

constexpr std::string_view k_validation_defs = R"({
  "nonNegativeInteger": {"type": "integer", "minimum": 0},
  "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object",
                           "string"]},
  "stringArray": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}
})";

constexpr std::string_view k_meta_data_keywords = R"({
  "title": {"type": "string"},
  "description": {"type": "string"},
  "default": true,
  "deprecated": {"type": "boolean"},
  "readOnly": {"type": "boolean"},
  "writeOnly": {"type": "boolean"},
  "examples": {"type": "array", "items": true}
})";

constexpr std::string_view k_content_keywords = R"({
  "contentEncoding": {"type": "string"},
  "contentMediaType": {"type": "string"},
  "contentSchema": {"$dynamicRef": "#meta"}
})";

// format-annotation and format-assertion have the same keyword; they differ in what a validator
// that uses them does with it.
constexpr std::string_view k_format_keywords = R"({"format": {"type": "string"}})";

constexpr vocabulary_doc k_vocabularies[] = {
    {"core", k_core_keywords, k_core_defs},
    {"applicator", k_applicator_keywords, k_applicator_defs},
    {"unevaluated", k_unevaluated_keywords, {}},
    {"validation", k_validation_keywords, k_validation_defs},
    {"meta-data", k_meta_data_keywords, {}},
    {"format-annotation", k_format_keywords, {}},
    {"format-assertion", k_format_keywords, {}},
    {"content", k_content_keywords, {}},
};

json vocabulary_metaschema(const vocabulary_doc& v) {
  json doc = {{"$id", std::string(k_base) + "meta/" + std::string(v.name)},
              {"$dynamicAnchor", "meta"},
              {"type", json::array({"object", "boolean"})},
              {"properties", json::parse(v.keywords)}};
  if (!v.defs.empty()) doc["$defs"] = json::parse(v.defs);
  return doc;
}

std::map<std::string, json, std::less<>> load_all() {
  std::map<std::string, json, std::less<>> docs;
  docs.emplace(std::string(k_base) + "schema", json::parse(k_main));
  for (const vocabulary_doc& v : k_vocabularies)
    docs.emplace(std::string(k_base) + "meta/" + std::string(v.name), vocabulary_metaschema(v));
  return docs;
}

}  // namespace

const json* builtin_metaschema(std::string_view uri) {
  if (uri.substr(0, k_base.size()) != k_base) return nullptr;
  static const std::map<std::string, json, std::less<>> k_docs = load_all();
  auto it = k_docs.find(uri);
  return it == k_docs.end() ? nullptr : &it->second;
}

}  // namespace tooluse::schema::detail
