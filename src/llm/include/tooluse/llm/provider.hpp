#pragma once
/// \file provider.hpp
/// tooluse::llm::provider, one chat-completion call against a model, and the options every
/// provider adapter shares (endpoint, key, timeouts, retries, prices, transport).

#include <chrono>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "tooluse/http/client.hpp"
#include "tooluse/llm/message.hpp"
#include "tooluse/tools/tool.hpp"

namespace tooluse::llm {

/// tool_choice says whether and which tool the model must call.
struct tool_choice {
  enum class mode { automatic, none, required, named };
  mode what = mode::automatic;
  std::string name;  ///< mode::named

  /// parse reads "auto", "none", "required" (or "any") or a tool name.
  static tool_choice parse(std::string_view text);
  bool operator==(const tool_choice&) const = default;
};

/// finish_reason is why the model stopped, normalized across providers.
enum class finish_reason {
  stop,            ///< a final answer (OpenAI "stop", Anthropic "end_turn"/"stop_sequence")
  tool_calls,      ///< it wants tools run (OpenAI "tool_calls"/"function_call", "tool_use")
  length,          ///< the output token limit cut it off ("length", "max_tokens")
  content_filter,  ///< filtered ("content_filter", Anthropic "refusal")
  pause,           ///< Anthropic "pause_turn": resend to continue
  context_window,  ///< Anthropic "model_context_window_exceeded"
  other,           ///< anything else; the raw string is in chat_response::raw_finish
};

/// to_string returns the snake_case name of `r`.
std::string_view to_string(finish_reason r) noexcept;

/// chat_request is one model call.
struct chat_request {
  std::vector<message> messages;
  std::vector<tool> tools;
  tool_choice choice;
  std::optional<bool> parallel_tool_calls;  ///< unset: the provider's default (parallel)
  bool strict = false;                      ///< OpenAI strict schemas
  std::optional<int> max_tokens;            ///< required by Anthropic; default 4096 there
  std::optional<double> temperature;
  bool stream = false;
  /// allowed_tools narrows the tools the model may call on this request to these names while
  /// `tools` stays the same (so the provider's prompt cache holds): OpenAI allowed_tools,
  /// Gemini allowedFunctionNames. Providers without such a mode (Anthropic) send only these
  /// tools instead. Empty: all of `tools`.
  std::vector<std::string> allowed_tools;
  /// deferred_tools are tools the provider's own tool search loads on demand (Anthropic
  /// defer_loading with its tool search tool); providers without one ignore it.
  std::vector<std::string> deferred_tools;
  /// native_tool_search asks for the provider's own tool search tool: "bm25" or "regex"
  /// (Anthropic). Empty: none.
  std::string native_tool_search;
};

/// chat_response is the model's answer.
struct chat_response {
  message reply;  ///< role assistant
  finish_reason finish = finish_reason::stop;
  std::string raw_finish;
  llm::usage usage;
  std::string model;
  std::string id;
};

/// stream_callbacks receive a streamed answer as it arrives. All may be empty.
struct stream_callbacks {
  std::function<void(std::string_view)> on_text;
  std::function<void(std::string_view)> on_reasoning;
  std::function<void(const std::string& id, const std::string& name)> on_tool_call_start;
};

/// price is what a model costs, per million tokens.
/// usage::input_tokens counts every prompt token, cache reads and writes included; the cached
/// ones are priced at their own rates when given (0 means the input rate).
struct price {
  double input_per_mtok = 0;
  double output_per_mtok = 0;
  double cached_input_per_mtok = 0;  ///< cache reads; 0: input_per_mtok
  double cache_write_per_mtok = 0;   ///< cache writes (Anthropic); 0: input_per_mtok
};

/// cost_of returns what `u` costs at price `p` (USD by convention).
double cost_of(const usage& u, const price& p);

/// retry_policy says how 429 and 5xx answers and dropped connections are retried. A
/// Retry-After (or retry-after-ms) header overrides the backoff, capped at max_delay.
struct retry_policy {
  int max_retries = 3;
  std::chrono::milliseconds initial_delay{500};
  std::chrono::milliseconds max_delay{std::chrono::seconds(30)};
};

/// provider_options are shared by the adapters.
struct provider_options {
  std::string base_url;  ///< as the provider's SDK takes it, e.g. https://api.openai.com/v1
  std::string api_key;   ///< never logged, never recorded
  std::string model;
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(10)};
  /// read_timeout fails an answer (streamed or not) silent for this long.
  std::chrono::milliseconds read_timeout{std::chrono::seconds(120)};
  /// total_timeout ends one attempt, streamed or not, that has not finished in this time: a
  /// stream that never ends (keep-alive comments forever) stops here. 0: no bound.
  std::chrono::milliseconds total_timeout{std::chrono::minutes(10)};
  /// max_response_bytes bounds one answer's body (the whole SSE stream when streaming),
  /// refused with errc::limit_exceeded as the bytes arrive.
  std::size_t max_response_bytes = 32u << 20;
  /// max_event_bytes bounds one SSE event of a streamed answer.
  std::size_t max_event_bytes = 8u << 20;
  retry_policy retry;
  std::optional<llm::price> price;
  std::vector<http::header> extra_headers;
  http::transport transport;  ///< empty: http::default_transport()
};

/// provider is a model endpoint. Implementations are safe for concurrent complete() calls.
class provider {
 public:
  virtual ~provider() = default;
  /// complete sends `req` and returns the answer; with req.stream, deltas go to `callbacks`
  /// as they arrive. Retries per the retry policy before any byte was streamed.
  /// Errors: errc::http_error (4xx other than 429, message includes the provider's),
  /// errc::rate_limited (429 after retries), errc::network_error, errc::timeout,
  /// errc::cancelled, errc::protocol_error (unparsable answer, stream cut before its end).
  virtual result<chat_response> complete(const chat_request& req,
                                         const stream_callbacks& callbacks = {},
                                         std::stop_token stop = {}) = 0;

  /// chat_completion receives the outcome of complete_async, exactly once.
  using chat_completion = std::function<void(result<chat_response>)>;

  /// complete_async is complete() without holding a thread while the model answers: it
  /// returns at once, and `done` gets what complete() would have returned. `req` and
  /// `callbacks` are copied. The four HTTP adapters (openai_chat, openai_responses,
  /// anthropic_messages, gemini) have a non-blocking path: it runs
  /// `callbacks` on the HTTP pool's I/O thread and `done` on its completion thread
  /// (tooluse/http/pool.hpp): they must not block. The default calls complete() and then `done` on the calling thread.
  virtual void complete_async(const chat_request& req, const stream_callbacks& callbacks,
                              std::stop_token stop, chat_completion done);
  /// name returns "openai", "openai-responses", "anthropic" or "gemini" (or the adapter's own).
  virtual std::string name() const = 0;
};

}  // namespace tooluse::llm
