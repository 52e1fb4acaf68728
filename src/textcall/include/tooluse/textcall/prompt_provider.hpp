#pragma once
/// \file prompt_provider.hpp
/// tooluse::textcall::prompt_provider, prompt-based tool calling over any llm::provider: the
/// tool definitions are written into the system prompt in a raw text format, earlier calls and
/// results are replayed as text, and the calls are parsed back out of the model's text (also
/// while it streams). The agent loop runs on top unchanged.
///
/// Example:
///   auto inner = std::make_shared<tooluse::llm::openai_chat>(options);
///   tooluse::textcall::prompt_provider p(inner, {.text_format = tooluse::textcall::format::hermes});
///   tooluse::agent agent(p, tools, {});

#include <memory>
#include <string>

#include "tooluse/llm/provider.hpp"
#include "tooluse/textcall/text_format.hpp"

namespace tooluse::textcall {

/// prompt_provider_options configure the adapter.
struct prompt_provider_options {
  format text_format = format::hermes;  ///< how tools are announced and calls written/read
  /// parse_format reads the replies; auto_detect (default) accepts any syntax, which helps with
  /// models that drift from the announced format.
  format parse_format = format::auto_detect;
  bool in_reasoning = false;  ///< the server's template opens <think> for the model
};

/// prompt_provider adapts a provider without native tool calling. It sends no `tools` to the
/// inner provider. Safe for concurrent complete() calls if the inner provider is.
class prompt_provider : public llm::provider {
 public:
  /// prompt_provider wraps `inner`; throws std::invalid_argument if it is null.
  prompt_provider(std::shared_ptr<llm::provider> inner, prompt_provider_options options = {});

  /// complete rewrites the request into plain text messages, calls the inner provider and
  /// parses the calls out of its answer (finish_reason::tool_calls when there are any).
  /// Errors: those of the inner provider.
  result<llm::chat_response> complete(const llm::chat_request& req,
                                      const llm::stream_callbacks& callbacks = {},
                                      std::stop_token stop = {}) override;

  /// name returns "<inner>+<format>", e.g. "openai+hermes".
  std::string name() const override;

  /// to_text_request is the rewritten request complete() sends (exposed for tests and dumps).
  llm::chat_request to_text_request(const llm::chat_request& req) const;

 private:
  std::shared_ptr<llm::provider> inner_;
  prompt_provider_options options_;
};

}  // namespace tooluse::textcall
