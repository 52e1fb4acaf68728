#pragma once
/// \file openai_responses.hpp
/// tooluse::llm::openai_responses, the OpenAI Responses API adapter (POST {base_url}/responses,
/// base_url as the SDK takes it: https://api.openai.com/v1). Wire format: wire-formats.md 2.2.

#include "tooluse/llm/http_adapter.hpp"

namespace tooluse::llm {

/// openai_responses talks to the Responses API statelessly: every request resends the whole
/// conversation as input items. Tool calls are `function_call` items correlated by `call_id`;
/// results go back as `function_call_output` items in call order. The model's output items
/// (reasoning items with their encrypted content, function calls, messages) are echoed back
/// verbatim in the next request, as the API requires for reasoning models.
/// Allowed tools map to tool_choice {"type":"allowed_tools"}. Thread-safe.
class openai_responses final : public http_adapter {
 public:
  /// openai_responses keeps `options`. Throws std::invalid_argument if base_url or model is
  /// empty.
  explicit openai_responses(provider_options options);
};

}  // namespace tooluse::llm
