#pragma once
// Gemini generateContent wire mapping, shared by the adapter's files.

#include "tooluse/llm/provider.hpp"
#include "wire_common.hpp"

namespace tooluse::llm::detail {

/// gemini_contents renders the conversation (system messages left out: systemInstruction).
json gemini_contents(const std::vector<message>& messages, const schema::name_map& names);
/// gemini_tool_config renders toolConfig, or null when the defaults apply.
json gemini_tool_config(const tool_choice& choice, const std::vector<std::string>& allowed,
                        const schema::name_map& names);
usage gemini_usage(const json& u);
/// gemini_decode reads a GenerateContentResponse whose candidate parts are complete (the JSON
/// answer, or the parts of a stream gathered into one).
result<chat_response> gemini_decode(const json& body, const schema::name_map& names);

}  // namespace tooluse::llm::detail
