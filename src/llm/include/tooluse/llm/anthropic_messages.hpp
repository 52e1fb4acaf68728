#pragma once
/// \file anthropic_messages.hpp
/// tooluse::llm::anthropic_messages, the Anthropic Messages adapter (POST {base_url}/v1/messages,
/// base_url as the SDK takes it: https://api.anthropic.com). Wire format: wire-formats.md 2.3.

#include "tooluse/llm/http_adapter.hpp"

namespace tooluse::llm {

/// anthropic_messages talks to the Messages API. Tool results of one turn go in one user message
/// as tool_result blocks (with is_error); thinking blocks and their signatures are echoed back.
/// encode_request sets max_tokens to 4096 when the request has none. Thread-safe: complete()
/// may be called concurrently.
class anthropic_messages final : public http_adapter {
 public:
  /// anthropic_messages keeps `options`. Throws std::invalid_argument if base_url or model is
  /// empty.
  explicit anthropic_messages(provider_options options);
};

}  // namespace tooluse::llm
