// task_runner: task-augmented tools/call on worker threads, and tasks/get, tasks/update,
// tasks/cancel, tasks/result, tasks/list for the 2025-11-25 and 2026-07-28 wires.
#include "mcp/task_runner.hpp"

#include <algorithm>
#include <set>
#include <thread>

#include "mcp/params.hpp"
#include "mcp/server_impl.hpp"

namespace tooluse::mcp {

namespace ec = jsonrpc::error_code;

struct live_task {
  std::string id;
  std::string client;     ///< whose live-task budget it counts against
  std::string principal;  ///< the authorization context it was created under
  std::shared_ptr<tool_entry> tool;
  json args;
  json params;  ///< the tools/call params (its _meta carries the progress token)
  std::shared_ptr<session> s;
  bool v2 = false;
  std::stop_source stop;
  json responses = json::object();  ///< input responses gathered so far
  std::optional<json> state;        ///< the tool's state between input rounds
  std::set<std::string> pending;    ///< input request keys not answered yet
  bool done = false;
  std::thread worker;
};

namespace {


jsonrpc::error_object unknown_task(const std::string& id) {
  return err(ec::invalid_params,
             "Invalid params: unknown task \"" + shown(id) +
                 "\" (it never existed, expired, or belongs to another client)");
}

std::string session_key(const std::shared_ptr<session>& s) {
  std::lock_guard lock(s->mu);
  if (s->task_key.empty()) s->task_key = random_token(16);
  return s->task_key;
}

json with_related(json message, const std::string& id) {
  if (!message.contains("params") || !message["params"].is_object())
    message["params"] = json::object();
  message["params"]["_meta"][std::string(meta_related_task)] = {{"taskId", id}};
  return message;
}

json detailed(const task_record& r) {
  json j = task_to_json(r, version_2026_07_28);
  if (r.status == task_status::input_required && !r.input_requests.empty())
    j["inputRequests"] = r.input_requests;
  if (r.status == task_status::completed && !r.result.is_null()) j["result"] = r.result;
  if (r.status == task_status::failed && r.error) {
    json e = {{"code", r.error->code}, {"message", r.error->message}};
    if (!r.error->data.is_null()) e["data"] = r.error->data;
    j["error"] = std::move(e);
  }
  return j;
}

}  // namespace

task_runner::task_runner(server& srv, server::impl& d, task_options options)
    : srv_(srv), d_(d), options_(std::move(options)) {
  if (!options_.store) options_.store = make_memory_task_store();
}

task_runner::~task_runner() { shutdown(); }

void task_runner::shutdown() {
  std::vector<std::shared_ptr<live_task>> all;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    for (auto& [id, t] : live_) {
      t->stop.request_stop();
      all.push_back(t);
    }
    live_.clear();
  }
  cv_.notify_all();
  for (auto& t : all)
    if (t->worker.joinable()) t->worker.join();
}

void task_runner::sweep_locked() {
  // Join finished workers; drop terminal records whose TTL has passed.
  for (auto it = live_.begin(); it != live_.end();) {
    if (it->second->done) {
      if (it->second->worker.joinable()) it->second->worker.join();
      it = live_.erase(it);
    } else {
      ++it;
    }
  }
  auto now = std::chrono::system_clock::now();
  std::erase_if(known_, [&](const std::string& id) {
    auto r = options_.store->get(id);
    if (!r) return true;
    if (is_terminal(r->status) && r->ttl_ms &&
        now > r->created_at + std::chrono::milliseconds(*r->ttl_ms)) {
      options_.store->erase(id);
      return true;
    }
    return false;
  });
}

std::optional<task_record> task_runner::lookup(const std::string& id, const std::string& principal) {
  if (id.empty()) return std::nullopt;
  auto r = options_.store->get(id);
  // Bound to the authorization context it was created under: to another, it does not exist.
  if (r && r->principal != principal) return std::nullopt;
  if (r && r->ttl_ms && is_terminal(r->status) &&
      std::chrono::system_clock::now() > r->created_at + std::chrono::milliseconds(*r->ttl_ms)) {
    options_.store->erase(id);
    return std::nullopt;
  }
  return r;
}

method_outcome task_runner::start(const std::shared_ptr<tool_entry>& tool, json args,
                                  request_context& ctx, std::optional<long long> requested_ttl_ms) {
  auto t = std::make_shared<live_task>();
  t->s = ctx.session_ptr();
  t->v2 = ctx.stateless();
  t->tool = tool;
  t->args = std::move(args);
  t->params = ctx.params();
  t->responses = ctx.input_responses();
  t->state = ctx.request_state();
  t->principal = ctx.principal();
  if (t->v2) {
    std::lock_guard lock(t->s->mu);
    // Per requestor: the principal too, so that a caller cannot use up another's bound by
    // sending the same clientInfo.name.
    const json& info = t->s->client_info;  // null when the request named no client
    t->client = "stateless:" + ctx.principal() + "\n" + (info.is_object() ? info.value("name", std::string()) : "");
  } else {
    t->client = session_key(t->s);
  }
  task_record rec;
  rec.id = random_token(16);
  t->id = rec.id;
  rec.owner = t->v2 ? std::string() : t->client;
  rec.principal = ctx.principal();
  rec.tool = tool->definition().name;
  rec.revision = ctx.protocol_version();
  rec.created_at = rec.updated_at = std::chrono::system_clock::now();
  long long ttl =
      requested_ttl_ms && *requested_ttl_ms > 0 ? *requested_ttl_ms : options_.default_ttl_ms;
  rec.ttl_ms = std::min(ttl, options_.max_ttl_ms);
  rec.poll_interval_ms = options_.poll_interval_ms;
  {
    std::lock_guard lock(mu_);
    if (stopping_)
      return err(ec::internal_error, "the server is shutting down; retry the call later");
    sweep_locked();
    std::size_t live = 0;
    for (const auto& [id, other] : live_)
      if (other->client == t->client && !other->done) ++live;
    if (live >= options_.max_live_per_client)
      return err(ec::invalid_request,
                 "Too many live tasks: this client already runs " + std::to_string(live) +
                     " (the limit); wait for one to finish or cancel one with tasks/cancel");
    options_.store->put(rec);  // durable before the handle is returned
    known_.push_back(rec.id);
    live_[rec.id] = t;
    t->worker = std::thread([this, t] { run(t); });
  }
  json body = task_to_json(rec, t->v2 ? version_2026_07_28 : ctx.protocol_version());
  if (t->v2) {
    body["resultType"] = "task";
    return body;
  }
  return json{{"task", std::move(body)}};
}

void task_runner::save_and_notify(const std::shared_ptr<live_task>& t, task_record& rec) {
  rec.updated_at = std::chrono::system_clock::now();
  options_.store->put(rec);
  cv_.notify_all();
  if (!t->v2)
    t->s->send_outbound(json{{"jsonrpc", "2.0"},
                             {"method", "notifications/tasks/status"},
                             {"params", task_to_json(rec, rec.revision)}});
}

void task_runner::finish(const std::shared_ptr<live_task>& t, task_status status, json result,
                         std::optional<jsonrpc::error_object> error) {
  std::lock_guard lock(mu_);
  auto rec = options_.store->get(t->id);
  if (rec && !is_terminal(rec->status)) {
    rec->status = status;
    rec->result = std::move(result);
    rec->error = std::move(error);
    rec->input_requests = json::object();
    if (status == task_status::failed && rec->error) rec->status_message = rec->error->message;
    save_and_notify(t, *rec);
  }
  t->done = true;
  cv_.notify_all();
}

void task_runner::run(const std::shared_ptr<live_task>& t) {
  const std::string name = t->tool->definition().name;
  for (;;) {
    jsonrpc::request req{jsonrpc::message_id("task-" + t->id), "tools/call", t->params};
    std::function<void(const json&)> emit;
    if (!t->v2)
      emit = [s = t->s, id = t->id](const json& m) { s->send_outbound(with_related(m, id)); };
    request_context ctx(t->s, req, emit, t->stop.get_token());
    context_access::principal(ctx) = t->principal;
    {
      std::lock_guard lock(mu_);
      context_access::responses(ctx) = t->responses;
      context_access::state(ctx) = t->state;
      context_access::task_id(ctx) = t->id;
    }
    tool_outcome out = d_.run_tool(*t->tool, t->args, ctx);
    if (t->stop.stop_requested()) return finish(t, task_status::cancelled, nullptr, std::nullopt);
    if (auto* e = std::get_if<jsonrpc::error_object>(&out))
      return finish(t, task_status::failed, nullptr, *e);
    if (auto* r = std::get_if<tool_result>(&out))
      return finish(t, task_status::completed, result_to_json(*r), std::nullopt);
    auto& ir = std::get<input_required>(out);
    if (!ir.input_requests.is_object() || ir.input_requests.empty())
      return finish(
          t, task_status::failed, nullptr,
          err(ec::internal_error, "tool \"" + name + "\" asked for input without input requests"));
    {
      std::unique_lock lock(mu_);
      auto rec = options_.store->get(t->id);
      if (!rec || is_terminal(rec->status)) break;
      rec->status = task_status::input_required;
      rec->input_requests = ir.input_requests;
      t->state = ir.state;
      t->pending.clear();
      for (const auto& [k, v] : ir.input_requests.items()) t->pending.insert(k);
      save_and_notify(t, *rec);
      if (t->v2) {
        // 2026-07-28: the client answers with tasks/update; wait for every key.
        cv_.wait(lock, [&] { return t->pending.empty() || t->stop.stop_requested(); });
        if (t->stop.stop_requested()) break;
        rec = options_.store->get(t->id);
        if (!rec || is_terminal(rec->status)) break;
        rec->status = task_status::working;
        rec->input_requests = json::object();
        save_and_notify(t, *rec);
        continue;
      }
    }
    // 2025-11-25: ask the client with server-to-client requests related to the task.
    for (const auto& [key, request] : ir.input_requests.items()) {
      auto answer =
          ctx.request_client(request.value("method", ""), request.value("params", json::object()));
      if (!answer) {
        if (t->stop.stop_requested()) break;
        return finish(
            t, task_status::failed, nullptr,
            err(answer.error().jsonrpc_code ? answer.error().jsonrpc_code : ec::internal_error,
                answer.error().message));
      }
      std::lock_guard lock(mu_);
      t->responses[key] = *answer;
      t->pending.erase(key);
    }
    if (t->stop.stop_requested()) break;
    std::lock_guard lock(mu_);
    auto rec = options_.store->get(t->id);
    if (!rec || is_terminal(rec->status)) break;
    rec->status = task_status::working;
    rec->input_requests = json::object();
    save_and_notify(t, *rec);
  }
  finish(t, task_status::cancelled, nullptr, std::nullopt);
}

method_outcome task_runner::get(request_context& ctx, const wire::task_id_params& p) {
  const std::string& id = p.task_id;
  auto rec = lookup(id, ctx.principal());
  if (!rec) return unknown_task(id);
  if (ctx.stateless()) return detailed(*rec);
  return task_to_json(*rec, ctx.protocol_version());
}

method_outcome task_runner::update(request_context& ctx, const wire::task_id_params& p) {
  const std::string& id = p.task_id;
  if (!p.input_responses)
    return err(ec::invalid_params, "Invalid params: params: missing required property \"inputResponses\"");
  if (!p.input_responses->is_object()) return not_an_object("params.inputResponses", *p.input_responses);
  std::lock_guard lock(mu_);
  auto rec = lookup(id, ctx.principal());
  if (!rec) return unknown_task(id);
  auto lt = live_.find(id);
  if (lt != live_.end() && rec->status == task_status::input_required) {
    auto& t = lt->second;
    bool changed = false;
    for (const auto& [k, v] : p.input_responses->items()) {
      if (!t->pending.count(k)) continue;  // unknown or already answered keys are ignored
      t->responses[k] = v;
      t->pending.erase(k);
      rec->input_requests.erase(k);
      changed = true;
    }
    if (changed) {
      rec->updated_at = std::chrono::system_clock::now();
      options_.store->put(*rec);
      cv_.notify_all();
    }
  }
  return json::object();
}

method_outcome task_runner::cancel(request_context& ctx, const wire::task_id_params& p) {
  const std::string& id = p.task_id;
  std::shared_ptr<live_task> t;
  task_record rec;
  {
    std::lock_guard lock(mu_);
    auto found = lookup(id, ctx.principal());
    if (!found) return unknown_task(id);
    rec = *found;
    if (is_terminal(rec.status)) {
      if (ctx.stateless()) return json::object();  // 2026-07-28: idempotent ack
      return err(ec::invalid_params, "Invalid params: task \"" + id + "\" is already " +
                                         std::string(to_string(rec.status)) +
                                         " and cannot be cancelled");
    }
    rec.status = task_status::cancelled;
    rec.status_message = "The task was cancelled by request.";
    rec.input_requests = json::object();
    rec.updated_at = std::chrono::system_clock::now();
    options_.store->put(rec);
    if (auto it = live_.find(id); it != live_.end()) t = it->second;
  }
  if (t) t->stop.request_stop();
  // Running here or on another replica (a shared store): the session hears of it either way.
  if (t ? !t->v2 : !ctx.stateless())
    (t ? t->s : ctx.session_ptr())
        ->send_outbound(json{{"jsonrpc", "2.0"},
                             {"method", "notifications/tasks/status"},
                             {"params", task_to_json(rec, rec.revision)}});
  cv_.notify_all();
  if (ctx.stateless()) return json::object();
  return task_to_json(rec, ctx.protocol_version());
}

void task_runner::stop_cancelled(const std::string& id) {
  std::shared_ptr<live_task> t;
  {
    std::lock_guard lock(mu_);
    auto it = live_.find(id);
    if (it == live_.end() || it->second->done) return;
    auto rec = options_.store->get(id);
    if (!rec || rec->status != task_status::cancelled) return;
    t = it->second;
  }
  t->stop.request_stop();
  cv_.notify_all();
}

method_outcome task_runner::result(request_context& ctx, const wire::task_id_params& p) {
  const std::string& id = p.task_id;
  std::optional<task_record> rec;
  {
    std::unique_lock lock(mu_);
    std::stop_callback wake(ctx.stop(), [this] { cv_.notify_all(); });
    for (;;) {
      rec = lookup(id, ctx.principal());
      if (!rec) return unknown_task(id);
      if (is_terminal(rec->status) || ctx.stop().stop_requested() || stopping_) break;
      cv_.wait_for(lock, std::chrono::seconds(1));
    }
  }
  if (!is_terminal(rec->status))
    return err(ec::internal_error,
               "tasks/result for \"" + id + "\" was interrupted; call it again");
  if (rec->status == task_status::failed && rec->error) return *rec->error;
  if (rec->status == task_status::cancelled)
    return err(ec::invalid_params,
               "Invalid params: task \"" + id + "\" was cancelled; it has no result",
               json{{"taskId", id}});
  json out = rec->result.is_object() ? rec->result : json::object();
  out["_meta"][std::string(meta_related_task)] = {{"taskId", id}};
  return out;
}

method_outcome task_runner::list(request_context& ctx, const wire::paginated_params& p) {
  auto all = options_.store->list(session_key(ctx.session_ptr()));
  std::erase_if(all, [&](const task_record& r) { return r.principal != ctx.principal(); });
  return page(p.cursor, srv_.options().page_size, all, "tasks",
              [&](const task_record& r) { return task_to_json(r, ctx.protocol_version()); });
}

}  // namespace tooluse::mcp
