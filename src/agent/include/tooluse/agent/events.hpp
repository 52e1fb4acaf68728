#pragma once
/// \file events.hpp
/// tooluse::agent_event, what an agent run reports as it goes: model requests, streamed text,
/// tool calls and their results, token usage, the answer. A UI or a trace follows these.

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "tooluse/llm/message.hpp"
#include "tooluse/tools/tool_call.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse {

/// agent_event is one step of a run. Fields beyond `what` and `turn` are set as noted.
struct agent_event {
  enum class kind {
    model_request,    ///< a request is about to be sent; `messages` = history length
    text_delta,       ///< streamed answer text; `text`
    reasoning_delta,  ///< streamed reasoning text; `text`
    model_response,   ///< the model answered; `text` = finish reason, `usage` = this turn's,
                      ///< `reply` = the assistant message, `model`, `duration` = request time
    tool_call,        ///< a call is about to run; `call`
    tool_result,      ///< a call finished; `call`, `result`, `duration`
    answer,           ///< the final answer; `text`, `usage` = the run's total
    error,            ///< the run failed; `text` = the message
  };
  kind what = kind::model_request;
  int turn = 0;  ///< 1-based model request number
  std::string text;
  std::size_t messages = 0;
  std::optional<tool_call> call;
  std::optional<tooluse::tool_result> result;
  std::chrono::milliseconds duration{0};
  llm::usage usage;
  std::optional<llm::message> reply;  ///< model_response
  std::string model;                  ///< model_response: the model that answered, if known
};

/// to_string returns the snake_case name of `k`, e.g. "tool_result".
std::string_view to_string(agent_event::kind k) noexcept;

/// agent_event_to_json renders an event as one JSON object (a trace line): {"event","turn",...}.
json agent_event_to_json(const agent_event& e);

/// agent_event_handler receives events on the thread running the agent, in order.
using agent_event_handler = std::function<void(const agent_event&)>;

}  // namespace tooluse
