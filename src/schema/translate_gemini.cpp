// Gemini `parameters` (OpenAPI 3.0 subset) rewrite: see design/schema-translation.md, "gemini".
#include <algorithm>
#include <array>
#include <vector>

#include "schema/translate_util.hpp"
#include "tooluse/schema/translate.hpp"

namespace tooluse::schema {
namespace {

// Fields of Gemini's Schema message (google-genai types.Schema) whose values are plain data.
constexpr std::array<std::string_view, 13> gemini_kept_keywords = {
    "description", "title",     "minItems",  "maxItems",      "minimum",
    "maximum",     "minLength", "maxLength", "pattern",       "minProperties",
    "maxProperties", "default", "example"};

bool in_kept(std::string_view key) {
  return std::find(gemini_kept_keywords.begin(), gemini_kept_keywords.end(), key) != gemini_kept_keywords.end();
}

void append_description(json& out, const std::string& text) {
  std::string d = out.value("description", std::string());
  out["description"] = d.empty() ? text : d + " " + text;
}

class gemini_walker {
 public:
  gemini_walker(const json& root, std::size_t max_nodes) : root_(root), max_nodes_(max_nodes) {}
  result<json> walk(const json& s, const std::string& path);

 private:
  result<json> walk_ref(const json& s, const std::string& path);
  void convert_type(const json& s, json& out);
  void convert_enum(const json& s, json& out);
  void convert_format(const json& s, json& out);
  status convert_children(const json& s, json& out, const std::string& path);

  const json& root_;
  std::vector<std::string> expanding_;  // $refs being inlined, to catch recursion
  std::size_t max_nodes_;
  std::size_t nodes_ = 0;  // schemas visited: inlining $refs can make this exponential
};

result<json> gemini_walker::walk_ref(const json& s, const std::string& path) {
  std::string ref = s["$ref"].is_string() ? s["$ref"].get<std::string>() : "";
  const json* target = detail::resolve_local_ref(root_, ref);
  if (!target) return fail(errc::unsupported, path + ": $ref \"" + ref + "\" does not resolve");
  if (std::find(expanding_.begin(), expanding_.end(), ref) != expanding_.end())
    return fail(errc::unsupported,
                path + ": recursive $ref \"" + ref + "\" cannot be expressed for gemini");
  json merged = target->is_object() ? *target : json::object();
  for (const auto& [k, v] : s.items())
    if (k != "$ref") merged[k] = v;
  expanding_.push_back(ref);
  auto out = walk(merged, path);
  expanding_.pop_back();
  return out;
}

void gemini_walker::convert_type(const json& s, json& out) {
  if (!s.contains("type")) return;
  const json& t = s["type"];
  if (t.is_string()) {
    if (t == "null") out["nullable"] = true;
    else out["type"] = t;
    return;
  }
  std::vector<std::string> types;
  for (const auto& e : t)
    if (e.is_string() && e != "null") types.push_back(e.get<std::string>());
  if (detail::has_type(s, "null")) out["nullable"] = true;
  if (types.size() == 1) out["type"] = types[0];
  for (std::size_t i = 0; types.size() > 1 && i < types.size(); ++i)
    out["anyOf"].push_back({{"type", types[i]}});
}

void gemini_walker::convert_enum(const json& s, json& out) {
  json values = s.contains("const") ? json::array({s["const"]}) : s.value("enum", json());
  if (!values.is_array()) return;
  json strings = json::array();
  bool all_strings = true;
  for (const auto& v : values) {
    if (v.is_null()) out["nullable"] = true;
    else if (v.is_string()) strings.push_back(v);
    else all_strings = false;
  }
  if (all_strings) {
    if (strings.empty()) return;  // only null: nullable says it all (an empty enum admits nothing)
    out["enum"] = std::move(strings);
    if (!out.contains("type")) out["type"] = "string";
    return;
  }
  // Gemini takes only string enums: keep the constraint in words (calls are validated locally).
  std::string listed;
  for (const auto& v : values) listed += (listed.empty() ? "" : ", ") + dump_json(v);
  append_description(out, "Allowed values: " + listed + ".");
}

void gemini_walker::convert_format(const json& s, json& out) {
  if (!s.contains("format") || !s["format"].is_string()) return;
  std::string f = s["format"].get<std::string>();
  bool number_format = f == "float" || f == "double" || f == "int32" || f == "int64";
  if (f == "date-time" || f == "enum" || number_format) out["format"] = f;
  else append_description(out, "Format: " + f + ".");
}

status gemini_walker::convert_children(const json& s, json& out, const std::string& path) {
  if (s.contains("properties") && s["properties"].is_object() && !s["properties"].empty()) {
    for (const auto& [name, sub] : s["properties"].items()) {
      auto p = walk(sub, detail::child_path(path, name));
      if (!p) return fail(p.error());
      out["properties"][name] = std::move(*p);
    }
    json required = json::array();
    for (const auto& r : s.value("required", json::array()))
      if (r.is_string() && out["properties"].contains(r.get<std::string>())) required.push_back(r);
    if (!required.empty()) out["required"] = std::move(required);
  }
  if (s.contains("items") && s["items"].is_object()) {
    auto items = walk(s["items"], path + "[]");
    if (!items) return fail(items.error());
    out["items"] = std::move(*items);
  }
  for (const char* key : {"anyOf", "oneOf"}) {
    if (!s.contains(key) || !s[key].is_array()) continue;
    for (const auto& b : s[key]) {
      auto branch = walk(b, path);
      if (!branch) return fail(branch.error());
      out["anyOf"].push_back(std::move(*branch));
    }
  }
  return {};
}

result<json> gemini_walker::walk(const json& s, const std::string& path) {
  if (++nodes_ > max_nodes_)
    return fail(limit_error(path + ": translating the schema for gemini (inlining its $refs) "
                                   "visits more than " + std::to_string(max_nodes_) + " schemas",
                            "strict_options::max_schema_nodes", max_nodes_));
  if (s.is_boolean()) {
    if (s.get<bool>()) return json::object();
    return fail(errc::unsupported, path + ": a schema that accepts nothing cannot be expressed");
  }
  if (!s.is_object()) return fail(errc::unsupported, path + ": a schema must be an object");
  if (s.contains("$ref")) return walk_ref(s, path);
  if (s.contains("allOf")) {
    if (!s["allOf"].is_array() || s["allOf"].size() != 1)
      return fail(errc::unsupported, path + ": \"allOf\" with several schemas cannot be "
                                            "expressed for gemini; merge them");
    json merged = s["allOf"][0].is_object() ? s["allOf"][0] : json::object();
    for (const auto& [k, v] : s.items())
      if (k != "allOf") merged[k] = v;
    return walk(merged, path);
  }
  json out = json::object();
  convert_type(s, out);
  if (!out.contains("type") && s.contains("properties")) out["type"] = "object";
  for (const auto& [k, v] : s.items())
    if (in_kept(k)) out[k] = v;
  convert_enum(s, out);
  convert_format(s, out);
  if (auto st = convert_children(s, out, path); !st) return fail(st.error());
  return out;
}

}  // namespace

result<json> make_gemini_schema(const json& schema, std::size_t max_schema_nodes) {
  gemini_walker walker(schema, max_schema_nodes);
  return walker.walk(schema, "arguments");
}

}  // namespace tooluse::schema
