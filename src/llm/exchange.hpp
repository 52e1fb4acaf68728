#pragma once
// What an HTTP adapter brings to the one exchange of http_adapter (http_adapter.cpp: POST with
// retries → status and error mapping → the whole body or the SSE stream → decode → usage and
// cost): its request (URL, headers, body) with the tool-name map its answer is decoded with,
// and its two decoders.

#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "tooluse/http/sse.hpp"
#include "wire_common.hpp"

namespace tooluse::llm::detail {

/// stream_decoder assembles one streamed answer from its SSE events. The exchange sets `who`,
/// `req`, `names` and `callbacks` before the first event; `failure`, once set, ends the stream.
class stream_decoder {
 public:
  virtual ~stream_decoder() = default;
  /// on_event takes one event; a malformed one sets `failure`.
  virtual void on_event(const http::sse_event& ev) = 0;
  /// assemble returns the answer once the stream has ended (or `failure`).
  virtual result<chat_response> assemble() = 0;

  std::string who;
  const chat_request* req = nullptr;
  const schema::name_map* names = nullptr;
  const stream_callbacks* callbacks = nullptr;
  std::optional<error> failure;

 protected:
  /// decode_event reads `ev` as one JSON event of wire type T (`root` names it in errors), and
  /// its JSON into `raw` when given; a malformed event sets `failure` and gives nothing.
  template <class T>
  std::optional<T> decode_event(const http::sse_event& ev, const char* root, json* raw = nullptr) {
    auto j = parse_json(ev.data);
    if (!j || !j->is_object()) {
      failure = error{errc::protocol_error,
                      who + ": stream event is not JSON: " + ev.data.substr(0, 200)};
      return std::nullopt;
    }
    auto e = decode_answer<T>(*j, who, root);
    if (!e) {
      failure = e.error();
      return std::nullopt;
    }
    if (raw) *raw = std::move(*j);
    return std::move(*e);
  }
  /// error_event records an error the provider sent inside the stream.
  void error_event(const http::sse_event& ev) {
    failure = error{errc::http_error, who + ": error in stream: " + provider_error_message(ev.data)};
  }
  /// cut_short is the error for a stream that ended before `missing` arrived.
  error cut_short(std::string_view missing) const {
    return {errc::protocol_error, who + ": the stream ended before the answer was complete (no " +
                                      std::string(missing) +
                                      "); the connection was cut or the server failed mid-answer"};
  }
};

/// provider_wire is an adapter's part of an exchange: its request and its decoders.
struct provider_wire {
  std::string who;  ///< starts every error: "openai", "anthropic", "gemini", "openai-responses"
  /// tools translates req.tools for the provider, with the name map to decode calls with.
  result<wire_tools> (*tools)(const chat_request& req) = nullptr;
  /// body is the JSON body for `req` with its tools.
  json (*body)(const provider_options& options, const chat_request& req,
               const wire_tools& tools) = nullptr;
  /// path is the URL path below base_url; path_for, when set, computes it instead.
  std::string path;
  std::string (*path_for)(const provider_options& options, const chat_request& req) = nullptr;
  /// headers are the provider's own (version, key), sent after Content-Type and Accept.
  std::vector<http::header> (*headers)(const provider_options& options,
                                       const chat_request& req) = nullptr;
  /// decode turns a whole JSON answer into a chat_response.
  result<chat_response> (*decode)(const json& body, const chat_request& req,
                                  const schema::name_map& names) = nullptr;
  /// stream makes the decoder of one streamed answer.
  std::unique_ptr<stream_decoder> (*stream)() = nullptr;
};

/// decoder_of makes a stream decoder of type T (provider_wire::stream).
template <class T>
std::unique_ptr<stream_decoder> decoder_of() {
  return std::make_unique<T>();
}

/// bearer_key is the OpenAI APIs' headers: Authorization: Bearer <key> when a key is set.
std::vector<http::header> bearer_key(const provider_options& options, const chat_request& req);

/// json_post is a POST of the JSON text `body` to base_url/`path`: Content-Type JSON, SSE
/// accepted when `stream`, then `headers` (the provider's own: version, key), then
/// opts.extra_headers.
http::request json_post(const provider_options& opts, const std::string& path, std::string body,
                        bool stream, const std::vector<http::header>& headers);

/// cached_tools is a request's tools translated for one provider (`wire`, with their text),
/// and `request`: the request's tools and what the translation read of it (allowed and deferred
/// tools, native tool search, strict), without messages. That is all a decoder reads of a
/// request, so an exchange decodes with `request` instead of a copy of the caller's.
struct cached_tools {
  chat_request request;
  wire_tools wire;
  /// matches: `req` would translate to `wire` (same tools and same settings read).
  bool matches(const chat_request& req) const;
};

/// tools_cache keeps an adapter's last cached_tools: a run sends the same tools at every turn,
/// and the runs of one agent share them, so translating and serialising them at each request
/// was most of encoding one. Thread-safe.
class tools_cache {
 public:
  /// get returns `req`'s tools translated by `wire`: the last ones when they match `req`,
  /// else new ones, which become the last.
  result<std::shared_ptr<const cached_tools>> get(const provider_wire& wire,
                                                  const chat_request& req);

 private:
  std::mutex mutex_;
  std::shared_ptr<const cached_tools> last_;
};

}  // namespace tooluse::llm::detail
