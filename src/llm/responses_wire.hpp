#pragma once
// OpenAI Responses wire mapping, shared by the adapter's files.

#include "openai_wire.hpp"
#include "tooluse/llm/provider.hpp"
#include "wire_common.hpp"

namespace tooluse::llm::detail {

/// A Response object and the stream events, as far as tooluse reads them; unknown fields are
/// ignored. Decoded with decode_answer (root "response" or "event").
namespace responses_wire {
// NOLINTBEGIN(readability-identifier-naming): members follow the provider's shapes.

/// content_part: a message item's content (output_text, refusal, ...) or a reasoning summary.
struct content_part {
  std::optional<std::string> type;
  std::optional<std::string> text;
};
TOOLUSE_WIRE(content_part, (type), (text))

/// output_item: message, function_call, reasoning, or another kind (kept as sent, to be echoed).
struct output_item {
  std::optional<std::string> type;
  std::optional<std::vector<content_part>> content;
  std::optional<std::string> call_id;
  std::optional<std::string> name;
  std::optional<json> arguments;  ///< a string of JSON (an object from a few servers)
  std::optional<std::vector<content_part>> summary;
};
TOOLUSE_WIRE(output_item, (type), (content), (call_id), (name), (arguments), (summary))

/// usage: the counts' details have Chat Completions' shape (openai_wire::tokens_details).
struct usage {
  std::optional<std::int64_t> input_tokens;
  std::optional<std::int64_t> output_tokens;
  std::optional<openai_wire::tokens_details> input_tokens_details;
  std::optional<openai_wire::tokens_details> output_tokens_details;
};
TOOLUSE_WIRE(usage, (input_tokens), (output_tokens), (input_tokens_details),
             (output_tokens_details))

struct incomplete_details {
  std::optional<std::string> reason;
};
TOOLUSE_WIRE(incomplete_details, (reason))

struct response_error {
  std::optional<std::string> code;
  std::optional<std::string> message;
};
TOOLUSE_WIRE(response_error, (code), (message))

/// response: the JSON answer, and the `response` of response.completed (or .incomplete,
/// .failed).
struct response {
  std::optional<std::string> id;
  std::optional<std::string> model;
  std::optional<std::string> status;
  std::optional<std::vector<output_item>> output;
  std::optional<response_error> error;
  std::optional<responses_wire::incomplete_details> incomplete_details;
  std::optional<responses_wire::usage> usage;
};
TOOLUSE_WIRE(response, (id), (model), (status), (output), (error), (incomplete_details), (usage))

/// event: one stream event; `type` defaults to the SSE event name.
struct event {
  std::optional<std::string> type;
  std::optional<int> output_index;
  std::optional<json> item;  ///< kept as sent; read as an output_item
  std::optional<std::string> delta;
  std::optional<std::string> arguments;
  std::optional<json> response;  ///< kept as sent; read as a response
};
TOOLUSE_WIRE(event, (type), (output_index), (item), (delta), (arguments), (response))

// NOLINTEND(readability-identifier-naming)
}  // namespace responses_wire

/// responses_input renders the conversation as Responses input items (system messages are
/// left out: they go in `instructions`).
json responses_input(const std::vector<message>& messages, const schema::name_map& names);
/// responses_tool_choice renders the choice, as allowed_tools when `allowed` is not empty.
json responses_tool_choice(const tool_choice& choice, const std::vector<std::string>& allowed,
                           const schema::name_map& names);
usage responses_usage(const responses_wire::usage& u);
/// responses_decode reads a Response object (the JSON answer, or response.completed's).
result<chat_response> responses_decode(const json& body, const chat_request& req,
                                       const schema::name_map& names);

}  // namespace tooluse::llm::detail
