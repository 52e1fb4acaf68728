#pragma once
// BFCL's model handlers, as far as scoring needs them: which decoder reads a model's recorded
// output (`decode_ast` of each handler in model_handler/ at de8307b4), and whether the model's
// function names had their dots turned into underscores (UNDERSCORE_TO_DOT).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/checker.hpp"
#include "tooluse/eval/py_value.hpp"

namespace tooluse::eval::detail {

/// The decoder families of BFCL's handlers, plus `native`: tool calls recorded as
/// [{name: arguments-JSON}] (what `tooluse eval run` writes for native tool calling).
enum class decoder {
  gorilla, openai, claude_fc, claude_prompt, mistral, nexus, gemini, gemma, glaive, deepseek,
  databricks, hermes, llama, cohere, arctic, granite, nvidia, glm, yi, xlam, oss,
  native, pythonic
};

struct handler {
  decoder family = decoder::native;
  std::string model;          ///< the model name with `_` as `/`, as BFCL's handler sees it
  bool underscore_to_dot = false;
};

/// The handler BFCL uses for a result folder's model name (`_` stands for `/`); nullopt when the
/// leaderboard of that date does not know the model.
std::optional<handler> handler_for_model(std::string_view folder_name);

/// The handler for a decoder family named on the command line (`--format`): a BFCL family
/// name (`gorilla`, `hermes`, `claude_prompt`, ...), `native` or `pythonic`.
std::optional<handler> handler_for_format(std::string_view family, std::string_view model);

/// Every model name the 2024-08 leaderboard's handler map knows, and every family name.
std::vector<std::string> known_models();
std::vector<std::string> known_formats();

/// decode_ast(result, language) of the handler: the list of {name: {param: value}} BFCL's
/// checker reads, or whatever else the handler returns (BFCL then reports the wrong format).
/// Throws decode_error where the handler raises.
py_value decode_ast(const handler& h, const py_value& result, language lang);

/// Python's json.loads of a str (throws decode_error as json.JSONDecodeError would).
py_value json_loads(const py_value& text);

}  // namespace tooluse::eval::detail
