#pragma once
/// \file gemini.hpp
/// tooluse::llm::gemini, the Gemini API adapter (POST
/// {base_url}/v1beta/models/{model}:generateContent, or :streamGenerateContent?alt=sse;
/// base_url https://generativelanguage.googleapis.com). Wire format: wire-formats.md 2.4.

#include "tooluse/llm/http_adapter.hpp"

namespace tooluse::llm {

/// gemini talks to the Gemini API. Tools are `functionDeclarations` in the OpenAPI subset
/// Gemini accepts (schema::make_gemini_schema); calls are `functionCall` parts (with the id the
/// API gives, else tooluse makes one up and leaves it off the wire); results go back as
/// `functionResponse` parts, in call order, in one user turn right after the model turn. The
/// model turn is replayed with its parts exactly as received, so thought signatures go back.
/// Tool choice and allowed tools map to toolConfig.functionCallingConfig (mode AUTO, ANY,
/// NONE, VALIDATED; allowedFunctionNames). The key goes in the x-goog-api-key header.
/// Thread-safe.
class gemini final : public http_adapter {
 public:
  /// gemini keeps `options`. Throws std::invalid_argument if base_url or model is empty.
  explicit gemini(provider_options options);
};

}  // namespace tooluse::llm
