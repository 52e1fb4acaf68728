#pragma once
/// \file queue.hpp
/// A queue of tool calls on PostgreSQL, for runs whose tools execute on other machines. A run
/// enqueues its calls (keyed by their idempotency key, so a resumed run finds the calls it
/// enqueued before and their results) and waits for LISTEN/NOTIFY; workers take calls with
/// leases (`FOR UPDATE SKIP LOCKED`), keep them with heartbeats, and write the results. A worker
/// that dies stops heart-beating, its lease expires and another worker takes the call over with
/// the same idempotency key. Per-tool rate limits (tool::rate) hold across all workers of a
/// queue. design/store.md, "The queue".
/// Example:
///   auto q = tooluse::store::tool_queue::open("postgresql://localhost/app", "tools");
///   tooluse::agent a(model, registry, {.runner = (*q)->runner("run-1"), .journal = journal});
///   // elsewhere, on any number of machines:
///   tooluse::store::queue_worker w(url, "tools", executor, {});  w.run(stop);

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

#include "tooluse/agent/agent.hpp"
#include "tooluse/result.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::exec {
class executor;
}

namespace tooluse::store {

/// tool_queue is the run's side of a queue: enqueue calls, wait for their results.
class tool_queue {
 public:
  /// open connects to PostgreSQL (creating the schema if needed) for queue `name`.
  /// Errors: errc::io_error with the server's message; errc::invalid_argument for a URL that is
  /// not postgresql://.
  static result<std::unique_ptr<tool_queue>> open(const std::string& url, const std::string& name,
                                                  const store_options& options = {});
  ~tool_queue();

  /// run enqueues `calls` of run `run_id` (a call already enqueued under the same key is not
  /// enqueued again) and returns their results in call order once workers wrote them. On
  /// cancellation the missing results are errors (the calls stay queued).
  std::vector<tool_result> run(std::span<const tool_call> calls, const std::string& run_id,
                               std::stop_token stop = {});

  /// runner adapts run() to agent_options::runner.
  tool_runner runner(std::string run_id);

  struct impl;

 private:
  explicit tool_queue(std::unique_ptr<impl> i);
  std::unique_ptr<impl> impl_;
};

/// worker_options tune a worker.
struct worker_options {
  std::string worker_id;  ///< empty: HOSTNAME-PID
  std::chrono::milliseconds lease{
      10000};      ///< a call is taken over this long after the last heartbeat
  int batch = 16;  ///< calls claimed per round trip (and run in parallel)
  std::function<void(const std::string&)> log;  ///< progress lines; may be empty
  /// tools, when set, gives each tool's rate limit (tool::rate), which then holds across every
  /// worker of the queue: a call over the limit goes back to the queue until its window ends.
  const tool_registry* tools = nullptr;
  /// what a claim or a result survives (store.hpp, durability); unset: as open_store. A result
  /// lost to a database crash makes the call run again, with the same idempotency key.
  std::optional<store::durability> durability;
};

/// queue_worker takes calls from a queue and runs them with an executor.
class queue_worker {
 public:
  /// queue_worker connects later, in run(). `executor` must outlive the worker.
  queue_worker(std::string url, std::string queue, exec::executor& executor,
               worker_options options = {});
  ~queue_worker();

  /// run takes and runs calls until `stop` is requested.
  /// Errors: errc::io_error if the database connection cannot be made.
  status run(std::stop_token stop);

  /// completed returns how many calls this worker finished.
  std::uint64_t completed() const;

  struct impl;

 private:
  std::unique_ptr<impl> impl_;
};

}  // namespace tooluse::store
