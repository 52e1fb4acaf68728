#pragma once
/// \file openai_chat.hpp
/// tooluse::llm::openai_chat, the OpenAI Chat Completions adapter (POST {base_url}/chat/completions).
/// It also serves the OpenAI-compatible servers: DeepSeek, Qwen/DashScope, OpenRouter, Ollama,
/// vLLM and the llama.cpp server, by changing base_url. Wire format: wire-formats.md 2.1.

#include "tooluse/llm/http_adapter.hpp"

namespace tooluse::llm {

/// openai_chat talks to one Chat Completions endpoint. Thread-safe: complete() may be called
/// concurrently (each call is its own HTTP exchange).
/// Example:
///   tooluse::llm::openai_chat model({.base_url = "https://api.openai.com/v1",
///                                    .api_key = key, .model = "gpt-4.1-mini"});
///   auto reply = model.complete({.messages = {tooluse::llm::message::user("hi")}});
class openai_chat final : public http_adapter {
 public:
  /// openai_chat keeps `options`. Throws std::invalid_argument if base_url or model is empty.
  explicit openai_chat(provider_options options);
};

}  // namespace tooluse::llm
