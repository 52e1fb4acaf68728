// tooluse::mcp::client tasks: task-augmented tools/call, tasks/get polling at the server's
// suggested interval, input for 2026-07-28 tasks (tasks/update), results and cancellation.

#include <algorithm>
#include <condition_variable>
#include <mutex>

#include "client_impl.hpp"

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

// pause waits up to `d` or until `stop`; false when stopped.
bool pause(std::chrono::milliseconds d, std::stop_token stop) {
  std::mutex m;
  std::condition_variable_any cv;
  std::unique_lock lock(m);
  cv.wait_for(lock, stop, d, [] { return false; });
  return !stop.stop_requested();
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
  json params = {{"name", std::string(name)},
                 {"arguments", arguments.is_null() ? json::object() : arguments}};
  if (!stateless() && impl_->options.tasks &&
      (options.as_task || tool_requires_task(*this, name))) {
    json task = json::object();
    if (options.task_ttl_ms > 0) task["ttl"] = options.task_ttl_ms;
    params["task"] = std::move(task);
  }
  auto r = impl_->request("tools/call", std::move(params), options);
  if (!r) return r;
  if (auto it = r->find("task"); it != r->end() && it->is_object() && !r->contains("content"))
    return *it;  // 2025-11-25 CreateTaskResult: return the Task itself
  return r;
}

result<json> client::get_task(std::string_view task_id, const call_options& options) {
  return impl_->request("tasks/get", {{"taskId", std::string(task_id)}}, options);
}

status client::cancel_task(std::string_view task_id, const call_options& options) {
  auto r = impl_->request("tasks/cancel", {{"taskId", std::string(task_id)}}, options);
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
  std::string last;
  for (;;) {
    if (options.stop.stop_requested()) {
      cancel_quietly();
      return fail(errc::cancelled, describe() + ": task " + id + " was cancelled by the caller");
    }
    auto t = get_task(id, poll);
    if (!t) {
      if (t.error().code == errc::cancelled && options.stop.stop_requested()) continue;
      return fail(t.error());
    }
    std::string st = str_of(*t, "status");
    if (st != last && options.on_task)
      options.on_task(task_update{id, st, str_of(*t, "statusMessage"), *t});
    last = st;
    if (st == "completed") {
      if (stateless()) return t->value("result", json::object());
      return impl_->request("tasks/result", {{"taskId", id}}, poll);
    }
    if (st == "failed") {
      if (!stateless()) return impl_->request("tasks/result", {{"taskId", id}}, poll);
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
    if (clock_type::now() >= deadline) {
      cancel_quietly();
      return fail(errc::timeout, describe() + ": task " + id + " did not finish within " +
                                     std::to_string(impl_->options.max_task_time.count()) +
                                     " ms; it was cancelled");
    }
    pause(poll_interval(*t), options.stop);
  }
}

}  // namespace tooluse::mcp
