#pragma once
/// \file tool_call.hpp
/// tooluse::tool_call, one call a model asked for.

#include <string>

#include "tooluse/json.hpp"

namespace tooluse {

/// tool_call is what a model produced: the provider's call id (echoed back with the result),
/// the tool name, the argument text exactly as received, and the parsed arguments (null when
/// the text did not parse; the engine then answers with an error result, never runs the tool).
struct tool_call {
  std::string id;
  std::string name;
  std::string raw_arguments;        ///< as the model wrote it, e.g. "{\"a\":1}"
  json arguments = json::object();  ///< parsed; null if raw_arguments was not valid JSON
  json extras = json::object();     ///< provider data to echo back (e.g. Gemini thoughtSignature)

  /// from_text builds a call from raw argument text, parsing it leniently only as JSON
  /// (an empty string means {}). On a parse failure `arguments` is null.
  static tool_call from_text(std::string id, std::string name, std::string raw_arguments);
};

}  // namespace tooluse
