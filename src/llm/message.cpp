#include "tooluse/llm/message.hpp"

#include "tooluse/llm/message_codec.hpp"
#include "tooluse/llm/provider.hpp"

namespace tooluse::llm {

tool_choice tool_choice::parse(std::string_view text) {
  if (text.empty() || text == "auto") return {};
  if (text == "none") return {.what = mode::none};
  if (text == "required" || text == "any") return {.what = mode::required};
  return {.what = mode::named, .name = std::string(text)};
}

std::string message::text() const {
  std::string out;
  for (const auto& p : content)
    if (p.type == content_part::kind::text) out += p.text;
  return out;
}

message message::system(std::string text) {
  return {.role = role::system, .content = {content_part::text_part(std::move(text))}};
}

message message::user(std::string text) {
  return {.role = role::user, .content = {content_part::text_part(std::move(text))}};
}

message message::assistant(std::string text) {
  message m{.role = role::assistant};
  if (!text.empty()) m.content.push_back(content_part::text_part(std::move(text)));
  return m;
}

message message::tool_result(const tool_call& call, const tooluse::tool_result& result) {
  message m{.role = role::tool,
            .tool_call_id = call.id,
            .tool_name = call.name,
            .is_error = result.is_error};
  for (const auto& block : result.content) {
    if (const auto* t = std::get_if<text_content>(&block)) {
      m.content.push_back(content_part::text_part(t->text));
    } else if (const auto* i = std::get_if<image_content>(&block)) {
      m.content.push_back(
          {.type = content_part::kind::image, .data = i->data, .mime_type = i->mime_type});
    } else {
      m.content.push_back(content_part::text_part(dump_json(content_to_json(block))));
    }
  }
  if (m.content.empty() && result.structured_content)
    m.content.push_back(content_part::text_part(dump_json(*result.structured_content)));
  return m;
}

usage& usage::operator+=(const usage& o) {
  input_tokens += o.input_tokens;
  output_tokens += o.output_tokens;
  cache_read_tokens += o.cache_read_tokens;
  cache_write_tokens += o.cache_write_tokens;
  reasoning_tokens += o.reasoning_tokens;
  cost += o.cost;
  requests += o.requests;
  return *this;
}

// The trace forms below are projections of the one form (message_codec.hpp): the same names
// and meanings, with image bytes counted instead of carried, the argument text only when it did
// not parse, and the usage with its total and without the counts that are zero.

json usage_to_json(const usage& u) {
  json full = encode_usage(u);
  json j = {{"input_tokens", full["input_tokens"]},
            {"output_tokens", full["output_tokens"]},
            {"total_tokens", u.total_tokens()}};
  for (const char* key : {"cache_read_tokens", "cache_write_tokens", "reasoning_tokens", "requests"})
    if (full.contains(key) && full[key] != 0) j[key] = full[key];
  j["cost"] = full["cost"];
  return j;
}

namespace {

json trace_part(const json& part) {
  if (part["type"] != "image") return part;
  return {{"type", "image"},
          {"mime_type", part["mime_type"]},
          {"url", part["url"]},
          {"bytes", part["data"].get_ref<const std::string&>().size()}};
}

json trace_call(const json& call) {
  json j = {{"id", call["id"]}, {"name", call["name"]}, {"arguments", call["arguments"]}};
  if (call["arguments"].is_null()) j["raw_arguments"] = call["raw_arguments"];
  return j;
}

}  // namespace

json message_to_json(const message& m) {
  json full = encode_message(m);
  json parts = json::array();
  for (const auto& p : full["content"]) parts.push_back(trace_part(p));
  json j = {{"role", full["role"]}, {"content", parts}};
  if (full.contains("reasoning")) j["reasoning"] = full["reasoning"];
  if (full.contains("tool_calls")) {
    json calls = json::array();
    for (const auto& c : full["tool_calls"]) calls.push_back(trace_call(c));
    j["tool_calls"] = calls;
  }
  if (m.role == role::tool) {
    j["tool_call_id"] = m.tool_call_id;
    j["tool_name"] = m.tool_name;
    j["is_error"] = m.is_error;
  }
  if (full.contains("extras")) j["extras"] = full["extras"];
  return j;
}

}  // namespace tooluse::llm
