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
  if (!r.is_object()) return {};
  if (str_of(r, "resultType") == "task") return str_of(r, "taskId");
  if (r.contains("content")) return {};
  if (auto it = r.find("task"); it != r.end() && it->is_object()) return str_of(*it, "taskId");
  if (!str_of(r, "status").empty()) return str_of(r, "taskId");  // a Task (start_tool_task)
  return {};
}

namespace {

// tool_requires_task tells whether a 2025-11-25 tool's definition says taskSupport required.
bool tool_requires_task(client& c, std::string_view name) {
  const json caps = c.capabilities();
  if (!caps.contains("tasks")) return false;
  auto tools = c.list_tools();
  if (!tools) return false;
  for (const auto& t : *tools)
    if (t.is_object() && str_of(t, "name") == name && t.contains("execution") &&
        t["execution"].is_object())
      return str_of(t["execution"], "taskSupport") == "required";
  return false;
}

std::chrono::milliseconds poll_interval(const json& task) {
  long long ms = 1000;
  for (const char* key : {"pollIntervalMs", "pollInterval"})
    if (task.contains(key) && task[key].is_number()) ms = task[key].get<long long>();
  return std::chrono::milliseconds(std::clamp<long long>(ms, 10, 10000));
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
  if (auto it = r->find("task"); it != r->end() && it->is_object() && !r->contains("content"))
    return *it;  // 2025-11-25 CreateTaskResult: return the Task itself
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
  auto report = [&](const json& t, bool notified) {
    std::string st = str_of(t, "status"), msg = str_of(t, "statusMessage");
    if (st.empty() || (st == last_status && msg == last_message)) return;
    if (options.on_task) options.on_task(task_update{id, st, msg, t, notified});
    last_status = std::move(st);
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
    auto t = get_task(id, poll);
    if (!t) {
      if (t.error().code == errc::cancelled && options.stop.stop_requested()) continue;
      return fail(t.error());
    }
    report(*t, false);
    const std::string st = str_of(*t, "status");
    if (st == "completed") {
      if (stateless()) return t->value("result", json::object());
      return fetch_result();
    }
    if (st == "failed") {
      if (!stateless()) return fetch_result();
      const json e = t->value("error", json::object());
      return fail(impl_->rpc_error("tools/call", e.is_object() ? e : json::object()));
    }
    if (st == "cancelled")
      return fail(errc::cancelled, describe() + ": task " + id + " was cancelled" +
                                       (str_of(*t, "statusMessage").empty()
                                            ? std::string()
                                            : " (" + str_of(*t, "statusMessage") + ")"));
    if (st == "input_required" && stateless() && t->contains("inputRequests")) {
      auto responses = impl_->resolve_input((*t)["inputRequests"]);
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
      if (auto after = get_task(id, poll)) report(*after, false);
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
    for (const auto& n : notified) report(n, true);
  }
}

}  // namespace tooluse::mcp
