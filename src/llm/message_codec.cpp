// The one JSON form of messages, tool calls, content parts and usage, and the names of roles
// and finish reasons; the trace form (message_to_json) projects it.
#include "tooluse/llm/message_codec.hpp"

#include "tooluse/enum_names.hpp"

namespace tooluse::llm {

TOOLUSE_ENUM_NAMES(role, (system), (user), (assistant), (tool))
TOOLUSE_ENUM_NAMES(finish_reason, (stop), (tool_calls), (length), (content_filter), (pause),
                   (context_window), (other))

std::string_view to_string(role r) noexcept { return enum_name(r, "user"); }
std::string_view to_string(finish_reason r) noexcept { return enum_name(r, "other"); }

std::optional<role> role_from_name(std::string_view name) noexcept {
  return enum_from_name<role>(name);
}

std::optional<finish_reason> finish_from_name(std::string_view name) noexcept {
  return enum_from_name<finish_reason>(name);
}

json encode_tool_call(const tool_call& c) {
  json j = {{"id", c.id},
            {"name", c.name},
            {"raw_arguments", c.raw_arguments},
            {"arguments", c.arguments}};
  if (!c.extras.empty()) j["extras"] = c.extras;
  return j;
}

tool_call decode_tool_call(const json& j) {
  tool_call c{.id = j.value("id", ""), .name = j.value("name", "")};
  auto args = j.find("arguments");
  if (!j.contains("raw_arguments") && args != j.end() && args->is_string()) {
    c = tool_call::from_text(c.id, c.name, args->get<std::string>());
  } else {
    c.raw_arguments = j.value("raw_arguments", "");
    c.arguments = args != j.end() ? *args : json::object();
  }
  if (j.contains("extras") && j["extras"].is_object()) c.extras = j["extras"];
  return c;
}

json encode_content_part(const content_part& p) {
  if (p.type == content_part::kind::text) return {{"type", "text"}, {"text", p.text}};
  return {{"type", "image"}, {"data", p.data}, {"mime_type", p.mime_type}, {"url", p.url}};
}

content_part decode_content_part(const json& j) {
  if (j.value("type", "") == "image")
    return {.type = content_part::kind::image,
            .data = j.value("data", ""),
            .mime_type = j.value("mime_type", ""),
            .url = j.value("url", "")};
  return content_part::text_part(j.value("text", ""));
}

json encode_message(const message& m) {
  json parts = json::array();
  for (const auto& p : m.content) parts.push_back(encode_content_part(p));
  json j = {{"role", to_string(m.role)}, {"content", parts}};
  if (!m.tool_calls.empty()) {
    json calls = json::array();
    for (const auto& c : m.tool_calls) calls.push_back(encode_tool_call(c));
    j["tool_calls"] = calls;
  }
  if (!m.reasoning.empty()) j["reasoning"] = m.reasoning;
  if (!m.tool_call_id.empty()) j["tool_call_id"] = m.tool_call_id;
  if (!m.tool_name.empty()) j["tool_name"] = m.tool_name;
  if (m.is_error) j["is_error"] = true;
  if (!m.extras.empty()) j["extras"] = m.extras;
  return j;
}

result<message> decode_message(const json& j) {
  if (!j.is_object() || !j.contains("role") || !j["role"].is_string())
    return fail(errc::parse_error, "the message has no role");
  const auto& name = j["role"].get_ref<const std::string&>();
  auto r = role_from_name(name);
  if (!r) return fail(errc::parse_error, "the message has the unknown role \"" + name + "\"");
  message m{.role = *r};
  for (const auto& p : j.value("content", json::array()))
    m.content.push_back(decode_content_part(p));
  for (const auto& c : j.value("tool_calls", json::array()))
    m.tool_calls.push_back(decode_tool_call(c));
  m.reasoning = j.value("reasoning", "");
  m.tool_call_id = j.value("tool_call_id", "");
  m.tool_name = j.value("tool_name", "");
  m.is_error = j.value("is_error", false);
  if (j.contains("extras") && j["extras"].is_object()) m.extras = j["extras"];
  return m;
}

json encode_usage(const usage& u) {
  json j = {{"input_tokens", u.input_tokens},
            {"output_tokens", u.output_tokens},
            {"cache_read_tokens", u.cache_read_tokens},
            {"cache_write_tokens", u.cache_write_tokens},
            {"cost", u.cost},
            {"requests", u.requests}};
  if (u.reasoning_tokens) j["reasoning_tokens"] = u.reasoning_tokens;
  return j;
}

usage decode_usage(const json& j) {
  usage u;
  if (!j.is_object()) return u;
  u.input_tokens = j.value("input_tokens", std::int64_t{0});
  u.output_tokens = j.value("output_tokens", std::int64_t{0});
  u.cache_read_tokens = j.value("cache_read_tokens", std::int64_t{0});
  u.cache_write_tokens = j.value("cache_write_tokens", std::int64_t{0});
  u.reasoning_tokens = j.value("reasoning_tokens", std::int64_t{0});
  u.cost = j.value("cost", 0.0);
  u.requests = j.value("requests", decltype(u.requests){0});
  return u;
}

}  // namespace tooluse::llm
