#include "store/codec.hpp"

namespace tooluse::store::detail {

json call_to_json(const tool_call& c) {
  json j = {{"id", c.id},
            {"name", c.name},
            {"raw_arguments", c.raw_arguments},
            {"arguments", c.arguments}};
  if (!c.extras.empty()) j["extras"] = c.extras;
  return j;
}

tool_call call_from_json(const json& j) {
  tool_call c{.id = j.value("id", ""),
              .name = j.value("name", ""),
              .raw_arguments = j.value("raw_arguments", "")};
  c.arguments = j.contains("arguments") ? j["arguments"] : json::object();
  if (j.contains("extras") && j["extras"].is_object()) c.extras = j["extras"];
  return c;
}

json journal_message(const llm::message& m) {
  json parts = json::array();
  for (const auto& p : m.content) {
    if (p.type == llm::content_part::kind::text)
      parts.push_back({{"type", "text"}, {"text", p.text}});
    else
      parts.push_back(
          {{"type", "image"}, {"data", p.data}, {"mime_type", p.mime_type}, {"url", p.url}});
  }
  json calls = json::array();
  for (const auto& c : m.tool_calls) calls.push_back(call_to_json(c));
  json j = {{"role", to_string(m.role)}, {"content", parts}};
  if (!calls.empty()) j["tool_calls"] = calls;
  if (!m.reasoning.empty()) j["reasoning"] = m.reasoning;
  if (!m.tool_call_id.empty()) j["tool_call_id"] = m.tool_call_id;
  if (!m.tool_name.empty()) j["tool_name"] = m.tool_name;
  if (m.is_error) j["is_error"] = true;
  if (!m.extras.empty()) j["extras"] = m.extras;
  return j;
}

result<llm::message> journal_message_from(const json& j) {
  if (!j.is_object() || !j.contains("role") || !j["role"].is_string())
    return fail(errc::parse_error, "store: a journaled message has no role");
  llm::message m;
  std::string role = j["role"];
  if (role == "system")
    m.role = llm::role::system;
  else if (role == "user")
    m.role = llm::role::user;
  else if (role == "assistant")
    m.role = llm::role::assistant;
  else if (role == "tool")
    m.role = llm::role::tool;
  else
    return fail(errc::parse_error,
                "store: a journaled message has the unknown role \"" + role + "\"");
  for (const auto& p : j.value("content", json::array())) {
    if (p.value("type", "") == "image")
      m.content.push_back({.type = llm::content_part::kind::image,
                           .data = p.value("data", ""),
                           .mime_type = p.value("mime_type", ""),
                           .url = p.value("url", "")});
    else
      m.content.push_back(llm::content_part::text_part(p.value("text", "")));
  }
  for (const auto& c : j.value("tool_calls", json::array()))
    m.tool_calls.push_back(call_from_json(c));
  m.reasoning = j.value("reasoning", "");
  m.tool_call_id = j.value("tool_call_id", "");
  m.tool_name = j.value("tool_name", "");
  m.is_error = j.value("is_error", false);
  if (j.contains("extras") && j["extras"].is_object()) m.extras = j["extras"];
  return m;
}

json usage_json(const llm::usage& u) {
  return {{"input_tokens", u.input_tokens},
          {"output_tokens", u.output_tokens},
          {"cache_read_tokens", u.cache_read_tokens},
          {"cache_write_tokens", u.cache_write_tokens},
          {"cost", u.cost},
          {"requests", u.requests}};
}

llm::usage usage_from_json(const json& j) {
  llm::usage u;
  if (!j.is_object()) return u;
  u.input_tokens = j.value("input_tokens", std::int64_t{0});
  u.output_tokens = j.value("output_tokens", std::int64_t{0});
  u.cache_read_tokens = j.value("cache_read_tokens", std::int64_t{0});
  u.cache_write_tokens = j.value("cache_write_tokens", std::int64_t{0});
  u.cost = j.value("cost", 0.0);
  u.requests = j.value("requests", decltype(u.requests){0});
  return u;
}

}  // namespace tooluse::store::detail
