#pragma once
// scripted_model: the llm::provider the agent unit tests run against. It answers each request
// with the next entry of a queue (an answer or an error), remembers every request, and can send
// text through on_text first, as a streaming provider would. The helpers below build the answers.
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "tooluse/agent/agent.hpp"

namespace tooluse::agent_testing {

class scripted_model : public llm::provider {
 public:
  explicit scripted_model(std::string name = "scripted") : name_(std::move(name)) {}

  std::deque<result<llm::chat_response>> answers;
  std::vector<llm::chat_request> requests;
  std::vector<std::string> stream_text;  // sent through on_text before the next answer
  errc when_empty = errc::internal;      // the error once the queue is used up

  result<llm::chat_response> complete(const llm::chat_request& req, const llm::stream_callbacks& cb,
                                      std::stop_token) override {
    requests.push_back(req);
    for (const auto& s : stream_text)
      if (cb.on_text) cb.on_text(s);
    if (answers.empty()) return fail(when_empty, "no answer scripted");
    auto a = answers.front();
    answers.pop_front();
    return a;
  }
  std::string name() const override { return name_; }

 private:
  std::string name_;
};

// calls is an assistant turn asking for these tool calls.
inline llm::chat_response calls(std::vector<tool_call> c, llm::usage u = {}) {
  llm::chat_response r;
  r.reply.role = llm::role::assistant;
  r.reply.tool_calls = std::move(c);
  r.finish = llm::finish_reason::tool_calls;
  r.usage = u;
  return r;
}

// text is an assistant answer that ends for reason f.
inline llm::chat_response text(std::string t, llm::finish_reason f = llm::finish_reason::stop) {
  llm::chat_response r;
  r.reply = llm::message::assistant(std::move(t));
  r.finish = f;
  return r;
}

// text with usage: an answer that cost `in` input and `out` output tokens.
inline llm::chat_response text(std::string t, std::int64_t in, std::int64_t out) {
  auto r = text(std::move(t));
  r.usage.input_tokens = in;
  r.usage.output_tokens = out;
  return r;
}

inline tool_call call(std::string id, std::string name, std::string args = "{}") {
  return tool_call::from_text(std::move(id), std::move(name), std::move(args));
}

}  // namespace tooluse::agent_testing
