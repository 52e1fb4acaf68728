#pragma once
/// \file translate.hpp
/// Translation of tool definitions into the dialect each provider accepts: OpenAI Chat (plain
/// and strict), OpenAI Responses, Anthropic, Gemini and MCP. Works on plain data (tool_spec), so
/// the tools layer and the CLI can both use it. design/schema-translation.md explains each rule.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/schema/name_map.hpp"

namespace tooluse::schema {

/// tool_spec is what translation needs to know about a tool. `input_schema` is JSON Schema
/// 2020-12 with an object root; `annotations` holds MCP hint names (readOnlyHint, ...).
struct tool_spec {
  std::string name;
  std::string title;
  std::string description;
  json input_schema = json::object({{"type", "object"}, {"properties", json::object()}});
  std::optional<json> output_schema;
  json annotations = json::object();
  bool strict = false;  ///< for Responses: send strict:true with the strict schema
};

/// export_target names a provider dialect.
enum class export_target { openai, openai_strict, responses, anthropic, gemini, mcp };

/// parse_export_target reads "openai", "openai-strict", "responses", "anthropic", "gemini" or
/// "mcp". Errors: errc::invalid_argument listing the accepted names.
result<export_target> parse_export_target(std::string_view name);

/// to_string returns the name parse_export_target accepts.
std::string_view to_string(export_target target) noexcept;

/// name_rule_for is the tool-name rule of `target`.
name_rule name_rule_for(export_target target) noexcept;

/// strict_options tune make_strict_schema.
struct strict_options {
  /// drop_unsupported removes keywords OpenAI strict mode does not support (minLength,
  /// uniqueItems, not, ...) instead of failing. Safe only because tooluse validates every call
  /// against the original schema before running it; the model is simply not held to them.
  bool drop_unsupported = false;
  /// max_schema_nodes bounds the schema nodes a translation may visit, for every target: a
  /// schema from a peer whose $refs expand exponentially when inlined (each definition using
  /// the next one twice) is refused with errc::limit_exceeded instead of exhausting memory.
  std::size_t max_schema_nodes = 20'000;
};

/// make_strict_schema rewrites `schema` for OpenAI strict mode (Structured Outputs): every
/// object gets additionalProperties:false and lists all its properties in `required`; a
/// property that was optional becomes nullable (type array with "null", or anyOf with a null
/// branch); oneOf becomes anyOf; const becomes a one-value enum; a single-schema allOf is merged;
/// annotations OpenAI does not take (default, examples, $comment, ...) are dropped; $ref/$defs
/// are kept (a $ref with siblings is inlined).
/// Errors: errc::unsupported naming the keyword and its path (`arguments.filter:
/// "patternProperties" is not supported by openai strict mode`) for a keyword strict mode cannot
/// express, for an object whose keys are free-form, for a root that is not an object, and for
/// schemas over OpenAI's limits (10 levels of nesting, 5000 properties, 1000 enum values).
result<json> make_strict_schema(const json& schema, const strict_options& options = {});

/// to_strict_arguments fills in null for every optional property an argument object omits, as a
/// model calling the strict schema of `schema` has to. Arguments are not otherwise checked.
json to_strict_arguments(const json& schema, const json& arguments);

/// from_strict_arguments reverses it: removes a null property value where `schema` (the original
/// schema) does not require the property and does not accept null for it, so the call validates
/// against the original schema.
json from_strict_arguments(const json& schema, const json& arguments);

/// make_gemini_schema rewrites `schema` into the OpenAPI 3.0 subset Gemini's `parameters`
/// accepts: $ref is inlined, a type array with "null" becomes `nullable: true`, other type
/// arrays become anyOf, const becomes enum, oneOf becomes anyOf, non-string enums move into the
/// description, and keywords Gemini rejects (additionalProperties, $schema, $defs, exclusive
/// bounds, patternProperties, ...) are removed.
/// Errors: errc::unsupported for a recursive $ref (Gemini cannot express recursion), an allOf
/// with several schemas, or a $ref that does not resolve; errc::limit_exceeded when inlining
/// would visit more than `max_schema_nodes` schemas (strict_options::max_schema_nodes).
result<json> make_gemini_schema(const json& schema, std::size_t max_schema_nodes = 20'000);

/// export_tool translates one tool for `target`, naming it with `provider_name` (give the name
/// from a name_map; empty means the tool's own name, which must then satisfy the rule).
/// Shapes: openai `{"type":"function","function":{name,description,parameters[,strict]}}`;
/// responses `{"type":"function",name,description,parameters,strict}`; anthropic
/// `{name,description,input_schema}`; gemini `{name,description,parameters}` (a function
/// declaration); mcp `{name,title,description,inputSchema,outputSchema,annotations}`.
/// Errors: errc::invalid_argument if the input schema's root is not an object schema or the
/// name breaks the target's rule; errors of make_strict_schema and make_gemini_schema.
result<json> export_tool(const tool_spec& tool, export_target target,
                         std::string_view provider_name = {},
                         const strict_options& options = {});

/// exported_tools is a request's `tools` field for a provider, plus the names used in it.
struct exported_tools {
  json tools;       ///< an array; for gemini one element `{"functionDeclarations":[...]}`
  name_map names;   ///< maps the provider names a model will call back to tool names
};

/// export_tools translates several tools at once, mapping their names with one name_map.
/// Errors: the first tool that fails, with its name in the message.
result<exported_tools> export_tools(const std::vector<tool_spec>& tools, export_target target,
                                    const strict_options& options = {});

}  // namespace tooluse::schema
