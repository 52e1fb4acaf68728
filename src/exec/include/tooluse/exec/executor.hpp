#pragma once
/// \file executor.hpp
/// tooluse::exec::executor runs tool calls: validated against the tool's input schema, in a
/// bounded worker pool, under timeouts (cooperative through the stop token, plus a hard
/// deadline), rate limits, budgets, approval, retries, a circuit breaker and an optional result
/// cache, with results returned in call order. design/exec.md explains the design.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

#include "tooluse/exec/approval.hpp"
#include "tooluse/exec/cache.hpp"
#include "tooluse/exec/clock.hpp"
#include "tooluse/exec/events.hpp"
#include "tooluse/exec/limits.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse::exec {

/// executor_options configure an executor for its lifetime.
struct executor_options {
  int max_threads = 16;   ///< worker threads (the global parallelism); >= 1
  int max_abandoned = 8;  ///< extra threads allowed to replace workers stuck past a deadline
  std::chrono::milliseconds default_timeout{std::chrono::seconds(60)};  ///< tools with timeout 0
  std::size_t default_max_output_bytes = 100000;  ///< tools with max_output_bytes 0; 0: no limit
  std::filesystem::path spill_dir;  ///< where truncated outputs are saved in full; empty: nowhere
  retry_options retry;
  breaker_options breaker;
  cache_options cache;       ///< capacity 0 (default): no cache
  approval_policy approval;  ///< empty: every dangerous call is deferred (pending approval)
  std::shared_ptr<clock> time;  ///< null: steady clock. Used by limits, cache, breaker, back-off
  event_callback on_event;      ///< every call's events, e.g. a trace_writer
  std::uint64_t seed = 0;       ///< jitter random seed; 0: from std::random_device
  /// inline_synchronous lets call() run a synchronous tool (tool::synchronous) with no
  /// timeout, rate limit, parallel cap, approval, coercion or cached result on the caller's
  /// thread, without the pool (the fast path; design/exec.md). false: every call is queued.
  bool inline_synchronous = true;
};

/// run_options apply to one batch (run_all) or call (submit, call, resume).
struct run_options {
  int max_parallel = 0;                  ///< calls of this batch running at once; 0: no extra cap
  std::chrono::milliseconds timeout{0};  ///< whole batch, from the call to run_all; 0: none
  /// default_timeout, when set, replaces executor_options::default_timeout for this batch's
  /// calls of tools that set no timeout of their own; 0: no deadline (an MCP task, which its
  /// client cancels and its TTL bounds, runs its tool this way).
  std::optional<std::chrono::milliseconds> default_timeout;
  std::stop_token stop;                  ///< cancels every call of the batch
  std::string session;                   ///< rate-limit key (session or agent); "" is "default"
  std::shared_ptr<run_budget> budget;    ///< shared by the batches of one run; null: unlimited
  std::chrono::milliseconds rate_limit_wait{0};  ///< wait this long for a rate-limit slot
  event_callback on_event;                       ///< this batch's events
  /// idempotency_scope, when set, gives each call the idempotency key "SCOPE/CALL_ID" in its
  /// call_context, or "SCOPE" alone for a call without an id (a durable run passes its run id;
  /// the MCP server passes the caller's `_meta` key).
  std::string idempotency_scope;
  /// peer is handed to each call's call_context (the MCP server passes the request a tool is
  /// called for); null: none.
  std::shared_ptr<call_peer> peer;
};

/// executor_stats are counters for monitoring and tests.
struct executor_stats {
  int threads = 0;              ///< live worker threads, abandoned ones included
  int abandoned = 0;            ///< threads whose handler is still running past its deadline
  std::size_t queued = 0;       ///< admitted calls waiting for a worker
  std::uint64_t completed = 0;  ///< calls completed (any outcome)
};

/// executor runs calls of the tools in a registry. Thread-safety: every member function may be
/// called concurrently from many threads. The registry must outlive the executor; entries are
/// shared, so a call in flight survives unregistration. The destructor cancels queued calls,
/// requests stop on running ones and waits for workers that are not stuck; stuck workers are
/// left to finish on their own (design/exec.md, "Stuck tools").
/// Example:
///   tooluse::exec::executor ex(registry, {.max_threads = 8});
///   std::vector<tooluse::tool_call> calls = {...};
///   auto results = ex.run_all(calls, {.timeout = std::chrono::seconds(30)});
class executor {
 public:
  /// executor starts an engine over `registry`.
  /// Throws std::invalid_argument if max_threads < 1 or max_abandoned < 0.
  explicit executor(const tool_registry& registry, executor_options options = {});
  ~executor();
  executor(const executor&) = delete;
  executor& operator=(const executor&) = delete;

  /// run_all runs `calls` concurrently and returns one result per call, in call order, each
  /// with its duration. Never throws; every failure is an error result (unknown tool, invalid
  /// arguments with the schema attached, timeout, cancellation, limits, exceptions).
  std::vector<tool_result> run_all(std::span<const tool_call> calls, const run_options& options = {});

  /// submit starts one call and returns its future result at once (approval, validation and
  /// admission happen before it returns).
  std::future<tool_result> submit(const tool_call& call, const run_options& options = {});

  /// call runs one call and waits for its result. A call that may take the fast path
  /// (runs_inline) runs on the calling thread.
  tool_result call(const tool_call& call, const run_options& options = {});

  /// runs_inline tells whether call() runs tool `name` under `options` on the caller's thread
  /// (the fast path): a synchronous tool with no timeout, rate limit, parallel cap, approval,
  /// coercion or cache, and no batch timeout or budget. Transports use it to decide whether a
  /// call may run on an I/O thread.
  bool runs_inline(std::string_view name, const run_options& options = {}) const;

  /// resume continues a deferred call with a decision: approve or edit runs it (edited
  /// arguments are validated), reject returns the message as an error result, defer leaves it
  /// pending again.
  tool_result resume(const pending_approval& pending, const approval_decision& decision,
                     const run_options& options = {});

  /// breaker returns the state of `tool`'s circuit breaker (closed if it never failed).
  breaker_state breaker(std::string_view tool) const;

  /// stats returns current counters.
  executor_stats stats() const;

  struct impl;

 private:
  std::shared_ptr<impl> impl_;
};

}  // namespace tooluse::exec
