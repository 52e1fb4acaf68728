#pragma once
// Turning scanned values into tooluse::tool_call: the JSON call shapes models write, Python
// calls, XML parameters, and typing string-valued arguments by the tool's schema.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "textcall/lenient.hpp"
#include "tooluse/textcall/text_format.hpp"

namespace tooluse::textcall::detail {

/// make_call builds a call whose arguments parsed (raw is their JSON text).
tool_call make_call(std::string name, json arguments);

/// malformed_call builds a call whose arguments did not parse: arguments null, raw kept.
tool_call malformed_call(std::string name, std::string raw);

/// calls_from_json recognises the JSON call shapes: {"name", "arguments"|"parameters"},
/// {"function": {...}}, {"tool_name", "parameters"} (Command R), xLAM {"tool_calls": [...]}
/// and lists of these. nullopt when `v` is not call-shaped.
std::optional<std::vector<tool_call>> calls_from_json(const json& v);

/// from_py_call converts a Python call, mapping positional arguments by the schema's
/// property order (without a schema they make the call malformed), then types it.
tool_call from_py_call(py_call call, const tool_schemas& schemas);

/// type_arguments converts string arguments to the type the tool's schema gives them
/// ("3" -> 3 for an integer), leaving anything it cannot convert as it is.
void type_arguments(tool_call& call, const tool_schemas& schemas);

/// schema_type returns the JSON type a property schema names ("integer", "number", ...), with
/// BFCL's aliases (dict, float, tuple) mapped; "" when untyped or ambiguous.
std::string schema_type(const json& property_schema);

/// property_schema returns the schema of `tool`'s property `name`, or nullptr.
const json* property_schema(const tool_schemas& schemas, std::string_view tool,
                            std::string_view name);

}  // namespace tooluse::textcall::detail
