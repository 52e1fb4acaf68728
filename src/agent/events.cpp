#include "tooluse/agent/events.hpp"

#include "tooluse/enum_names.hpp"
namespace tooluse {

TOOLUSE_ENUM_NAMES(agent_event::kind, (model_request), (text_delta), (reasoning_delta),
                   (model_response), (tool_call), (tool_result), (answer), (error))

std::string_view to_string(agent_event::kind k) noexcept { return enum_name(k, "error"); }

json agent_event_to_json(const agent_event& e) {
  using kind = agent_event::kind;
  json j = {{"event", to_string(e.what)}, {"turn", e.turn}};
  switch (e.what) {
    case kind::model_request:
      j["messages"] = e.messages;
      break;
    case kind::text_delta:
    case kind::reasoning_delta:
    case kind::error:
      j["text"] = e.text;
      break;
    case kind::model_response:
      j["finish"] = e.text;
      j["usage"] = llm::usage_to_json(e.usage);
      j["ms"] = e.duration.count();
      if (e.reply) j["message"] = llm::message_to_json(*e.reply);
      if (!e.model.empty()) j["model"] = e.model;
      break;
    case kind::answer:
      j["text"] = e.text;
      j["usage"] = llm::usage_to_json(e.usage);
      break;
    case kind::tool_call:
    case kind::tool_result:
      break;
  }
  if (e.call) {
    j["id"] = e.call->id;
    j["name"] = e.call->name;
    j["arguments"] = e.call->arguments.is_null() ? json(e.call->raw_arguments) : e.call->arguments;
  }
  if (e.result) {
    j["result"] = e.result->all_text();
    j["is_error"] = e.result->is_error;
    j["ms"] = e.duration.count();
  }
  return j;
}

}  // namespace tooluse
