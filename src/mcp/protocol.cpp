#include "tooluse/mcp/protocol.hpp"

#include <algorithm>

namespace tooluse::mcp {

bool is_session_version(std::string_view v) noexcept {
  return std::find(session_versions.begin(), session_versions.end(), v) != session_versions.end();
}

bool is_stateless_version(std::string_view v) noexcept { return v == version_2026_07_28; }

namespace {
void put_if(json& j, const char* key, const std::string& value) {
  if (!value.empty()) j[key] = value;
}
constexpr std::array<std::string_view, 8> level_names = {
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};
}  // namespace

json to_json(const implementation& i) {
  json j = {{"name", i.name}, {"version", i.version}};
  put_if(j, "title", i.title);
  put_if(j, "description", i.description);
  return j;
}

std::string_view to_string(log_level level) noexcept {
  return level_names[static_cast<std::size_t>(level)];
}

std::optional<log_level> parse_log_level(std::string_view s) noexcept {
  for (std::size_t i = 0; i < level_names.size(); ++i)
    if (level_names[i] == s) return static_cast<log_level>(i);
  return std::nullopt;
}

json to_json(const resource& r) {
  json j = {{"uri", r.uri}, {"name", r.name}};
  put_if(j, "title", r.title);
  put_if(j, "description", r.description);
  put_if(j, "mimeType", r.mime_type);
  if (!r.meta.empty()) j["_meta"] = r.meta;
  return j;
}

json to_json(const resource_template& t) {
  json j = {{"uriTemplate", t.uri_template}, {"name", t.name}};
  put_if(j, "title", t.title);
  put_if(j, "description", t.description);
  put_if(j, "mimeType", t.mime_type);
  return j;
}

json to_json(const resource_contents& c) {
  json j = {{"uri", c.uri}};
  put_if(j, "mimeType", c.mime_type);
  if (c.text) j["text"] = *c.text;
  if (c.blob) j["blob"] = *c.blob;
  if (!c.text && !c.blob) j["text"] = "";
  return j;
}

std::optional<json> match_uri_template(std::string_view tpl, std::string_view uri) {
  json vars = json::object();
  std::size_t t = 0;
  std::size_t u = 0;
  while (t < tpl.size()) {
    if (tpl[t] == '{') {
      auto close = tpl.find('}', t);
      if (close == std::string_view::npos) return std::nullopt;
      std::string name(tpl.substr(t + 1, close - t - 1));
      t = close + 1;
      // A variable runs to the next literal character of the template (or the end).
      char stop = t < tpl.size() ? tpl[t] : '\0';
      std::size_t end = stop ? uri.find(stop, u) : uri.size();
      if (end == std::string_view::npos || end == u) return std::nullopt;
      std::string value(uri.substr(u, end - u));
      if (value.find('/') != std::string::npos) return std::nullopt;
      vars[name] = value;
      u = end;
    } else {
      if (u >= uri.size() || uri[u] != tpl[t]) return std::nullopt;
      ++t;
      ++u;
    }
  }
  if (u != uri.size()) return std::nullopt;
  return vars;
}

json to_json(const prompt& p) {
  json j = {{"name", p.name}};
  put_if(j, "title", p.title);
  put_if(j, "description", p.description);
  if (!p.arguments.empty()) {
    json args = json::array();
    for (const auto& a : p.arguments) {
      json aj = {{"name", a.name}};
      put_if(aj, "description", a.description);
      aj["required"] = a.required;
      args.push_back(std::move(aj));
    }
    j["arguments"] = std::move(args);
  }
  return j;
}

json to_json(const prompt_message& m) {
  return json{{"role", m.role}, {"content", content_to_json(m.content)}};
}

json to_json(const prompt_result& r) {
  json j = json::object();
  put_if(j, "description", r.description);
  json msgs = json::array();
  for (const auto& m : r.messages) msgs.push_back(to_json(m));
  j["messages"] = std::move(msgs);
  return j;
}

json to_json(const completion_result& c) {
  json values = json::array();
  for (std::size_t i = 0; i < c.values.size() && i < 100; ++i) values.push_back(c.values[i]);
  json j = {{"values", std::move(values)}};
  if (c.total) j["total"] = *c.total;
  j["hasMore"] = c.has_more;
  return json{{"completion", std::move(j)}};
}

std::string_view routing_name_field(std::string_view method) noexcept {
  if (method == "tools/call" || method == "prompts/get") return "name";
  if (method == "resources/read") return "uri";
  if (method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel") return "taskId";
  return "";
}

json tool_to_mcp_json(const tool& t) {
  json j = {{"name", t.name}};
  put_if(j, "title", t.title);
  j["description"] = t.description;
  j["inputSchema"] = t.input_schema;
  if (t.output_schema) j["outputSchema"] = *t.output_schema;
  json ann = json::object();
  if (!t.title.empty()) ann["title"] = t.title;
  if (t.annotations.read_only) ann["readOnlyHint"] = *t.annotations.read_only;
  if (t.annotations.destructive) ann["destructiveHint"] = *t.annotations.destructive;
  if (t.annotations.idempotent) ann["idempotentHint"] = *t.annotations.idempotent;
  if (t.annotations.open_world) ann["openWorldHint"] = *t.annotations.open_world;
  if (!ann.empty()) j["annotations"] = std::move(ann);
  if (!t.meta.empty()) j["_meta"] = t.meta;
  return j;
}

}  // namespace tooluse::mcp
