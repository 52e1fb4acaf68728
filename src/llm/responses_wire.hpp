#pragma once
// OpenAI Responses wire mapping, shared by the adapter's files.

#include "tooluse/llm/provider.hpp"
#include "wire_common.hpp"

namespace tooluse::llm::detail {

/// responses_input renders the conversation as Responses input items (system messages are
/// left out: they go in `instructions`).
json responses_input(const std::vector<message>& messages, const schema::name_map& names);
/// responses_tool_choice renders the choice, as allowed_tools when `allowed` is not empty.
json responses_tool_choice(const tool_choice& choice, const std::vector<std::string>& allowed,
                           const schema::name_map& names);
usage responses_usage(const json& u);
/// responses_decode reads a Response object (the JSON answer, or response.completed's).
result<chat_response> responses_decode(const json& body, const chat_request& req,
                                       const schema::name_map& names);

}  // namespace tooluse::llm::detail
