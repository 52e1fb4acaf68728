#pragma once
/// \file http_adapter.hpp
/// tooluse::llm::http_adapter, the base of the four HTTP adapters (openai_chat,
/// openai_responses, anthropic_messages, gemini): one exchange with the model, blocking and
/// asynchronous, of which each adapter supplies only its wire (request, headers, decoders).

#include <memory>

#include "tooluse/llm/provider.hpp"

namespace tooluse::llm {

namespace detail {
struct provider_wire;
class tools_cache;
}

/// http_adapter sends a chat_request over HTTP with retries and decodes the answer, a whole
/// JSON body or an SSE stream. complete_async runs on the HTTP pool (tooluse/http/pool.hpp)
/// and holds no thread while the model answers. Thread-safe: calls are independent exchanges.
class http_adapter : public provider {
 public:
  result<chat_response> complete(const chat_request& req, const stream_callbacks& callbacks = {},
                                 std::stop_token stop = {}) final;
  /// complete_async sends on the HTTP pool without holding a thread (provider.hpp).
  void complete_async(const chat_request& req, const stream_callbacks& callbacks,
                      std::stop_token stop, chat_completion done) final;

  /// encode_request returns the JSON body complete() would send (tool names mapped).
  /// Errors: a tool schema the provider cannot take (strict mode, a recursive $ref, ...).
  result<json> encode_request(const chat_request& req) const;

  /// name is the adapter's wire name ("openai", "openai-responses", "anthropic", "gemini"), the
  /// one that starts its errors.
  std::string name() const override;

 protected:
  /// http_adapter keeps `options`; `wire` is the adapter's own, of static lifetime. Throws
  /// std::invalid_argument naming `class_name` if base_url or model is empty.
  http_adapter(provider_options options, const detail::provider_wire& wire,
               const char* class_name);

  provider_options options_;

 private:
  const detail::provider_wire* wire_;
  std::shared_ptr<detail::tools_cache> tools_;  ///< the last request's tools, translated
};

}  // namespace tooluse::llm
