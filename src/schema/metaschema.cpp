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

constexpr std::string_view k_core = R"({
  "$id": "https://json-schema.org/draft/2020-12/meta/core",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "$id": {"type": "string", "pattern": "^[^#]*#?$"},
    "$schema": {"type": "string"},
    "$ref": {"type": "string"},
    "$anchor": {"$ref": "#/$defs/anchorString"},
    "$dynamicRef": {"type": "string"},
    "$dynamicAnchor": {"$ref": "#/$defs/anchorString"},
    "$vocabulary": {"type": "object", "additionalProperties": {"type": "boolean"}},
    "$comment": {"type": "string"},
    "$defs": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}}
  },
  "$defs": {"anchorString": {"type": "string", "pattern": "^[A-Za-z_][-A-Za-z0-9._]*$"}}
})";

constexpr std::string_view k_applicator = R"({
  "$id": "https://json-schema.org/draft/2020-12/meta/applicator",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
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
  },
  "$defs": {"schemaArray": {"type": "array", "minItems": 1, "items": {"$dynamicRef": "#meta"}}}
})";

constexpr std::string_view k_unevaluated = R"({
  "$id": "https://json-schema.org/draft/2020-12/meta/unevaluated",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "unevaluatedItems": {"$dynamicRef": "#meta"},
    "unevaluatedProperties": {"$dynamicRef": "#meta"}
  }
})";

constexpr std::string_view k_validation = R"({
  "$id": "https://json-schema.org/draft/2020-12/meta/validation",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
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
  },
  "$defs": {
    "nonNegativeInteger": {"type": "integer", "minimum": 0},
    "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object",
                             "string"]},
    "stringArray": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}
  }
})";

constexpr std::string_view k_meta_data = R"({
  "$id": "https://json-schema.org/draft/2020-12/meta/meta-data",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "title": {"type": "string"},
    "description": {"type": "string"},
    "default": true,
    "deprecated": {"type": "boolean"},
    "readOnly": {"type": "boolean"},
    "writeOnly": {"type": "boolean"},
    "examples": {"type": "array", "items": true}
  }
})";

constexpr std::string_view k_format_annotation = R"({
  "$id": "https://json-schema.org/draft/2020-12/meta/format-annotation",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {"format": {"type": "string"}}
})";

constexpr std::string_view k_format_assertion = R"({
  "$id": "https://json-schema.org/draft/2020-12/meta/format-assertion",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {"format": {"type": "string"}}
})";

constexpr std::string_view k_content = R"({
  "$id": "https://json-schema.org/draft/2020-12/meta/content",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "contentEncoding": {"type": "string"},
    "contentMediaType": {"type": "string"},
    "contentSchema": {"$dynamicRef": "#meta"}
  }
})";

std::map<std::string, json, std::less<>> load_all() {
  std::map<std::string, json, std::less<>> docs;
  for (std::string_view text : {k_main, k_core, k_applicator, k_unevaluated, k_validation,
                                k_meta_data, k_format_annotation, k_format_assertion, k_content}) {
    json doc = json::parse(text);
    std::string id = doc["$id"].get<std::string>();
    docs.emplace(std::move(id), std::move(doc));
  }
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
