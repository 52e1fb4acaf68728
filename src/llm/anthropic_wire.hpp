#pragma once
// Anthropic Messages wire mapping, shared by the adapter's files.

#include "tooluse/llm/provider.hpp"
#include "wire_common.hpp"

namespace tooluse::llm::detail {

/// The Messages answer and its stream events, as far as tooluse reads them; unknown fields are
/// ignored. Decoded with decode_answer (root "response" or "event").
namespace anthropic_wire {
// NOLINTBEGIN(readability-identifier-naming): members follow the provider's shapes.

struct usage {
  std::optional<std::int64_t> input_tokens;  ///< without the cached ones
  std::optional<std::int64_t> output_tokens;
  std::optional<std::int64_t> cache_read_input_tokens;
  std::optional<std::int64_t> cache_creation_input_tokens;
};
TOOLUSE_WIRE(usage, (input_tokens), (output_tokens), (cache_read_input_tokens),
             (cache_creation_input_tokens))

/// content_block: text, thinking, redacted_thinking, tool_use, or a server tool's block (kept
/// as sent, to be echoed).
struct content_block {
  std::optional<std::string> type;
  std::optional<std::string> text;
  std::optional<std::string> thinking;
  std::optional<std::string> id;
  std::optional<std::string> name;
  std::optional<json> input;  ///< a tool_use's arguments, free-form
};
TOOLUSE_WIRE(content_block, (type), (text), (thinking), (id), (name), (input))

/// message: the JSON answer, and message_start's `message`.
struct message {
  std::optional<std::string> id;
  std::optional<std::string> model;
  std::optional<std::vector<content_block>> content;
  std::optional<std::string> stop_reason;
  std::optional<anthropic_wire::usage> usage;
};
TOOLUSE_WIRE(message, (id), (model), (content), (stop_reason), (usage))

/// delta: content_block_delta's (text_delta, input_json_delta, thinking_delta,
/// signature_delta) and message_delta's (stop_reason).
struct delta {
  std::optional<std::string> type;
  std::optional<std::string> text;
  std::optional<std::string> partial_json;
  std::optional<std::string> thinking;
  std::optional<std::string> signature;
  std::optional<std::string> stop_reason;
};
TOOLUSE_WIRE(delta, (type), (text), (partial_json), (thinking), (signature), (stop_reason))

/// event: one stream event; `type` defaults to the SSE event name.
struct event {
  std::optional<std::string> type;
  std::optional<int> index;
  std::optional<anthropic_wire::message> message;
  std::optional<json> content_block;  ///< kept as sent; read as a content_block
  std::optional<anthropic_wire::delta> delta;
  std::optional<anthropic_wire::usage> usage;
};
TOOLUSE_WIRE(event, (type), (index), (message), (content_block), (delta), (usage))

// NOLINTEND(readability-identifier-naming)
}  // namespace anthropic_wire

json anthropic_messages_json(const std::vector<message>& messages, const schema::name_map& names);
json anthropic_tool_choice(const tool_choice& choice, std::optional<bool> parallel,
                           const schema::name_map& names);
finish_reason anthropic_finish(const std::string& raw);
void anthropic_usage(const anthropic_wire::usage& u, usage& out);
tool_call anthropic_call(const anthropic_wire::content_block& block, const schema::name_map& names);
result<chat_response> anthropic_decode(const json& body, const schema::name_map& names);

}  // namespace tooluse::llm::detail
