#include "schema/translate_util.hpp"

#include <algorithm>

#include "tooluse/text.hpp"

namespace tooluse::schema::detail {
namespace {

// Decodes one JSON pointer token: ~1 -> '/', ~0 -> '~', %XX -> byte.
std::string decode_token(std::string_view token) {
  std::string out;
  for (std::size_t i = 0; i < token.size(); ++i) {
    char c = token[i];
    if (c == '~' && i + 1 < token.size()) {
      out += token[i + 1] == '1' ? '/' : '~';
      ++i;
    } else if (c == '%' && i + 2 < token.size() && hex_value(token[i + 1]) >= 0 &&
               hex_value(token[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(token[i + 1]) * 16 + hex_value(token[i + 2]));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

const json* resolve_local_ref(const json& root, std::string_view ref) {
  if (ref.empty() || ref.front() != '#') return nullptr;
  ref.remove_prefix(1);
  const json* node = &root;
  while (!ref.empty()) {
    if (ref.front() != '/') return nullptr;
    ref.remove_prefix(1);
    std::size_t end = ref.find('/');
    std::string token = decode_token(ref.substr(0, end));
    ref = end == std::string_view::npos ? std::string_view{} : ref.substr(end);
    if (node->is_object()) {
      auto it = node->find(token);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array()) {
      if (token.empty() || token.size() > 9 ||
          !std::all_of(token.begin(), token.end(), [](char d) { return d >= '0' && d <= '9'; }))
        return nullptr;
      std::size_t i = std::stoul(token);
      if (i >= node->size()) return nullptr;
      node = &(*node)[i];
    } else {
      return nullptr;
    }
  }
  return node;
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
