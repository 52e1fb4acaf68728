#pragma once
// The journal's JSON is llm's one form (tooluse/llm/message_codec.hpp): messages, tool calls and
// usage, losslessly (images and provider extras included), so a resumed run sends the model
// exactly the conversation it had. Rows written before that form was shared read the same.
#include "tooluse/llm/message_codec.hpp"
#include "tooluse/result.hpp"

namespace tooluse::store::detail {

/// journal_message_from reads a journaled message; errors name the journal ("store: a
/// journaled message has no role").
result<llm::message> journal_message_from(const json& j);

}  // namespace tooluse::store::detail
