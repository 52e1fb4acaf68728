#include "tooluse/llm/message.hpp"

#include "tooluse/llm/provider.hpp"

namespace tooluse::llm {

std::string_view to_string(role r) noexcept {
  switch (r) {
    case role::system:
      return "system";
    case role::user:
      return "user";
    case role::assistant:
      return "assistant";
    case role::tool:
      return "tool";
  }
  return "user";
}

std::string_view to_string(finish_reason r) noexcept {
  switch (r) {
    case finish_reason::stop:
      return "stop";
    case finish_reason::tool_calls:
      return "tool_calls";
    case finish_reason::length:
      return "length";
    case finish_reason::content_filter:
      return "content_filter";
    case finish_reason::pause:
      return "pause";
    case finish_reason::context_window:
      return "context_window";
    case finish_reason::other:
      return "other";
  }
  return "other";
}

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

json usage_to_json(const usage& u) {
  json j = {{"input_tokens", u.input_tokens},
            {"output_tokens", u.output_tokens},
            {"total_tokens", u.total_tokens()}};
  if (u.cache_read_tokens) j["cache_read_tokens"] = u.cache_read_tokens;
  if (u.cache_write_tokens) j["cache_write_tokens"] = u.cache_write_tokens;
  if (u.reasoning_tokens) j["reasoning_tokens"] = u.reasoning_tokens;
  if (u.requests) j["requests"] = u.requests;
  j["cost"] = u.cost;
  return j;
}

json message_to_json(const message& m) {
  json j = {{"role", to_string(m.role)}};
  json parts = json::array();
  for (const auto& p : m.content) {
    if (p.type == content_part::kind::text)
      parts.push_back({{"type", "text"}, {"text", p.text}});
    else
      parts.push_back({{"type", "image"},
                       {"mime_type", p.mime_type},
                       {"url", p.url},
                       {"bytes", p.data.size()}});
  }
  j["content"] = parts;
  if (!m.reasoning.empty()) j["reasoning"] = m.reasoning;
  if (!m.tool_calls.empty()) {
    json calls = json::array();
    for (const auto& c : m.tool_calls)
      calls.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.raw_arguments}});
    j["tool_calls"] = calls;
  }
  if (m.role == role::tool) {
    j["tool_call_id"] = m.tool_call_id;
    j["tool_name"] = m.tool_name;
    j["is_error"] = m.is_error;
  }
  if (!m.extras.empty()) j["extras"] = m.extras;
  return j;
}

}  // namespace tooluse::llm
