// fast_call: the common 2026-07-28 tools/call with fewer layers (fast_call.hpp).
#include "mcp/fast_call.hpp"

#include <mutex>

#include "mcp/server_impl.hpp"
#include "tooluse/json_build.hpp"
#include "tooluse/json_view.hpp"
#include "tooluse/telemetry/trace.hpp"

namespace tooluse::mcp::detail {

namespace {

// the shape of the common request: each member once, of its type, nothing else
struct common_request {
  json_view id, params, arguments, capabilities;
  bool has_arguments = false;
  std::string_view name, version;
};

bool read_common(json_view body, common_request& out) {
  if (!body.is_object()) return false;
  unsigned seen = 0;
  auto once = [&seen](unsigned bit) {  // false for a member seen before
    const bool first = !(seen & bit);
    seen |= bit;
    return first;
  };
  for (auto [key, v] : body.members()) {
    if (key == "jsonrpc") {
      if (!once(1) || !v.is_string() || v.string() != "2.0") return false;
    } else if (key == "id") {
      if (!once(2)) return false;
      out.id = v;
    } else if (key == "method") {
      if (!once(4) || !v.is_string() || v.string() != "tools/call") return false;
    } else if (key == "params") {
      if (!once(8) || !v.is_object()) return false;
      out.params = v;
    } else {
      return false;
    }
  }
  if (seen != 15) return false;
  seen = 0;
  json_view meta;
  for (auto [key, v] : out.params.members()) {
    if (key == "name") {
      if (!once(1) || !v.is_string()) return false;
      out.name = v.string();
    } else if (key == "arguments") {
      if (!once(2) || !v.is_object()) return false;
      out.arguments = v;
      out.has_arguments = true;
    } else if (key == "_meta") {
      if (!once(4) || !v.is_object()) return false;
      meta = v;
    } else {
      return false;
    }
  }
  if (!(seen & 1) || !(seen & 4)) return false;
  seen = 0;
  for (auto [key, v] : meta.members()) {
    if (key == meta_protocol_version) {
      if (!once(1) || !v.is_string()) return false;
      out.version = v.string();
    } else if (key == meta_client_capabilities) {
      if (!once(2) || !v.is_object()) return false;
      out.capabilities = v;
    } else {
      return false;
    }
  }
  return seen == 3;
}

// viewed_params: the request's params, read in place, built for a handler that asks for them.
class viewed_params final : public params_source {
 public:
  explicit viewed_params(json_view params) : view_(params) {}

  const json& params() const override {
    std::call_once(once_, [this] { built_ = view_.to_json().value_or(json::object()); });
    return built_;
  }

  const json& meta() const override {
    static const json empty = json::object();
    const json& p = params();
    auto it = p.find("_meta");
    return it != p.end() && it->is_object() ? *it : empty;
  }

  const json* meta_member(std::string_view key) const override {
    // read_common took `_meta` with these two members and no other
    if (key != meta_protocol_version && key != meta_client_capabilities) return nullptr;
    const json& m = meta();
    auto it = m.find(key);
    return it == m.end() ? nullptr : &*it;
  }

 private:
  json_view view_;
  mutable std::once_flag once_;
  mutable json built_;
};

}  // namespace

bool fast_tool(server& srv, std::string_view name) {
  auto& d = server_access::impl(srv);
  if (!d.options.stateless || telemetry::enabled()) return false;
  auto t = d.find_tool(name);
  // add_tool's handlers take the request's cancellation and may be tasks: the general path.
  return t && !t->added && t->task == task_support::forbidden &&
         d.executor->runs_inline(t->definition().name, d.options.call_options);
}

bool fast_tools_call(server& srv, session& root, std::string_view body, std::size_t capacity,
                     std::string_view header_version, std::string_view header_name, fast_reply& reply,
                     std::string_view principal) {
  // The thread's reader, whose document the call's params point into until it returns (a
  // request served inside a call on the same thread takes the general path).
  thread_local json_reader reader;
  thread_local bool reading = false;
  if (reading) return false;
  reading = true;
  struct done_reading {
    ~done_reading() { reading = false; }
  } done;
  auto doc = reader.read(body, capacity, default_json_limits());  // as the general path parses it
  common_request c;
  if (!doc || !read_common(*doc, c) || c.version != header_version || c.name != header_name ||
      !is_stateless_version(c.version))
    return false;  // the caller checked fast_tool(header_name)
  // The values the call keeps, built as parse_json builds them: anything it cannot build
  // (a -0.0) or that the general parser would refuse as an id is left to the general path.
  if (c.id.type() != json_view::kind::string && c.id.type() != json_view::kind::integer) return false;
  auto id_json = c.id.to_json();
  std::optional<jsonrpc::message_id> id;
  if (id_json) id = jsonrpc::id_from_json(*id_json);  // as the general parser reads it
  auto capabilities = c.capabilities.to_json();
  wire::call_tool_params p;
  if (c.has_arguments) {
    p.arguments = c.arguments.to_json();
    if (!p.arguments) return false;
  }
  if (!id || !capabilities) return false;
  p.name = c.name;
  // From here on, what server_session::handle and server::handle_message do for this request.
  wire::request_meta meta;
  meta.protocol_version = std::string(c.version);
  meta.client_capabilities = std::move(*capabilities);
  auto s = pseudo_session(std::move(meta));
  jsonrpc::request r{std::move(*id), "tools/call", json()};  // its params: p and `params`
  viewed_params params(c.params);
  std::function<void(const json&)> related = [&reply](const json& j) { reply.related(j); };
  auto answer = dispatch_tools_call(srv, server_access::impl(srv), s, r, p, params, related, root.stops.token(),
                                    principal);
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
  std::string text;
  text.reserve(256);  // the usual small result in one allocation
  text = "{\"jsonrpc\":\"2.0\",\"id\":";
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
