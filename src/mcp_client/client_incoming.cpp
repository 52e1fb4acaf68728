// tooluse::mcp::client, what arrives from the server: responses to our requests, progress
// and other notifications, and the server's own requests (sampling, elicitation, roots, ping),
// answered on worker threads so a slow handler never blocks the transport.

#include <cstdio>

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

void client::impl::warn(std::string_view line) const {
  std::string text = transport->describe() + ": " + std::string(line);
  if (options.on_warning) return options.on_warning(text);
  text = "tooluse mcp client: " + text + "\n";
  std::fwrite(text.data(), 1, text.size(), stderr);
}

namespace {

// read_notification decodes a notification's params; one that does not decode is logged and
// dropped (a notification gets no answer, not even an error).
template <class T>
std::optional<T> read_notification(const client::impl& c, const std::string& method,
                                   const json& params) {
  auto p = decode<T>(params, "params");
  if (p) return std::move(*p);
  c.warn(method + " dropped: " + p.error().message);
  return std::nullopt;
}

}  // namespace

void client::impl::on_notification(const json& message) {
  const std::string method = message["method"].get<std::string>();
  json params = message.value("params", json::object());
  if (params.is_null()) params = json::object();  // lenient: null params mean none
  if (!handle_notification(method, params)) return;
  if (options.on_notification) options.on_notification(message);
}

bool client::impl::handle_notification(const std::string& method, const json& params) {
  if (method == "notifications/progress") {
    auto p = read_notification<wire::progress_params>(*this, method, params);
    if (!p) return false;
    std::shared_ptr<pending_call> call;
    {
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
  } else if (method == "notifications/message") {
    auto p = read_notification<wire::log_message_params>(*this, method, params);
    if (!p) return false;
    if (options.on_log)
      options.on_log({.level = parse_log_level(p->level).value_or(log_level::info),
                      .logger = p->logger.value_or(""),
                      .data = std::move(p->data)});
  } else if (method == "notifications/tools/list_changed" ||
             method == "notifications/prompts/list_changed" ||
             method == "notifications/resources/list_changed") {
    if (!read_notification<wire::with_meta>(*this, method, params)) return false;
    const std::function<void()>* cb = &options.on_resources_changed;
    if (method == "notifications/tools/list_changed") {
      std::lock_guard lock(mu);
      tools_cache.reset();
      cb = &options.on_tools_changed;
    } else if (method == "notifications/prompts/list_changed") {
      cb = &options.on_prompts_changed;
    }
    // On a worker, not this (transport) thread: the handler usually calls list_tools, whose
    // reply this thread has to deliver.
    if (*cb) spawn([cb] { (*cb)(); });
  } else if (method == "notifications/resources/updated") {
    auto p = read_notification<wire::uri_params>(*this, method, params);
    if (!p) return false;
    if (options.on_resource_updated)
      spawn([this, uri = std::move(p->uri)] { options.on_resource_updated(uri); });
  } else if (method == "notifications/tasks/status") {
    auto p = read_notification<wire::task_info>(*this, method, params);
    if (!p) return false;
    std::shared_ptr<task_watch> w;
    {
      std::lock_guard lock(mu);
      if (auto it = task_watches.find(p->task_id); it != task_watches.end()) w = it->second;
    }
    if (w) {
      {
        std::lock_guard lock(w->mu);
        w->statuses.push_back(params);  // the Task as the server sent it (task_update::task)
      }
      w->cv.notify_all();
    }
  } else if (method == "notifications/cancelled") {
    auto p = read_notification<wire::cancelled_params>(*this, method, params);
    if (!p) return false;
    std::lock_guard lock(mu);
    if (p->request_id)
      if (auto it = incoming.find(id_key(*p->request_id)); it != incoming.end())
        it->second.request_stop();
  }
  return true;
}

namespace {

// invalid_params is the -32602 answer to a server request whose params do not decode.
tl::unexpected<error> invalid_params(const std::string& message) {
  return fail(errc::invalid_argument, "Invalid params: " + message,
              jsonrpc::error_code::invalid_params);
}

// check_params decodes the params of a request the server sends (or embeds as an input
// request); `root` names them in the error (`params`, `result.inputRequests.a.params`).
status check_params(std::string_view method, const json& params, const std::string& root) {
  if (method == "sampling/createMessage") {
    if (auto p = decode<wire::create_message_params>(params, root); !p)
      return invalid_params(p.error().message);
  } else if (method == "elicitation/create") {
    auto p = decode<wire::elicit_params>(params, root);
    if (!p) return invalid_params(p.error().message);
    if (p->mode.value_or("form") == "url") {
      if (!p->url) return invalid_params(root + ": missing required property \"url\"");
      if (!p->elicitation_id)
        return invalid_params(root + ": missing required property \"elicitationId\"");
    } else if (!p->requested_schema) {
      return invalid_params(root + ": missing required property \"requestedSchema\"");
    } else if (!p->requested_schema->is_object()) {
      return invalid_params(root + ".requestedSchema: expected object, got " +
                            tooluse::detail::got(*p->requested_schema));
    }
  } else if (auto p = decode<wire::with_meta>(params, root); !p) {  // roots/list, ping
    return invalid_params(p.error().message);
  }
  return {};
}

}  // namespace

result<json> client::impl::run_handler(std::string_view method, const json& params,
                                       std::stop_token stop, const std::string& root) {
  const server_request_handler* h = nullptr;
  if (method == "sampling/createMessage") h = &options.on_sampling;
  if (method == "elicitation/create") h = &options.on_elicitation;
  if (method == "roots/list") h = &options.on_roots;
  const bool builtin = method == "ping" || (method == "roots/list" && !options.on_roots);
  if (!builtin && (!h || !*h))
    return fail(errc::unsupported, "the client does not handle " + std::string(method),
                jsonrpc::error_code::method_not_found);
  if (auto st = check_params(method, params, root); !st) return fail(st.error());
  if (method == "ping") return json::object();
  if (method == "roots/list" && !options.on_roots) {
    json roots = json::array();
    for (const auto& r : options.roots) {
      json j = {{"uri", r.uri}};
      if (!r.name.empty()) j["name"] = r.name;
      roots.push_back(std::move(j));
    }
    return json{{"roots", roots}};
  }
  auto r = (*h)(params, stop);
  if (r && method == "elicitation/create" && options.apply_elicitation_defaults) {
    // The handler's answer, read to fill the defaults of the schema check_params accepted.
    auto answer = decode<wire::elicit_result>(*r, "result");
    auto asked = decode<wire::elicit_params>(params, root);
    if (answer && answer->action == "accept" && asked)
      (*r)["content"] = apply_schema_defaults(asked->requested_schema.value_or(json::object()),
                                              answer->content.value_or(json::object()));
  }
  return r;
}

void client::impl::on_server_request(const json& message) {
  const json id = message["id"];
  const std::string method = message["method"].get<std::string>();
  json params = message.value("params", json::object());
  if (params.is_null()) params = json::object();  // lenient: null params mean none
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
    (void)write(reply);
  });
  if (started) return;
  {
    std::lock_guard lock(mu);
    incoming.erase(key);
  }
  (void)write(error_response(
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
