#pragma once
/// \file import.hpp
/// Import of foreign tool definitions into tool_spec: MCP tools, OpenAI functions (Chat and
/// Responses shapes, and bare `{name,description,parameters}`), Anthropic tools, Gemini function
/// declarations and BFCL function docs (`dict`, `float`, `tuple`, `any`, Java/JS type names).
/// The form is detected. design/schema-translation.md lists the rules.

#include <string_view>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/schema/translate.hpp"

namespace tooluse::schema {

/// tool_format is a dialect a tool definition can come in.
enum class tool_format {
  mcp,               ///< {name,title?,description?,inputSchema,outputSchema?,annotations?}
  openai_chat,       ///< {"type":"function","function":{name,description,parameters,strict?}}
  openai_responses,  ///< {"type":"function",name,description,parameters,strict?}
  openai_function,   ///< bare {name,description,parameters} with a JSON Schema (also Gemini)
  anthropic,         ///< {name,description,input_schema}
  bfcl,              ///< {name,description,parameters} with BFCL types ("dict", "float", ...)
};

/// to_string returns the snake_case name of `format`.
std::string_view to_string(tool_format format) noexcept;

/// detect_tool_format tells which dialect `definition` (one tool, an object) is in.
/// Errors: errc::invalid_argument saying which fields were expected.
result<tool_format> detect_tool_format(const json& definition);

/// bfcl_options tune the BFCL conversion.
struct bfcl_options {
  /// close_objects sets additionalProperties:false on the parameters object and on nested
  /// objects that declare properties (a Python function takes no unknown keyword arguments).
  bool close_objects = true;
};

/// bfcl_to_json_schema converts a BFCL `parameters` doc to JSON Schema 2020-12: dict/HashMap
/// -> object, float/double -> number, long -> integer, tuple/Array/ArrayList -> array,
/// String -> string, Boolean -> boolean, char -> one-character string, any -> no constraint;
/// `default: null` makes the value nullable; an enum on an array constrains its items; an enum
/// whose values contradict the declared type decides the type; `optional` is dropped.
/// Errors: errc::invalid_argument naming an unknown type and where it is.
result<json> bfcl_to_json_schema(const json& parameters, const bfcl_options& options = {});

/// import_tool converts one definition in `format` to a tool_spec.
/// Errors: errc::invalid_argument naming a missing or mistyped field.
result<tool_spec> import_tool(const json& definition, tool_format format,
                              const bfcl_options& options = {});

/// import_tool detects the format, then converts.
result<tool_spec> import_tool(const json& definition, const bfcl_options& options = {});

/// import_tools converts one definition or many: an array of definitions, an object with
/// `tools` (an MCP tools/list result or a provider request), a Gemini `functionDeclarations`
/// wrapper, or a BFCL entry with `function`. Formats may differ between elements.
/// Errors: the first definition that fails, with its index.
result<std::vector<tool_spec>> import_tools(const json& definitions,
                                            const bfcl_options& options = {});

}  // namespace tooluse::schema
