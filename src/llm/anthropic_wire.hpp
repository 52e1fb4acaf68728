#pragma once
// Anthropic Messages wire mapping, shared by the adapter's files.

#include "tooluse/llm/provider.hpp"
#include "wire_common.hpp"

namespace tooluse::llm::detail {

json anthropic_messages_json(const std::vector<message>& messages, const schema::name_map& names);
json anthropic_tool_choice(const tool_choice& choice, std::optional<bool> parallel,
                           const schema::name_map& names);
finish_reason anthropic_finish(const std::string& raw);
void anthropic_usage(const json& u, usage& out);
tool_call anthropic_call(const json& block, const schema::name_map& names);
result<chat_response> anthropic_decode(const json& body, const schema::name_map& names);

}  // namespace tooluse::llm::detail
