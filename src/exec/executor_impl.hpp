#pragma once
// The executor's internals, shared by executor_pool.cpp (workers, watchdog, completion),
// executor_admit.cpp (checks before a call is queued) and executor_run.cpp (what a worker does
// with a call).

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <stop_token>
#include <thread>
#include <vector>

#include "tooluse/exec/executor.hpp"
#include "tooluse/schema/validator.hpp"
#include "tooluse/telemetry/trace.hpp"

namespace tooluse::exec {

using steady = std::chrono::steady_clock;

// batch_state is one run_all (or one submit/call/resume): options, gates and results.
struct batch_state {
  run_options options;
  steady::time_point start = steady::now();
  steady::time_point deadline = steady::time_point::max();
  int running = 0;  // guarded by impl::pool_mutex

  std::mutex mutex;  // guards everything below
  std::condition_variable done_cv;
  std::size_t remaining = 0;
  std::vector<tool_result> results;
  std::optional<std::promise<tool_result>> promise;  // submit(): set when the one call ends
  std::unique_ptr<std::stop_callback<std::function<void()>>> on_stop;  // submit()'s cancel hook
};

// job is one admitted call.
struct job {
  std::size_t index = 0;
  tool_call call;  // arguments are final (after approval edits)
  std::shared_ptr<const registered_tool> entry;
  std::shared_ptr<batch_state> batch;
  std::stop_source stop;
  std::string cache_key;  // non-empty when the result may be cached
  json coerced;           // the coercions made to the arguments (null: none)
  steady::time_point enqueued{};
  telemetry::span_context trace_parent;  // the submitting thread's span, if tracing
  // Set when the call's cost was reserved in the run's budget; cleared by the one refund
  // (impl::unreserve) if the call does not run after all.
  std::atomic<bool> reserved{false};

  // Guarded by impl::pool_mutex.
  enum class phase { admitted, queued, running, done } state = phase::admitted;
  bool abandoned = false;
  steady::time_point started{};

  // Guarded by impl::watch_mutex.
  std::optional<std::multimap<steady::time_point, std::weak_ptr<job>>::iterator> watch;

  // Guarded by `mutex`: once completed, no more events or results for this job.
  std::mutex mutex;
  bool completed = false;
};

// What both paths (the pool's invoke and the inline fast path) give every call: its idempotency
// key (run_options::idempotency_scope + "/" + call id) and its GenAI execute_tool span, current
// while the handler runs (so an MCP request it makes is its child and carries its traceparent).
std::string idempotency_key_for(const run_options& o, const tool_call& call);
telemetry::span start_tool_span(const tool_call& call, const tool& t,
                                std::optional<telemetry::span_context> parent);
void end_tool_span(telemetry::span& span, const tool_result& r);

// outcome_result is what a worker or a check produced for a call.
struct outcome_result {
  tool_result result;
  call_outcome outcome = call_outcome::ok;
  int attempts = 0;
  bool cached = false;
};

struct executor::impl : std::enable_shared_from_this<impl> {
  impl(const tool_registry& r, executor_options o);

  const tool_registry& registry;
  executor_options options;
  std::shared_ptr<clock> time;
  rate_limiter limiter;
  std::optional<result_cache> cache;

  mutable std::mutex breakers_mutex;
  /// One per tool, made at its first call and kept as long as the executor (never erased).
  std::map<std::string, std::unique_ptr<circuit_breaker>, std::less<>> breakers;
  /// Distinct for every executor the process makes (breaker_for's per-thread memory).
  const std::uint64_t serial = next_serial();
  static std::uint64_t next_serial() {
    static std::atomic<std::uint64_t> n{0};
    return ++n;
  }
  std::mutex rng_mutex;
  std::mt19937_64 rng;
  std::atomic<std::uint64_t> counter{0};
  std::atomic<std::uint64_t> completed_count{0};

  // The worker pool.
  mutable std::mutex pool_mutex;
  std::condition_variable pool_cv;  // workers wait for eligible jobs
  std::condition_variable exit_cv;  // the destructor waits for workers to leave
  std::deque<std::shared_ptr<job>> queue;
  std::set<std::shared_ptr<job>> running_jobs;
  std::map<std::string, int, std::less<>> tool_running;  // tools with max_parallel > 0
  int active = 0;                                        // worker threads not stuck past a deadline
  int abandoned = 0;                                     // worker threads whose job was given up on
  int waiting = 0;                                       // workers waiting for a job
  bool stopping = false;

  // The watchdog: one deadline per queued or running job.
  std::mutex watch_mutex;
  std::condition_variable_any watch_cv;
  std::multimap<steady::time_point, std::weak_ptr<job>> deadlines;
  std::jthread watchdog;

  // executor_pool.cpp
  void start_watchdog();
  void shutdown();
  void enqueue(const std::shared_ptr<job>& j);
  void arm(const std::shared_ptr<job>& j, steady::time_point when);
  void disarm(job& j);
  void expire(const std::shared_ptr<job>& j, call_outcome why);
  bool complete(job& j, outcome_result r);
  void emit(job& j, const call_event& e);
  void worker_loop();

  // executor_admit.cpp
  std::shared_ptr<job> make_job(const tool_call& call, std::size_t index,
                                const std::shared_ptr<batch_state>& batch);
  void admit(const std::shared_ptr<job>& j, bool skip_approval);
  std::optional<outcome_result> check(job& j, bool skip_approval);
  std::optional<outcome_result> approve(job& j, bool& edited);
  /// unreserve refunds the call's budget reservation, once, when it does not run after all.
  void unreserve(job& j);

  // executor_inline.cpp: the fast path
  bool inline_eligible(const tool& t, const run_options& o) const;
  std::optional<tool_result> try_inline(const tool_call& call, const run_options& o);
  steady::time_point deadline_of(const job& j) const;

  // executor_run.cpp
  outcome_result run(job& j);
  std::optional<outcome_result> gate_call(job& j, std::stop_token stop);
  outcome_result invoke(job& j, std::stop_token stop);
  circuit_breaker& breaker_for(const std::string& tool);
  /// timeout_of is a tool's deadline in batch `o`: its own, else the batch's default, else the
  /// executor's (0: none).
  steady::duration timeout_of(const tool& t, const run_options& o) const;

 private:
  std::shared_ptr<job> take_eligible();
  void spawn_if_needed();
};

// invalid_arguments is the result of a call whose arguments fail the schema (executor_admit.cpp).
tool_result invalid_arguments(const tool& t, const std::vector<schema::validation_error>& errors);
// emit_to calls the executor's and the batch's observers, ignoring their exceptions.
void emit_to(const event_callback& a, const event_callback& b, const call_event& e);

// batch helpers (executor_admit.cpp)
std::shared_ptr<batch_state> make_batch(const run_options& options, std::size_t n);
void wait_batch(batch_state& b);

}  // namespace tooluse::exec
