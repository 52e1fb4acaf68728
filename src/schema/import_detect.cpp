// Detecting and importing foreign tool definitions (MCP, OpenAI, Anthropic, Gemini, BFCL).
#include <algorithm>
#include <array>
#include <cctype>

#include "tooluse/text.hpp"
#include "tooluse/enum_names.hpp"
#include "tooluse/schema/import.hpp"

namespace tooluse::schema {
namespace {

constexpr std::array<std::string_view, 7> schema_types = {
    "object", "array", "string", "number", "integer", "boolean", "null"};

bool is_schema_type(std::string_view t) {
  return std::find(schema_types.begin(), schema_types.end(), t) != schema_types.end();
}

bool is_upper(const std::string& s) {
  return std::none_of(s.begin(), s.end(), [](unsigned char c) { return std::islower(c); });
}

// A BFCL doc is told apart from a JSON Schema by its type names ("dict", "float", "String"...);
// Gemini's upper-case names ("STRING") are JSON Schema types.
bool has_bfcl_types(const json& s) {
  if (!s.is_object()) return false;
  if (auto t = s.find("type"); t != s.end() && t->is_string()) {
    std::string name = t->get<std::string>();
    if (!is_schema_type(name) && !(is_upper(name) && is_schema_type(ascii_lower(name)))) return true;
  }
  if (auto p = s.find("properties"); p != s.end() && p->is_object())
    for (const auto& [k, v] : p->items())
      if (has_bfcl_types(v)) return true;
  if (auto i = s.find("items"); i != s.end() && has_bfcl_types(*i)) return true;
  return false;
}

// Gemini's OpenAPI spelling -> JSON Schema: "STRING" -> "string", nullable:true -> type + null.
json normalize_openapi(const json& s) {
  if (!s.is_object()) return s;
  json out = json::object();
  for (const auto& [k, v] : s.items()) {
    if (k == "nullable") continue;
    if (k == "type" && v.is_string()) out[k] = ascii_lower(v.get<std::string>());
    else if (k == "properties" && v.is_object()) {
      out[k] = json::object();
      for (const auto& [name, sub] : v.items()) out[k][name] = normalize_openapi(sub);
    } else if ((k == "items" || k == "anyOf") && (v.is_object() || v.is_array())) {
      if (v.is_object()) out[k] = normalize_openapi(v);
      else for (const auto& b : v) out[k].push_back(normalize_openapi(b));
    } else {
      out[k] = v;
    }
  }
  if (s.value("nullable", false) && out.contains("type") && out["type"].is_string())
    out["type"] = json::array({out["type"], "null"});
  return out;
}

tl::unexpected<error> bad(const std::string& what) { return fail(errc::invalid_argument, what); }

result<std::string> string_field(const json& d, const char* key, bool required) {
  if (!d.contains(key)) {
    if (required) return bad(std::string("tool definition: missing \"") + key + "\"");
    return std::string();
  }
  if (!d[key].is_string())
    return bad(std::string("tool definition: \"") + key + "\" must be a string");
  return d[key].get<std::string>();
}

result<tool_spec> basic_spec(const json& d, const char* schema_key) {
  auto name = string_field(d, "name", true);
  if (!name) return fail(name.error());
  auto description = string_field(d, "description", false);
  if (!description) return fail(description.error());
  tool_spec spec{.name = *name, .description = *description};
  if (schema_key && d.contains(schema_key)) {
    if (!d[schema_key].is_object())
      return bad("tool \"" + *name + "\": \"" + schema_key + "\" must be an object schema");
    spec.input_schema = d[schema_key];
  }
  if (d.contains("strict") && d["strict"].is_boolean()) spec.strict = d["strict"].get<bool>();
  return spec;
}

result<tool_spec> import_mcp(const json& d) {
  auto spec = basic_spec(d, "inputSchema");
  if (!spec) return spec;
  auto title = string_field(d, "title", false);
  if (!title) return fail(title.error());
  spec->title = *title;
  if (d.contains("outputSchema")) spec->output_schema = d["outputSchema"];
  if (d.contains("annotations") && d["annotations"].is_object()) {
    spec->annotations = d["annotations"];
    if (spec->title.empty() && spec->annotations.contains("title") &&
        spec->annotations["title"].is_string())
      spec->title = spec->annotations["title"];
  }
  return spec;
}

result<tool_spec> import_function(const json& d) {
  const char* key = d.contains("parametersJsonSchema") ? "parametersJsonSchema" : "parameters";
  auto spec = basic_spec(d, key);
  if (spec && std::string_view(key) == "parameters") spec->input_schema = normalize_openapi(spec->input_schema);
  return spec;
}

result<tool_spec> import_bfcl(const json& d, const bfcl_options& options) {
  auto spec = basic_spec(d, nullptr);
  if (!spec) return spec;
  auto schema = bfcl_to_json_schema(d.value("parameters", json{{"type", "dict"}}), options);
  if (!schema) return fail(errc::invalid_argument, "tool \"" + spec->name + "\": " +
                                                       schema.error().message);
  spec->input_schema = std::move(*schema);
  return spec;
}

}  // namespace

TOOLUSE_ENUM_NAMES(tool_format, (mcp), (openai_chat), (openai_responses), (openai_function),
                   (anthropic), (bfcl))

std::string_view to_string(tool_format format) noexcept { return enum_name(format, "unknown"); }

result<tool_format> detect_tool_format(const json& d) {
  if (!d.is_object()) return bad("a tool definition must be a JSON object, got " +
                                 std::string(type_name(d)));
  if (d.contains("function") && d["function"].is_object()) return tool_format::openai_chat;
  if (d.contains("inputSchema")) return tool_format::mcp;
  if (d.contains("input_schema")) return tool_format::anthropic;
  if (d.value("type", "") == "function" && d.contains("name")) return tool_format::openai_responses;
  if (d.contains("parameters") && has_bfcl_types(d["parameters"])) return tool_format::bfcl;
  if (d.contains("name") && (d.contains("parameters") || d.contains("parametersJsonSchema")))
    return tool_format::openai_function;
  if (d.contains("name") && d.size() <= 3 && d.contains("description"))
    return tool_format::mcp;  // a tool without parameters
  return bad("not a tool definition: expected MCP (inputSchema), OpenAI (function or "
             "parameters), Anthropic (input_schema) or BFCL (parameters with \"dict\") fields");
}

result<tool_spec> import_tool(const json& d, tool_format format, const bfcl_options& options) {
  if (!d.is_object()) return bad("a tool definition must be a JSON object");
  switch (format) {
    case tool_format::mcp: return import_mcp(d);
    case tool_format::openai_chat:
      if (!d.contains("function") || !d["function"].is_object())
        return bad("openai tool: missing \"function\" object");
      return import_function(d["function"]);
    case tool_format::openai_responses:
    case tool_format::openai_function: return import_function(d);
    case tool_format::anthropic: return basic_spec(d, "input_schema");
    case tool_format::bfcl: return import_bfcl(d, options);
  }
  return bad("unknown tool format");
}

result<tool_spec> import_tool(const json& d, const bfcl_options& options) {
  auto format = detect_tool_format(d);
  if (!format) return fail(format.error());
  return import_tool(d, *format, options);
}

result<std::vector<tool_spec>> import_tools(const json& d, const bfcl_options& options) {
  const json* list = &d;
  if (d.is_object()) {
    for (const char* key : {"tools", "functionDeclarations", "function_declarations", "function"})
      if (d.contains(key) && d[key].is_array()) list = &d[key];
  }
  std::vector<tool_spec> out;
  if (!list->is_array()) {
    auto one = import_tool(*list, options);
    if (!one) return fail(one.error());
    out.push_back(std::move(*one));
    return out;
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& e = (*list)[i];
    // A Gemini request's tools[] holds {"functionDeclarations":[...]} groups.
    if (e.is_object() && e.contains("functionDeclarations")) {
      auto group = import_tools(e, options);
      if (!group) return group;
      for (auto& t : *group) out.push_back(std::move(t));
      continue;
    }
    auto one = import_tool(e, options);
    if (!one)
      return fail(one.error().code, "tool " + std::to_string(i) + ": " + one.error().message);
    out.push_back(std::move(*one));
  }
  return out;
}

}  // namespace tooluse::schema
