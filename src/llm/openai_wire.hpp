#pragma once
// OpenAI Chat Completions wire mapping, shared by the adapter's files.

#include "tooluse/llm/provider.hpp"
#include "tooluse/schema/name_map.hpp"
#include "tooluse/schema/translate.hpp"
#include "wire_common.hpp"

namespace tooluse::llm::detail {

/// The Chat Completions answer (`chat.completion`) and stream chunk (`chat.completion.chunk`),
/// as far as tooluse reads them; unknown fields are ignored. Decoded with decode_answer (root
/// "response" or "chunk"), so a field of the wrong type is an error naming its path.
namespace openai_wire {
// NOLINTBEGIN(readability-identifier-naming): members follow the provider's shapes.

struct function_call {
  std::optional<std::string> name;
  /// arguments: a string of JSON; a few compatible servers send the object itself.
  std::optional<json> arguments;
};
TOOLUSE_WIRE(function_call, (name), (arguments))

/// tool_call: a whole call (message.tool_calls) or a fragment of one (delta.tool_calls, with
/// its index).
struct tool_call {
  std::optional<int> index;
  std::optional<std::string> id;
  std::optional<function_call> function;
};
TOOLUSE_WIRE(tool_call, (index), (id), (function))

/// message: choices[].message, or a chunk's choices[].delta.
struct message {
  /// content: a string, or null beside tool calls; other shapes are not read.
  std::optional<json> content;
  std::optional<std::string> reasoning_content;  ///< DeepSeek, vLLM
  std::optional<std::string> reasoning;          ///< OpenRouter, Ollama
  std::optional<std::vector<tool_call>> tool_calls;
};
TOOLUSE_WIRE(message, (content), (reasoning_content), (reasoning), (tool_calls))

struct choice {
  std::optional<int> index;
  std::optional<openai_wire::message> message;
  std::optional<openai_wire::message> delta;
  std::optional<std::string> finish_reason;  ///< null until the last chunk
};
TOOLUSE_WIRE(choice, (index), (message), (delta), (finish_reason))

/// tokens_details: the breakdown of a count, here prompt_tokens_details (cached_tokens) and
/// completion_tokens_details (reasoning_tokens, from reasoning models); the Responses API sends
/// the same objects as input_tokens_details and output_tokens_details.
struct tokens_details {
  std::optional<std::int64_t> cached_tokens;
  std::optional<std::int64_t> reasoning_tokens;
};
TOOLUSE_WIRE(tokens_details, (cached_tokens), (reasoning_tokens))

struct usage {
  std::optional<std::int64_t> prompt_tokens;
  std::optional<std::int64_t> completion_tokens;
  std::optional<tokens_details> prompt_tokens_details;
  std::optional<tokens_details> completion_tokens_details;
};
TOOLUSE_WIRE(usage, (prompt_tokens), (completion_tokens), (prompt_tokens_details),
             (completion_tokens_details))

/// completion: the JSON answer, and each stream chunk (same outline, delta for message).
struct completion {
  std::optional<std::string> id;
  std::optional<std::string> model;
  std::optional<std::vector<choice>> choices;
  std::optional<openai_wire::usage> usage;
  std::optional<json> error;  ///< an error reported inside a stream
};
TOOLUSE_WIRE(completion, (id), (model), (choices), (usage), (error))

// NOLINTEND(readability-identifier-naming)
}  // namespace openai_wire

json openai_messages(const std::vector<message>& messages, const schema::name_map& names);
json openai_tool_choice(const tool_choice& choice, const schema::name_map& names);
finish_reason openai_finish(const std::string& raw);
/// token_usage is the usage of either OpenAI API from its input and output counts and their
/// details (cached input tokens, reasoning output tokens).
usage token_usage(const std::optional<std::int64_t>& input,
                  const std::optional<std::int64_t>& output,
                  const std::optional<openai_wire::tokens_details>& input_details,
                  const std::optional<openai_wire::tokens_details>& output_details);
usage openai_usage(const openai_wire::usage& u);
/// decode_call maps the wire name back and, in strict mode, drops the nulls strict added.
tool_call decode_call(std::string id, const std::string& wire_name, std::string arguments,
                      const chat_request& req, const schema::name_map& names);
result<chat_response> openai_decode(const json& body, const chat_request& req,
                                    const schema::name_map& names);

}  // namespace tooluse::llm::detail
