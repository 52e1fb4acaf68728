#include "schema/translate_util.hpp"

#include <algorithm>

#include "schema/schema_impl.hpp"

namespace tooluse::schema::detail {

const json* resolve_local_ref(const json& root, std::string_view ref) {
  // Read as the validator reads a $ref's fragment (compiler::resolve_ref: percent-decoded, then
  // a JSON pointer), so that a translation follows the schema that validation followed.
  if (ref.empty() || ref.front() != '#') return nullptr;
  return resolve_pointer(root, percent_decode(ref.substr(1)));
}

bool has_type(const json& schema, std::string_view type) {
  if (!schema.is_object()) return false;
  auto it = schema.find("type");
  if (it == schema.end()) return false;
  if (it->is_string()) return it->get_ref<const std::string&>() == type;
  if (it->is_array())
    return std::any_of(it->begin(), it->end(),
                       [&](const json& t) { return t.is_string() && t == std::string(type); });
  return false;
}

bool is_object_schema(const json& schema) {
  return schema.is_object() && (has_type(schema, "object") || schema.contains("properties"));
}

const json& resolve_if_ref(const json& schema, const json& root) {
  if (!schema.is_object() || !schema.contains("$ref") || !schema["$ref"].is_string())
    return schema;
  const json* target = resolve_local_ref(root, schema["$ref"].get<std::string>());
  return target ? *target : schema;
}

bool accepts_null(const json& schema, const json& root, int depth) {
  // A $ref cycle through anyOf/oneOf (a schema from a peer may have one) must not recurse
  // forever: past this depth the answer is "not certainly".
  if (depth > 64) return false;
  if (schema.is_boolean()) return schema.get<bool>();
  if (!schema.is_object()) return false;
  const json& s = resolve_if_ref(schema, root);
  if (!s.is_object()) return s.is_boolean() && s.get<bool>();
  if (s.contains("const")) return s["const"].is_null();
  if (s.contains("enum") && s["enum"].is_array()) {
    const json& e = s["enum"];
    if (std::none_of(e.begin(), e.end(), [](const json& v) { return v.is_null(); })) return false;
  }
  for (const char* key : {"anyOf", "oneOf"}) {
    if (!s.contains(key) || !s[key].is_array()) continue;
    const json& branches = s[key];
    if (std::none_of(branches.begin(), branches.end(),
                     [&](const json& b) { return accepts_null(b, root, depth + 1); }))
      return false;
  }
  if (s.contains("type")) return has_type(s, "null");
  return true;
}

}  // namespace tooluse::schema::detail
