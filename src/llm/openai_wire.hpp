#pragma once
// OpenAI Chat Completions wire mapping, shared by the adapter's files.

#include "tooluse/llm/provider.hpp"
#include "tooluse/schema/name_map.hpp"
#include "tooluse/schema/translate.hpp"
#include "wire_common.hpp"

namespace tooluse::llm::detail {

json openai_messages(const std::vector<message>& messages, const schema::name_map& names);
json openai_tool_choice(const tool_choice& choice, const schema::name_map& names);
finish_reason openai_finish(const std::string& raw);
usage openai_usage(const json& u);
/// decode_call maps the wire name back and, in strict mode, drops the nulls strict added.
tool_call decode_call(std::string id, const std::string& wire_name, std::string arguments,
                      const chat_request& req, const schema::name_map& names);
result<chat_response> openai_decode(const json& body, const chat_request& req,
                                    const schema::name_map& names);

}  // namespace tooluse::llm::detail
