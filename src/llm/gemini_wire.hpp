#pragma once
// Gemini generateContent wire mapping, shared by the adapter's files.

#include "tooluse/llm/provider.hpp"
#include "wire_common.hpp"

namespace tooluse::llm::detail {

/// A GenerateContentResponse (the JSON answer, and each chunk of the stream), as far as tooluse
/// reads it; unknown fields are ignored. Decoded with decode_answer (root "response" or
/// "chunk").
namespace gemini_wire {
// NOLINTBEGIN(readability-identifier-naming): members follow the provider's shapes.

struct function_call {
  std::optional<std::string> id;  ///< absent on the Gemini API: tooluse makes one up
  std::optional<std::string> name;
  std::optional<json> args;  ///< an object; anything else counts as {}
};
TOOLUSE_WIRE(function_call, (id), (name), (args))

/// part: text (a thought summary when `thought`), a functionCall, or another kind (kept as
/// sent, with its thoughtSignature, to be echoed).
struct part {
  std::optional<std::string> text;
  std::optional<bool> thought;
  std::optional<gemini_wire::function_call> function_call;
};
TOOLUSE_WIRE(part, (text), (thought), (function_call, "functionCall"))

struct content {
  std::optional<std::string> role;
  std::optional<std::vector<part>> parts;
};
TOOLUSE_WIRE(content, (role), (parts))

struct candidate {
  std::optional<gemini_wire::content> content;
  std::optional<std::string> finish_reason;
};
TOOLUSE_WIRE(candidate, (content), (finish_reason, "finishReason"))

struct usage_metadata {
  std::optional<std::int64_t> prompt_token_count;
  std::optional<std::int64_t> candidates_token_count;
  std::optional<std::int64_t> cached_content_token_count;
  std::optional<std::int64_t> thoughts_token_count;
};
TOOLUSE_WIRE(usage_metadata, (prompt_token_count, "promptTokenCount"),
             (candidates_token_count, "candidatesTokenCount"),
             (cached_content_token_count, "cachedContentTokenCount"),
             (thoughts_token_count, "thoughtsTokenCount"))

struct response {
  std::optional<std::vector<candidate>> candidates;
  std::optional<gemini_wire::usage_metadata> usage_metadata;
  std::optional<std::string> model_version;
  std::optional<std::string> response_id;
  std::optional<json> prompt_feedback;
  std::optional<json> error;  ///< an error reported inside a stream
};
TOOLUSE_WIRE(response, (candidates), (usage_metadata, "usageMetadata"),
             (model_version, "modelVersion"), (response_id, "responseId"),
             (prompt_feedback, "promptFeedback"), (error))

// NOLINTEND(readability-identifier-naming)
}  // namespace gemini_wire

/// gemini_contents renders the conversation (system messages left out: systemInstruction).
json gemini_contents(const std::vector<message>& messages, const schema::name_map& names);
/// gemini_tool_config renders toolConfig, or null when the defaults apply.
json gemini_tool_config(const tool_choice& choice, const std::vector<std::string>& allowed,
                        const schema::name_map& names);
usage gemini_usage(const gemini_wire::usage_metadata& u);
/// gemini_decode reads a GenerateContentResponse whose candidate parts are complete (the JSON
/// answer, or the parts of a stream gathered into one).
result<chat_response> gemini_decode(const json& body, const schema::name_map& names);

}  // namespace tooluse::llm::detail
