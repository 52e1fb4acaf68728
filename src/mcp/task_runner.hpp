#pragma once
// task_runner (internal): runs task-augmented tool calls on worker threads and serves the
// tasks/* methods of both wire revisions over a task_store.

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <variant>
#include <vector>

#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/tasks.hpp"
#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp {

struct tool_entry;
struct live_task;

using method_outcome = std::variant<json, jsonrpc::error_object>;

class task_runner {
 public:
  task_runner(server& srv, server::impl& d, task_options options);
  ~task_runner();
  task_runner(const task_runner&) = delete;
  task_runner& operator=(const task_runner&) = delete;

  /// shutdown stops every running task and waits for the workers.
  void shutdown();

  /// start creates a task running `tool` with `args` for the request served by `ctx` and
  /// returns its CreateTaskResult (flat for 2026-07-28, {"task": ...} before).
  method_outcome start(const std::shared_ptr<tool_entry>& tool, json args, request_context& ctx,
                       std::optional<long long> requested_ttl_ms);

  /// The tasks/* methods, their params decoded by the method table (server_dispatch.cpp).
  method_outcome get(request_context& ctx, const wire::task_id_params& p);
  method_outcome update(request_context& ctx, const wire::task_id_params& p);
  method_outcome cancel(request_context& ctx, const wire::task_id_params& p);
  method_outcome result(request_context& ctx, const wire::task_id_params& p);  ///< 2025-11-25: blocks until terminal
  method_outcome list(request_context& ctx, const wire::paginated_params& p);  ///< 2025-11-25

  const task_options& options() const { return options_; }

  /// stop_cancelled stops task `id` if it runs here and its record says cancelled (cancelled
  /// through another replica that shares the store).
  void stop_cancelled(const std::string& id);

 private:
  void run(const std::shared_ptr<live_task>& t);
  void finish(const std::shared_ptr<live_task>& t, task_status status, json result,
              std::optional<jsonrpc::error_object> error);
  void save_and_notify(const std::shared_ptr<live_task>& t, task_record& rec);
  std::optional<task_record> lookup(const std::string& id, const std::string& principal);
  void sweep_locked();

  server& srv_;
  server::impl& d_;
  task_options options_;
  std::mutex mu_;
  std::condition_variable cv_;  ///< notified on every change of a task
  std::map<std::string, std::shared_ptr<live_task>> live_;
  std::vector<std::string> known_;  ///< ids created here, for TTL sweeps
  bool stopping_ = false;
};

}  // namespace tooluse::mcp
