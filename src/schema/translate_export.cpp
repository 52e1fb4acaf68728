// export_tool / export_tools: one tool_spec -> one provider's tool object.
#include "schema/translate_util.hpp"
#include "tooluse/enum_names.hpp"
#include "tooluse/schema/translate.hpp"

namespace tooluse::schema {

TOOLUSE_ENUM_NAMES(export_target, (openai), (openai_strict, "openai-strict"), (responses),
                   (anthropic), (gemini), (mcp))

namespace {

// The input schema as a provider wants it: an object schema with "type":"object" at the root.
result<json> object_root(const tool_spec& tool) {
  const json& s = tool.input_schema;
  if (!s.is_object() || (s.contains("type") && !detail::has_type(s, "object")))
    return fail(errc::invalid_argument, "tool \"" + tool.name +
                                            "\": the input schema must be an object schema "
                                            "(\"type\": \"object\")");
  json out = s;
  if (!out.contains("type")) out["type"] = "object";
  return out;
}

result<json> anthropic_schema(const tool_spec& tool) {
  auto s = object_root(tool);
  if (!s) return s;
  for (const char* key : {"anyOf", "oneOf", "allOf"})
    if (s->contains(key))
      return fail(errc::unsupported, "tool \"" + tool.name + "\": anthropic does not accept \"" +
                                         key + "\" at the root of input_schema");
  return s;
}

result<json> openai_function(const tool_spec& tool, const std::string& name, bool strict,
                             const strict_options& options) {
  auto params = object_root(tool);
  if (!params) return params;
  if (strict) {
    params = make_strict_schema(*params, options);
    if (!params)
      return fail(params.error().code, "tool \"" + tool.name + "\": " + params.error().message);
  }
  json f = json::object();
  f["name"] = name;
  if (!tool.description.empty()) f["description"] = tool.description;
  f["parameters"] = std::move(*params);
  return f;
}

result<json> gemini_declaration(const tool_spec& tool, const std::string& name,
                                const strict_options& options) {
  auto root = object_root(tool);
  if (!root) return root;
  json d = json::object();
  d["name"] = name;
  if (!tool.description.empty()) d["description"] = tool.description;
  auto params = make_gemini_schema(*root, options.max_schema_nodes);
  if (!params)
    return fail(params.error().code, "tool \"" + tool.name + "\": " + params.error().message);
  // A declaration without parameters omits the field: Gemini rejects an object without properties.
  if (params->contains("properties")) d["parameters"] = std::move(*params);
  return d;
}

json mcp_tool(const tool_spec& tool, const std::string& name, json input_schema) {
  json t = json::object();
  t["name"] = name;
  if (!tool.title.empty()) t["title"] = tool.title;
  if (!tool.description.empty()) t["description"] = tool.description;
  t["inputSchema"] = std::move(input_schema);
  if (tool.output_schema) t["outputSchema"] = *tool.output_schema;
  if (tool.annotations.is_object() && !tool.annotations.empty())
    t["annotations"] = tool.annotations;
  return t;
}

}  // namespace

result<export_target> parse_export_target(std::string_view name) {
  if (auto t = enum_from_name<export_target>(name)) return *t;
  return fail(errc::invalid_argument, "unknown export target \"" + std::string(name) +
                                          "\"; use one of " + enum_name_list<export_target>());
}

std::string_view to_string(export_target target) noexcept {
  return enum_name(target, "unknown");
}

name_rule name_rule_for(export_target target) noexcept {
  switch (target) {
    case export_target::gemini: return gemini_name_rule;
    case export_target::mcp: return mcp_name_rule;
    case export_target::anthropic: return anthropic_name_rule;
    default: return openai_name_rule;
  }
}

result<json> export_tool(const tool_spec& tool, export_target target,
                         std::string_view provider_name, const strict_options& options) {
  std::string name = provider_name.empty() ? tool.name : std::string(provider_name);
  if (!matches_name_rule(name, name_rule_for(target)))
    return fail(errc::invalid_argument,
                "tool name \"" + name + "\" is not accepted by " + std::string(to_string(target)) +
                    "; map it with tooluse::schema::name_map (export_tools does this)");
  switch (target) {
    case export_target::openai:
    case export_target::openai_strict: {
      bool strict = target == export_target::openai_strict;
      auto f = openai_function(tool, name, strict, options);
      if (!f) return f;
      if (strict) (*f)["strict"] = true;
      return json{{"type", "function"}, {"function", std::move(*f)}};
    }
    case export_target::responses: {
      auto f = openai_function(tool, name, tool.strict, options);
      if (!f) return f;
      json out = {{"type", "function"}};
      for (auto& [k, v] : f->items()) out[k] = std::move(v);
      out["strict"] = tool.strict;  // Responses treats an absent strict as true: always say it
      return out;
    }
    case export_target::anthropic: {
      auto s = anthropic_schema(tool);
      if (!s) return s;
      json out = {{"name", name}};
      if (!tool.description.empty()) out["description"] = tool.description;
      out["input_schema"] = std::move(*s);
      return out;
    }
    case export_target::gemini: return gemini_declaration(tool, name, options);
    case export_target::mcp: {
      auto s = object_root(tool);
      if (!s) return s;
      return mcp_tool(tool, name, std::move(*s));
    }
  }
  return fail(errc::internal, "unknown export target");
}

result<exported_tools> export_tools(const std::vector<tool_spec>& tools, export_target target,
                                    const strict_options& options) {
  std::vector<std::string> names;
  for (const auto& t : tools) names.push_back(t.name);
  exported_tools out{json::array(), name_map::build(names, name_rule_for(target))};
  json declarations = json::array();
  for (const auto& t : tools) {
    auto e = export_tool(t, target, *out.names.provider_name(t.name), options);
    if (!e) return fail(e.error());
    (target == export_target::gemini ? declarations : out.tools).push_back(std::move(*e));
  }
  if (target == export_target::gemini)
    out.tools.push_back({{"functionDeclarations", std::move(declarations)}});
  return out;
}

}  // namespace tooluse::schema
