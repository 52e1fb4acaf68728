#pragma once
// fake_llm_server: a scripted HTTP/1.1 server on 127.0.0.1 that speaks the OpenAI Chat
// Completions and Anthropic Messages wire formats (streaming and not). Tests push one
// scripted_response per expected request and afterwards assert on the exact requests received.
// Plain POSIX sockets, one thread per connection, "Connection: close" on every response
// unless keep_alive(true), which serves request after request on a connection.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tooluse/json.hpp"

namespace tooluse::testing {

/// recorded_request is one request exactly as received.
struct recorded_request {
  std::string method;
  std::string target;  ///< e.g. "/v1/chat/completions"
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  /// header returns the first header named `name` (case-insensitive), or "".
  std::string header(std::string_view name) const;
  /// json_body parses the body (null if it is not JSON).
  json json_body() const;
};

/// scripted_response is what the server answers to one request.
struct scripted_response {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;                 ///< sent with Content-Length when `chunks` is empty
  std::vector<std::string> chunks;  ///< when set: chunked encoding, one chunk per element
  int cut_after = -1;  ///< >= 0: close the connection after this many chunks, mid-stream
  std::chrono::milliseconds delay{0};  ///< simulated model latency before answering
  /// turn_output is what the model said in this answer, in the wire's own shape (Responses
  /// output items, Gemini model parts, Chat message, Anthropic content); strict checking
  /// (check_requests) requires later requests to replay it as the API does.
  json turn_output;
};

/// wire_format names the four model APIs the fake server speaks.
enum class wire_format { openai_chat, openai_responses, anthropic, gemini };

/// fake_tool_call is a call the scripted model makes; `arguments` is sent verbatim as text
/// (for Anthropic it must parse as a JSON object unless streaming).
struct fake_tool_call {
  std::string id;
  std::string name;
  std::string arguments;
};

/// fake_turn is one model turn: optional text, tool calls, finish reason and usage.
struct fake_turn {
  std::string text;
  std::vector<fake_tool_call> calls;
  std::string finish;  ///< empty: "tool_calls"/"tool_use" with calls, else "stop"/"end_turn"
  int input_tokens = 10;
  int output_tokens = 5;
  std::string reasoning;  ///< OpenAI-compatible reasoning_content (DeepSeek) / thinking
                          ///< / Responses reasoning item / Gemini thought + signatures
  int cached_tokens = 0;  ///< part of input_tokens read from the prompt cache
};

/// openai_response renders a turn as a Chat Completions response (JSON or SSE chunks).
scripted_response openai_response(const fake_turn& turn, bool stream);
/// anthropic_response renders a turn as a Messages response (JSON or SSE events).
scripted_response anthropic_response(const fake_turn& turn, bool stream);
/// responses_response renders a turn as an OpenAI Responses answer (JSON or SSE events); with
/// `reasoning` it starts with a reasoning item (id, summary, encrypted_content).
scripted_response responses_response(const fake_turn& turn, bool stream);
/// gemini_response renders a turn as a Gemini GenerateContentResponse (JSON, or SSE chunks for
/// streamGenerateContent?alt=sse); function calls carry ids and a thought signature.
scripted_response gemini_response(const fake_turn& turn, bool stream);
/// check_request returns what a real API would reject in `req` ("" when fine), given the
/// turn outputs the server answered before (scripted_response::turn_output, in order).
std::string check_request(wire_format format, const recorded_request& req,
                          const std::vector<json>& earlier_outputs);

/// error_response is a JSON error body with `status` and optional Retry-After seconds.
scripted_response error_response(int status, std::string message, int retry_after = -1);

class fake_llm_server {
 public:
  fake_llm_server();
  ~fake_llm_server();
  fake_llm_server(const fake_llm_server&) = delete;
  fake_llm_server& operator=(const fake_llm_server&) = delete;

  int port() const { return port_; }
  /// url is "http://127.0.0.1:<port>" followed by `path`.
  std::string url(std::string_view path = "") const;

  /// push queues the answer to the next request.
  void push(scripted_response response);
  /// set_responder answers every request from a function instead of the queue.
  void set_responder(std::function<scripted_response(const recorded_request&)> responder);
  /// requests returns every request received so far, in arrival order.
  std::vector<recorded_request> requests() const;
  /// record_requests turns recording off (for benchmarks).
  void record_requests(bool on);
  /// keep_alive(true) keeps connections open between requests (HTTP/1.1 keep-alive), so tests
  /// can see a client reuse them; the default closes each after one response.
  void keep_alive(bool on);
  /// connections returns how many connections the server has accepted.
  int connections() const;
  /// check_requests makes the server validate every request as `format`'s real API would
  /// (check_request): a bad request gets a 400 naming the problem, and is listed in failures().
  void check_requests(wire_format format);
  /// failures returns the problems strict checking found, in order.
  std::vector<std::string> failures() const;

 private:
  void accept_loop();
  void serve(int fd);
  scripted_response next(const recorded_request& req);

  int listen_fd_ = -1;
  int port_ = 0;
  bool recording_ = true;
  bool keep_alive_ = false;
  int accepted_ = 0;
  std::vector<int> open_fds_;  // shut down by the destructor: kept-alive clients never close
  mutable std::mutex mu_;
  std::condition_variable idle_;
  int active_ = 0;
  std::deque<scripted_response> script_;
  std::function<scripted_response(const recorded_request&)> responder_;
  std::vector<recorded_request> requests_;
  std::optional<wire_format> check_;
  std::vector<json> outputs_;
  std::vector<std::string> failures_;
  std::thread acceptor_;
};

}  // namespace tooluse::testing
