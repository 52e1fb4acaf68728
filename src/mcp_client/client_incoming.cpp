// tooluse::mcp::client, what arrives from the server: responses to our requests, progress
// and other notifications, and the server's own requests (sampling, elicitation, roots, ping),
// answered on worker threads so a slow handler never blocks the transport.

#include "client_impl.hpp"
#include "tooluse/jsonrpc/message.hpp"
#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp {
namespace {

json error_response(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

}  // namespace

json apply_schema_defaults(const json& requested_schema, json content) {
  if (!content.is_object()) content = json::object();
  if (!requested_schema.is_object() || !requested_schema.contains("properties") ||
      !requested_schema["properties"].is_object())
    return content;
  for (const auto& [name, prop] : requested_schema["properties"].items())
    if (prop.is_object() && prop.contains("default") && !content.contains(name))
      content[name] = prop["default"];
  return content;
}

void client::impl::on_message(json message) {
  if (!message.is_object()) return;  // not JSON-RPC; nothing to answer on this side
  if (message.contains("method") && message["method"].is_string()) {
    if (message.contains("id") && !message["id"].is_null())
      on_server_request(message);
    else
      on_notification(message);
    return;
  }
  if (message.contains("id") && (message.contains("result") || message.contains("error")))
    on_response(message);
}

void client::impl::on_response(const json& message) {
  std::shared_ptr<pending_call> call;
  {
    std::lock_guard lock(mu);
    auto it = pending.find(id_key(message["id"]));
    if (it == pending.end()) return;  // late (timed out, cancelled) or unknown: drop it
    call = it->second;
    pending.erase(it);
  }
  std::lock_guard lock(call->mu);
  call->response = message;
  call->cv.notify_all();
}

void client::impl::on_send_failed(const json& id, const error& reason) {
  std::shared_ptr<pending_call> call;
  {
    std::lock_guard lock(mu);
    auto it = pending.find(id_key(id));
    if (it == pending.end()) return;
    call = it->second;
    pending.erase(it);
  }
  std::lock_guard lock(call->mu);
  call->failure = reason;
  call->cv.notify_all();
}

void client::impl::on_closed(const error& reason) {
  {
    std::lock_guard lock(mu);
    if (closed_reported || closed) return;
    closed_reported = true;
  }
  fail_all(reason);
  if (options.on_closed) options.on_closed(reason);
}

void client::impl::on_notification(const json& message) {
  const std::string method = message["method"].get<std::string>();
  const json params = message.value("params", json::object());
  // A notification that does not decode is dropped: it gets no answer, not even an error.
  if (method == "notifications/progress") {
    auto p = decode<wire::progress_params>(params, "params");
    std::shared_ptr<pending_call> call;
    if (p) {
      std::lock_guard lock(mu);
      auto it = pending.find(id_key(p->progress_token));
      if (it != pending.end()) call = it->second;
    }
    if (call) {
      progress_update u{.progress = p->progress,
                        .total = p->total,
                        .message = p->message.value_or("")};
      {
        std::lock_guard lock(call->mu);
        call->last_activity = clock_type::now();
        call->cv.notify_all();
      }
      if (call->on_progress) call->on_progress(u);
    }
  } else if (method == "notifications/message" && options.on_log) {
    if (auto p = decode<wire::log_message_params>(params, "params"))
      options.on_log({.level = parse_log_level(p->level).value_or(log_level::info),
                      .logger = p->logger.value_or(""),
                      .data = std::move(p->data)});
  } else if (method == "notifications/tools/list_changed") {
    {
      std::lock_guard lock(mu);
      tools_cache.reset();
    }
    // On a worker, not this (transport) thread: the handler usually calls list_tools, whose
    // reply this thread has to deliver.
    if (options.on_tools_changed) spawn([this] { options.on_tools_changed(); });
  } else if (method == "notifications/prompts/list_changed" && options.on_prompts_changed) {
    spawn([this] { options.on_prompts_changed(); });
  } else if (method == "notifications/resources/list_changed" && options.on_resources_changed) {
    spawn([this] { options.on_resources_changed(); });
  } else if (method == "notifications/resources/updated" && options.on_resource_updated) {
    if (auto p = decode<wire::uri_params>(params, "params"))
      spawn([this, uri = std::move(p->uri)] { options.on_resource_updated(uri); });
  } else if (method == "notifications/tasks/status" && params.is_object()) {
    std::shared_ptr<task_watch> w;
    {
      std::lock_guard lock(mu);
      if (auto it = task_watches.find(str_of(params, "taskId")); it != task_watches.end())
        w = it->second;
    }
    if (w) {
      {
        std::lock_guard lock(w->mu);
        w->statuses.push_back(params);
      }
      w->cv.notify_all();
    }
  } else if (method == "notifications/cancelled") {
    auto p = decode<wire::cancelled_params>(params, "params");
    std::lock_guard lock(mu);
    if (p && p->request_id)
      if (auto it = incoming.find(id_key(*p->request_id)); it != incoming.end())
        it->second.request_stop();
  }
  if (options.on_notification) options.on_notification(message);
}

result<json> client::impl::run_handler(std::string_view method, const json& params,
                                       std::stop_token stop) {
  const server_request_handler* h = nullptr;
  if (method == "sampling/createMessage") h = &options.on_sampling;
  if (method == "elicitation/create") h = &options.on_elicitation;
  if (method == "roots/list") {
    if (!options.on_roots) {
      json roots = json::array();
      for (const auto& r : options.roots) {
        json j = {{"uri", r.uri}};
        if (!r.name.empty()) j["name"] = r.name;
        roots.push_back(std::move(j));
      }
      return json{{"roots", roots}};
    }
    h = &options.on_roots;
  }
  if (method == "ping") return json::object();
  if (!h || !*h)
    return fail(errc::unsupported, "the client does not handle " + std::string(method),
                jsonrpc::error_code::method_not_found);
  auto r = (*h)(params, stop);
  if (r && method == "elicitation/create" && options.apply_elicitation_defaults && r->is_object() &&
      str_of(*r, "action") == "accept")
    (*r)["content"] = apply_schema_defaults(
        params.is_object() ? params.value("requestedSchema", json::object()) : json(),
        r->value("content", json::object()));
  return r;
}

void client::impl::on_server_request(const json& message) {
  const json id = message["id"];
  const std::string method = message["method"].get<std::string>();
  const json params = message.value("params", json::object());
  const std::string key = id_key(id);
  std::stop_source source;
  {
    std::lock_guard lock(mu);
    if (closed) return;
    incoming[key] = source;
  }
  const bool started = spawn([this, id, method, params, key, source] {
    auto r = run_handler(method, params, source.get_token());
    {
      std::lock_guard lock(mu);
      incoming.erase(key);
    }
    if (source.stop_requested()) return;  // cancelled by the server (or closing): no reply
    json reply;
    if (r) {
      reply = {{"jsonrpc", "2.0"}, {"id", id}, {"result", *r}};
    } else {
      int code =
          r.error().jsonrpc_code ? r.error().jsonrpc_code : jsonrpc::error_code::internal_error;
      reply = error_response(id, code, r.error().message);
    }
    (void)transport->send(reply);
  });
  if (started) return;
  {
    std::lock_guard lock(mu);
    incoming.erase(key);
  }
  (void)transport->send(error_response(
      id, jsonrpc::error_code::internal_error,
      limit_error("the server's requests handled at once", "mcp::client_options::max_server_requests",
                  static_cast<unsigned long long>(options.max_server_requests))
          .message));
}

bool client::impl::spawn(std::function<void()> fn) {
  auto w = std::make_shared<worker>();
  std::lock_guard lock(mu);
  // Join the workers that have finished, so a long connection does not accumulate threads.
  for (auto it = workers.begin(); it != workers.end();) {
    if ((*it)->done) {
      (*it)->thread.join();
      it = workers.erase(it);
    } else {
      ++it;
    }
  }
  if (static_cast<int>(workers.size()) >= std::max(1, options.max_server_requests)) return false;
  worker* raw = w.get();
  w->thread = std::jthread([fn = std::move(fn), raw] {
    fn();
    raw->done = true;
  });
  workers.push_back(std::move(w));
  return true;
}

}  // namespace tooluse::mcp
