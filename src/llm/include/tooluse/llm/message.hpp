#pragma once
/// \file message.hpp
/// The provider-neutral conversation model: system, user, assistant and tool messages with
/// text/image content parts, tool calls, reasoning content and provider extras to echo back.

#include <cstdint>
#include <string>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/tools/tool_call.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse::llm {

/// role is who wrote a message. `tool` messages carry one tool result each.
enum class role { system, user, assistant, tool };

/// to_string returns "system", "user", "assistant" or "tool".
std::string_view to_string(role r) noexcept;

/// content_part is one piece of a message's content: text, or an image given as base64 data
/// with a MIME type or as a URL.
struct content_part {
  enum class kind { text, image };
  kind type = kind::text;
  std::string text;       ///< kind::text
  std::string data;       ///< kind::image, base64
  std::string mime_type;  ///< kind::image, e.g. "image/png"
  std::string url;        ///< kind::image given by URL instead of data

  static content_part text_part(std::string s) {
    return {.type = kind::text, .text = std::move(s)};
  }
  bool operator==(const content_part&) const = default;
};

/// message is one conversation entry.
/// - assistant: `content` (text), `tool_calls`, `reasoning` (DeepSeek reasoning_content,
///   Anthropic thinking) and `extras` (provider data that must be sent back verbatim, e.g. an
///   Anthropic thinking signature or Gemini thought signatures);
/// - tool: `tool_call_id`, `tool_name`, `content` and `is_error`.
struct message {
  llm::role role = llm::role::user;
  std::vector<content_part> content;
  std::vector<tool_call> tool_calls;
  std::string reasoning;
  std::string tool_call_id;
  std::string tool_name;
  bool is_error = false;
  json extras = json::object();

  /// text concatenates the text parts.
  std::string text() const;

  static message system(std::string text);
  static message user(std::string text);
  static message assistant(std::string text);
  /// tool_result makes the tool message answering `call` with `result` (text blocks become
  /// text parts, images image parts; other blocks are rendered as JSON text).
  static message tool_result(const tool_call& call, const tooluse::tool_result& result);
};

/// usage counts tokens, and the cost computed from a provider's prices. input_tokens counts
/// every prompt token; cache_read_tokens and cache_write_tokens are the part of them read from
/// or written to the provider's prompt cache (normalized across providers).
struct usage {
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  std::int64_t cache_read_tokens = 0;
  std::int64_t cache_write_tokens = 0;
  std::int64_t reasoning_tokens = 0;  ///< part of output_tokens spent reasoning, when reported
  double cost = 0;   ///< in the price table's unit (USD by convention); 0 when unpriced
  int requests = 0;  ///< model requests counted (1 per response; summed per run)

  std::int64_t total_tokens() const { return input_tokens + output_tokens; }
  usage& operator+=(const usage& other);
};

/// usage_to_json renders {"input_tokens","output_tokens","total_tokens",...,"cost"}.
json usage_to_json(const usage& u);

/// message_to_json renders a message in tooluse's own neutral shape (for traces, recordings).
json message_to_json(const message& m);

}  // namespace tooluse::llm
