// fast_call: the common 2026-07-28 tools/call with fewer layers (fast_call.hpp).
#include "mcp/fast_call.hpp"

#include "mcp/server_impl.hpp"
#include "tooluse/json_build.hpp"
#include "tooluse/telemetry/trace.hpp"

namespace tooluse::mcp::detail {

namespace {

// string_of: `v` as a string, or null when it is not one.
const std::string* string_of(const json& v) { return v.is_string() ? &v.get_ref<const std::string&>() : nullptr; }

// the shape of the common request: each member once, of its type, nothing else
struct common_request {
  std::optional<jsonrpc::message_id> id;
  json* params = nullptr;
  const std::string* name = nullptr;
  const std::string* version = nullptr;
  const json* capabilities = nullptr;
};

bool read_common(json& body, common_request& out) {
  if (!body.is_object() || body.size() != 4) return false;
  bool saw_jsonrpc = false, saw_method = false;
  for (auto& [key, v] : body.get_ref<json::object_t&>()) {
    if (key == "jsonrpc") {
      const std::string* s = string_of(v);
      if (!s || *s != "2.0") return false;
      saw_jsonrpc = true;
    } else if (key == "id") {
      out.id = jsonrpc::id_from_json(v);  // as the general parser reads it
      if (!out.id) return false;
    } else if (key == "method") {
      const std::string* s = string_of(v);
      if (!s || *s != "tools/call") return false;
      saw_method = true;
    } else if (key == "params") {
      if (!v.is_object()) return false;
      out.params = &v;
    } else {
      return false;
    }
  }
  if (!saw_jsonrpc || !saw_method || !out.id || !out.params) return false;
  const json* meta = nullptr;
  for (const auto& [key, v] : out.params->get_ref<const json::object_t&>()) {
    if (key == "name") {
      out.name = string_of(v);
      if (!out.name) return false;
    } else if (key == "arguments") {
      if (!v.is_object()) return false;
    } else if (key == "_meta") {
      if (!v.is_object()) return false;
      meta = &v;
    } else {
      return false;
    }
  }
  if (!out.name || !meta || meta->size() != 2) return false;
  for (const auto& [key, v] : meta->get_ref<const json::object_t&>()) {
    if (key == meta_protocol_version) {
      out.version = string_of(v);
    } else if (key == meta_client_capabilities) {
      if (!v.is_object()) return false;
      out.capabilities = &v;
    }
  }
  return out.version && out.capabilities;
}

}  // namespace

bool fast_tool(server& srv, std::string_view name) {
  auto& d = server_access::impl(srv);
  if (!d.options.stateless || telemetry::enabled()) return false;
  auto t = d.find_tool(name);
  // add_tool's handlers take the request's cancellation and may be tasks: the general path.
  return t && !t->added && t->task == task_support::forbidden &&
         d.executor->runs_inline(t->definition().name, d.options.call_options);
}

bool fast_tools_call(server& srv, session& root, json& body, std::string_view header_version,
                     std::string_view header_name, fast_reply& reply, std::string_view principal) {
  common_request c;
  if (!read_common(body, c) || *c.version != header_version || *c.name != header_name ||
      !is_stateless_version(*c.version) || !fast_tool(srv, *c.name))
    return false;
  // From here on, what server_session::handle and server::handle_message do for this request.
  wire::request_meta meta;
  meta.protocol_version = *c.version;
  meta.client_capabilities = *c.capabilities;
  auto s = pseudo_session(std::move(meta));
  jsonrpc::request r{std::move(*c.id), "tools/call", std::move(*c.params)};
  std::function<void(const json&)> related = [&reply](const json& j) { reply.related(j); };
  auto answer = dispatch_tools_call(srv, server_access::impl(srv), s, r, related, root.stops.token(), principal);
  release_json(r.params);  // json_build.hpp: cheaper than its destructor
  if (auto& resp = answer.response) {
    if (resp->error || resp->result.is_null() || !resp->id) {
      reply.message(jsonrpc::to_json(*resp));
    } else {  // a task's, or an input_required answer
      json j = result_message(*resp->id, std::move(resp->result));
      reply.message(j);
      release_json(j);
    }
    return true;
  }
  // The tool's result: dump_json of {"jsonrpc":"2.0","id":...,"result":{...,"resultType":"complete"}}
  // without building it.
  std::string text = "{\"jsonrpc\":\"2.0\",\"id\":";
  append_json(text, jsonrpc::id_to_json(r.id));
  text += ",\"result\":";
  append_result_json(text, *answer.result);
  text.pop_back();  // the result's '}'
  text += ",\"resultType\":\"complete\"}}";
  if (reply.text(std::move(text))) return true;
  // The reply became a stream of events (the tool sent progress or logs): the same response, as one.
  json result = result_to_json(*answer.result);
  result["resultType"] = "complete";
  json j = result_message(r.id, std::move(result));
  reply.message(j);
  release_json(j);
  return true;
}

}  // namespace tooluse::mcp::detail
