#pragma once
// The journal's JSON: messages, tool calls, results and usage, losslessly (images and provider
// extras included), so a resumed run sends the model exactly the conversation it had.
#include "tooluse/llm/message.hpp"
#include "tooluse/result.hpp"

namespace tooluse::store::detail {

json call_to_json(const tool_call& c);
tool_call call_from_json(const json& j);
json journal_message(const llm::message& m);
result<llm::message> journal_message_from(const json& j);
json usage_json(const llm::usage& u);
llm::usage usage_from_json(const json& j);

}  // namespace tooluse::store::detail
