// tooluse::mcp::client tasks: task-augmented tools/call, tasks/get polling at the server's
// suggested interval or on notifications/tasks/status, input inside tasks (2026-07-28:
// tasks/update; 2025-11-25: requests on the blocking tasks/result), results and cancellation.

#include <algorithm>
#include <condition_variable>
#include <mutex>

#include "client_impl.hpp"
#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp {

std::string created_task_id(const json& r) {
  // Lenient by design: a result that does not read as a created task is an ordinary result
  // (call_tool then checks it as a CallToolResult).
  auto c = decode<wire::created_task>(r, "result");
  if (!c) return {};
  if (c->result_type == "task") return c->task_id.value_or("");
  if (c->content) return {};
  if (c->task) {
    auto t = decode<wire::created_task>(*c->task, "result.task");
    return t ? t->task_id.value_or("") : std::string();
  }
  if (c->status && !c->status->empty()) return c->task_id.value_or("");  // a Task (start_tool_task)
  return {};
}

namespace {

// tool_requires_task tells whether a 2025-11-25 tool's definition says taskSupport required.
bool tool_requires_task(client& c, std::string_view name) {
  const json caps = c.capabilities();
  if (!caps.contains("tasks")) return false;
  auto tools = c.list_tools();
  if (!tools) return false;
  for (const auto& t : *tools) {
    auto tool = decode<wire::tool_ref>(t, "tool");  // list_tools kept only tools with a name
    if (tool && tool->name == name)
      return tool->execution && tool->execution->task_support == "required";
  }
  return false;
}

std::chrono::milliseconds poll_interval(const wire::task_info& task) {
  double ms = task.poll_interval_ms.value_or(task.poll_interval.value_or(1000));
  return std::chrono::milliseconds(std::clamp<long long>(static_cast<long long>(ms), 10, 10000));
}

// read_task decodes a tasks/get result or a tasks/status notification's Task.
result<wire::task_info> read_task(const client& c, const json& t, const char* root) {
  auto r = decode<wire::task_info>(t, root);
  if (!r)
    return fail(errc::protocol_error,
                c.describe() + ": the server's Task is malformed: " + r.error().message);
  return r;
}

}  // namespace

result<json> client::start_tool_task(std::string_view name, const json& arguments,
                                     const call_options& options) {
  wire::call_tool_params params{.name = std::string(name),
                                .arguments = arguments.is_null() ? json::object() : arguments};
  if (!stateless() && impl_->options.tasks &&
      (options.as_task || tool_requires_task(*this, name))) {
    params.task.emplace();
    if (options.task_ttl_ms > 0) params.task->ttl = options.task_ttl_ms;
  }
  auto r = impl_->request("tools/call", encode(params), options);
  if (!r) return r;
  auto created = decode<wire::created_task>(*r, "result");
  if (created && created->task && created->task->is_object() && !created->content)
    return *created->task;  // 2025-11-25 CreateTaskResult: return the Task itself
  return r;
}

result<json> client::get_task(std::string_view task_id, const call_options& options) {
  return impl_->request("tasks/get", encode(wire::task_id_params{.task_id = std::string(task_id)}),
                        options);
}

status client::cancel_task(std::string_view task_id, const call_options& options) {
  auto r = impl_->request("tasks/cancel",
                          encode(wire::task_id_params{.task_id = std::string(task_id)}), options);
  if (!r) return fail(r.error());
  return {};
}

result<json> client::wait_task(std::string_view task_id, const call_options& options) {
  const std::string id(task_id);
  const auto deadline = clock_type::now() + impl_->options.max_task_time;
  call_options poll = options;
  poll.on_progress = nullptr;
  // cancel_quietly asks the server to stop the task (best effort, not bound to options.stop).
  auto cancel_quietly = [&] {
    call_options c;
    c.timeout = std::chrono::seconds(10);
    (void)cancel_task(id, c);
  };
  auto cancelled_by_caller = [&] {
    cancel_quietly();
    return fail(errc::cancelled, describe() + ": task " + id + " was cancelled by the caller");
  };
  auto timed_out = [&] {
    cancel_quietly();
    return fail(errc::timeout, describe() + ": task " + id + " did not finish within " +
                                   std::to_string(impl_->options.max_task_time.count()) +
                                   " ms; it was cancelled");
  };
  // 2025-11-25 notifications/tasks/status for this task land in `watch` and wake the wait.
  auto watch = std::make_shared<task_watch>();
  {
    std::lock_guard lock(impl_->mu);
    impl_->task_watches[id] = watch;
  }
  struct unwatch {
    client::impl& im;
    const std::string& id;
    const std::shared_ptr<task_watch>& w;
    ~unwatch() {
      std::lock_guard lock(im.mu);
      if (auto it = im.task_watches.find(id); it != im.task_watches.end() && it->second == w)
        im.task_watches.erase(it);
    }
  } unwatch_at_exit{*impl_, id, watch};
  std::string last_status, last_message;
  // report tells on_task about a new status; `raw` is the Task as the server sent it.
  auto report = [&](const wire::task_info& t, const json& raw, bool notified) {
    std::string msg = t.status_message.value_or("");
    if (t.status.empty() || (t.status == last_status && msg == last_message)) return;
    if (options.on_task) options.on_task(task_update{id, t.status, msg, raw, notified});
    last_status = t.status;
    last_message = std::move(msg);
  };
  // fetch_result asks tasks/result (2025-11-25), which blocks until the task ends; input the
  // task needs meanwhile arrives as server requests (elicitation, sampling) on this request.
  auto fetch_result = [&]() -> result<json> {
    call_options r = poll;
    r.timeout = std::max(std::chrono::duration_cast<std::chrono::milliseconds>(
                             deadline - clock_type::now()),
                         std::chrono::milliseconds(1));
    auto out = impl_->request("tasks/result", {{"taskId", id}}, r);
    if (!out && options.stop.stop_requested()) return cancelled_by_caller();
    if (!out && out.error().code == errc::timeout && clock_type::now() >= deadline)
      return timed_out();
    return out;
  };
  for (;;) {
    if (options.stop.stop_requested()) return cancelled_by_caller();
    auto raw = get_task(id, poll);
    if (!raw) {
      if (raw.error().code == errc::cancelled && options.stop.stop_requested()) continue;
      return fail(raw.error());
    }
    auto t = read_task(*this, *raw, "result");
    if (!t) return fail(t.error());
    report(*t, *raw, false);
    const std::string& st = t->status;
    if (st == "completed") {
      if (stateless()) return t->result.value_or(json::object());
      return fetch_result();
    }
    if (st == "failed") {
      if (!stateless()) return fetch_result();
      if (!t->error)
        return fail(errc::protocol_error,
                    describe() + ": task " + id + " failed and the server gave no error");
      return fail(impl_->rpc_error("tools/call", *t->error));
    }
    if (st == "cancelled")
      return fail(errc::cancelled,
                  describe() + ": task " + id + " was cancelled" +
                      (t->status_message.value_or("").empty() ? std::string()
                                                              : " (" + *t->status_message + ")"));
    if (st == "input_required" && stateless() && t->input_requests) {
      auto responses = impl_->resolve_input(*t->input_requests, "result.inputRequests");
      if (!responses) {
        cancel_quietly();
        return fail(responses.error());
      }
      auto u =
          impl_->request("tasks/update", {{"taskId", id}, {"inputResponses", *responses}}, poll);
      if (!u) return fail(u.error());
      continue;
    }
    if (st == "input_required" && !stateless()) {
      // The spec's advice: call tasks/result at once; the server sends its requests there.
      auto r = fetch_result();
      if (auto after = get_task(id, poll))
        if (auto a = decode<wire::task_info>(*after, "result")) report(*a, *after, false);
      return r;
    }
    if (clock_type::now() >= deadline) return timed_out();
    std::vector<json> notified;
    {
      std::unique_lock lock(watch->mu);
      watch->cv.wait_for(lock, options.stop, poll_interval(*t),
                         [&] { return !watch->statuses.empty(); });
      notified.swap(watch->statuses);
    }
    // Each was decoded as a Task when it arrived (client_incoming.cpp).
    for (const auto& n : notified)
      if (auto nt = decode<wire::task_info>(n, "params")) report(*nt, n, true);
  }
}

}  // namespace tooluse::mcp
