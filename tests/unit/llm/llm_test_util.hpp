#pragma once
// A scripted in-process http::transport for the provider tests: each call takes the next
// scripted answer, records the request, and streams the answer's chunks to on_body exactly as
// split, so a test controls where an SSE event is cut. The adapters see it as the network.
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "tooluse/http/client.hpp"
#include "tooluse/json.hpp"
#include "tooluse/tools/tool.hpp"

namespace tooluse::llm::testing {

struct scripted_answer {
  int status = 200;
  std::vector<http::header> headers;
  std::vector<std::string> chunks;  ///< the body, in the pieces it arrives in
  std::optional<error> failure;     ///< a transport error instead of an answer
};

/// json_answer is a 200 with `body` in one piece.
inline scripted_answer json_answer(const json& body, int status = 200) {
  return {.status = status, .chunks = {dump_json(body)}};
}

/// sse_answer is a 200 event stream, one chunk per element.
inline scripted_answer sse_answer(std::vector<std::string> chunks) {
  return {.headers = {{"Content-Type", "text/event-stream"}}, .chunks = std::move(chunks)};
}

/// sse_data frames `j` as one SSE event ("data: ...\n\n"), named when `event` is given.
inline std::string sse_data(const json& j, const std::string& event = "") {
  return (event.empty() ? "" : "event: " + event + "\n") + "data: " + dump_json(j) + "\n\n";
}

class script {
 public:
  void push(scripted_answer a) {
    std::lock_guard lock(mu_);
    answers_.push_back(std::move(a));
  }
  std::vector<http::request> requests() const {
    std::lock_guard lock(mu_);
    return requests_;
  }
  json body(size_t i) const { return json::parse(requests().at(i).body); }

  http::transport transport() {
    return
        [this](const http::request& req, const http::send_options& so) -> result<http::response> {
          scripted_answer a;
          {
            std::lock_guard lock(mu_);
            requests_.push_back(req);
            if (answers_.empty()) return fail(errc::internal, "script: no answer left");
            a = std::move(answers_.front());
            answers_.pop_front();
          }
          if (a.failure) return fail(*a.failure);
          http::response res{.status = a.status, .headers = a.headers};
          if (so.on_headers) so.on_headers(res.status, res.headers);
          for (const auto& c : a.chunks) {
            if (so.on_body) {
              if (!so.on_body(c)) return fail(errc::cancelled, "aborted by the body callback");
            } else {
              res.body += c;
            }
          }
          return res;
        };
  }

 private:
  mutable std::mutex mu_;
  std::deque<scripted_answer> answers_;
  std::vector<http::request> requests_;
};

/// weather_tool is a tool with a dotted name (mapped on the wire) and an optional property
/// (which strict mode makes nullable).
inline tool weather_tool() {
  return {.name = "geo.weather",
          .description = "Weather for a city",
          .input_schema = json::parse(R"({"type":"object","properties":{
              "city":{"type":"string"},"unit":{"type":"string","enum":["c","f"]}},
              "required":["city"]})")};
}

/// header_of returns the value of header `name` in `req` ("" when absent).
inline std::string header_of(const http::request& req, std::string_view name) {
  return http::find_header(req.headers, name).value_or("");
}

}  // namespace tooluse::llm::testing
