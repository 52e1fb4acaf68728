#pragma once
/// \file message_codec.hpp
/// The one JSON form of the conversation model: tool calls, content parts, messages, usage and
/// the names of roles and finish reasons. It is lossless (image data, provider extras, the
/// argument text and its parsed form), so what the journal stores a resumed run sends back
/// exactly; the trace form (message_to_json in message.hpp) is a projection of it.
///
/// Shapes:
///   tool_call:    {"id","name","raw_arguments","arguments"[,"extras"]}; "arguments" is the
///                 parsed object (null when the text did not parse)
///   content_part: {"type":"text","text"} or {"type":"image","data","mime_type","url"}
///   message:      {"role","content":[parts][,"tool_calls"][,"reasoning"][,"tool_call_id"]
///                 [,"tool_name"][,"is_error":true][,"extras"]}
///   usage:        {"input_tokens","output_tokens","cache_read_tokens","cache_write_tokens",
///                 "cost","requests"[,"reasoning_tokens"]}

#include <optional>
#include <string_view>

#include "tooluse/llm/message.hpp"
#include "tooluse/llm/provider.hpp"
#include "tooluse/result.hpp"

namespace tooluse::llm {

/// encode_tool_call renders `c` in the one form.
json encode_tool_call(const tool_call& c);
/// decode_tool_call reads a call. Missing fields are empty; a call whose "arguments" is text
/// and that has no "raw_arguments" (the trace form) is read from that text.
tool_call decode_tool_call(const json& j);

/// encode_content_part renders `p` in the one form.
json encode_content_part(const content_part& p);
/// decode_content_part reads a part; anything but an image is a text part.
content_part decode_content_part(const json& j);

/// encode_message renders `m` in the one form.
json encode_message(const message& m);
/// decode_message reads a message. Errors (errc::parse_error): no "role" string ("the message
/// has no role"), an unknown role ("the message has the unknown role \"wizard\"").
result<message> decode_message(const json& j);

/// encode_usage renders `u` in the one form; decode_usage reads it (missing fields are 0).
json encode_usage(const usage& u);
usage decode_usage(const json& j);

/// role_from_name reads "system", "user", "assistant" or "tool".
std::optional<role> role_from_name(std::string_view name) noexcept;
/// finish_from_name reads a finish_reason's name (to_string's spelling).
std::optional<finish_reason> finish_from_name(std::string_view name) noexcept;

}  // namespace tooluse::llm
