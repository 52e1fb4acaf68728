#pragma once
/// \file anthropic_messages.hpp
/// tooluse::llm::anthropic_messages, the Anthropic Messages adapter (POST {base_url}/v1/messages,
/// base_url as the SDK takes it: https://api.anthropic.com). Wire format: wire-formats.md 2.3.

#include "tooluse/llm/provider.hpp"

namespace tooluse::llm {

/// anthropic_messages talks to the Messages API. Tool results of one turn go in one user message
/// as tool_result blocks (with is_error); thinking blocks and their signatures are echoed back.
/// Thread-safe: complete() may be called concurrently.
class anthropic_messages final : public provider {
 public:
  /// anthropic_messages keeps `options`. Throws std::invalid_argument if base_url or model is
  /// empty.
  explicit anthropic_messages(provider_options options);

  result<chat_response> complete(const chat_request& req, const stream_callbacks& callbacks = {},
                                 std::stop_token stop = {}) override;
  std::string name() const override { return "anthropic"; }

  /// encode_request returns the JSON body complete() would send. max_tokens defaults to 4096.
  result<json> encode_request(const chat_request& req) const;

 private:
  provider_options options_;
};

}  // namespace tooluse::llm
