#include "tooluse/tools/tool.hpp"

#include "tooluse/tools/tool_call.hpp"

namespace tooluse {

bool is_valid_tool_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > 128) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

namespace {
json annotations_to_json(const tool_annotations& a) {
  json j = json::object();
  if (a.read_only) j["readOnlyHint"] = *a.read_only;
  if (a.destructive) j["destructiveHint"] = *a.destructive;
  if (a.idempotent) j["idempotentHint"] = *a.idempotent;
  if (a.open_world) j["openWorldHint"] = *a.open_world;
  return j;
}
}  // namespace

sandbox::policy effective_sandbox_policy(const tool& t) {
  sandbox::policy p = t.sandbox_policy;
  p.memory_limit_mb = t.memory_limit_mb;
  return p;
}

json tool_to_json(const tool& t) {
  json j = json::object();
  j["name"] = t.name;
  if (!t.title.empty()) j["title"] = t.title;
  j["description"] = t.description;
  j["inputSchema"] = t.input_schema;
  if (t.output_schema) j["outputSchema"] = *t.output_schema;
  if (auto a = annotations_to_json(t.annotations); !a.empty()) j["annotations"] = a;
  json policy = json::object();
  if (!t.category.empty()) policy["category"] = t.category;
  if (!t.version.empty()) policy["version"] = t.version;
  if (!t.tags.empty()) policy["tags"] = t.tags;
  if (t.timeout.count() > 0) policy["timeout_ms"] = t.timeout.count();
  if (t.rate.calls > 0)
    policy["rate_limit"] = {{"calls", t.rate.calls}, {"window_ms", t.rate.window.count()}};
  if (t.max_parallel > 0) policy["max_parallel"] = t.max_parallel;
  if (t.cost_per_call > 0) policy["cost_per_call"] = t.cost_per_call;
  policy["dangerous"] = t.dangerous;
  if (t.requires_auth) policy["requires_auth"] = true;
  if (t.max_output_bytes > 0) policy["max_output_bytes"] = t.max_output_bytes;
  if (t.coerce_arguments) policy["coerce_arguments"] = true;
  if (t.synchronous) policy["synchronous"] = true;
  policy["sandboxed"] = t.sandboxed;
  if (t.sandboxed) {  // in-process, the limits are not enforced: not shown
    policy["memory_limit_mb"] = t.memory_limit_mb;
    policy["sandbox"] = sandbox::to_json(effective_sandbox_policy(t));
    policy["sandbox"]["by"] = t.sandboxed_by_handler ? "handler" : "worker";
  }
  j["policy"] = policy;
  if (!t.meta.empty()) j["_meta"] = t.meta;
  return j;
}

tool_call tool_call::from_text(std::string id, std::string name, std::string raw_arguments) {
  tool_call c;
  c.id = std::move(id);
  c.name = std::move(name);
  c.raw_arguments = std::move(raw_arguments);
  std::string_view text = c.raw_arguments;
  while (!text.empty() && (text.front() == ' ' || text.front() == '\n' || text.front() == '\t' ||
                           text.front() == '\r'))
    text.remove_prefix(1);
  if (text.empty()) {
    c.arguments = json::object();
  } else if (auto parsed = parse_json(text)) {
    c.arguments = std::move(*parsed);
  } else {
    c.arguments = nullptr;
  }
  return c;
}

}  // namespace tooluse
