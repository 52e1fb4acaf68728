#pragma once
/// \file limits.hpp
/// The execution engine's limiters: per-key sliding-window rate limits, per-run budgets
/// (calls and cost), per-tool circuit breakers, and the retry policy. Each is usable on its
/// own; the executor owns one rate_limiter and one circuit_breaker per tool.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "tooluse/exec/clock.hpp"
#include "tooluse/tools/tool.hpp"

namespace tooluse::exec {

/// rate_limiter admits at most `limit.calls` calls per sliding `limit.window` for each key
/// (the executor uses "<tool>\n<session>"). It keeps one timestamp per admitted call in the
/// window, so memory is O(calls) per active key. Thread-safe.
class rate_limiter {
 public:
  explicit rate_limiter(std::shared_ptr<clock> time = steady_clock_source());

  /// try_acquire admits one call for `key`, returning std::nullopt, or refuses it, returning
  /// how long until a slot frees up. A limit with calls == 0 admits everything.
  std::optional<clock::duration> try_acquire(std::string_view key, const rate_limit& limit);

 private:
  std::shared_ptr<clock> clock_;
  std::mutex mutex_;
  struct window {
    std::deque<clock::time_point> admitted;  ///< the calls admitted in the last `length`
    clock::duration length{};                ///< the key's window, as its last call gave it
  };
  std::map<std::string, window, std::less<>> windows_;
  std::size_t acquisitions_ = 0;
};

/// budget_limits caps one run (an agent run spans many batches). Zero means unlimited.
struct budget_limits {
  std::size_t max_calls = 0;  ///< tool calls admitted (calls that did not run do not count)
  double max_cost = 0;        ///< sum of cost_per_call plus tool-reported cost
};

/// run_budget tracks what a run has spent. Share one between the batches of a run through
/// run_options::budget. Thread-safe.
class run_budget {
 public:
  explicit run_budget(budget_limits limits);

  /// reserve admits one call costing `cost` up front, or returns the message for the model
  /// saying which limit was reached.
  std::optional<std::string> reserve(double cost);
  /// refund gives back a reservation of `cost` for a call that did not run after all (its
  /// rate limit or circuit breaker refused it, it was cancelled or timed out before it
  /// started, the executor was shutting down). The executor calls it; so may a caller that
  /// reserved by hand.
  void refund(double cost);
  /// charge adds cost a tool reported after running (tool_result meta "cost").
  void charge(double cost);
  /// calls_used returns the calls admitted so far.
  std::size_t calls_used() const;
  /// cost_used returns the cost spent so far.
  double cost_used() const;
  /// limits returns the limits this budget was built with.
  const budget_limits& limits() const { return limits_; }

 private:
  budget_limits limits_;
  mutable std::mutex mutex_;
  std::size_t calls_ = 0;
  double cost_ = 0;
};

/// breaker_options tunes every tool's circuit breaker.
struct breaker_options {
  int failure_threshold = 5;  ///< consecutive failures that open the circuit; 0 disables
  std::chrono::milliseconds open_for{std::chrono::seconds(30)};  ///< before a half-open trial
};

/// breaker_state is closed (calls pass), open (calls refused) or half_open (one trial call).
enum class breaker_state { closed, open, half_open };

/// to_string returns "closed", "open" or "half_open".
std::string_view to_string(breaker_state s) noexcept;

/// circuit_breaker guards one tool: after `failure_threshold` consecutive failures it opens
/// for `open_for`; then one trial call is let through (half-open): success closes the circuit,
/// failure opens it again. Thread-safe.
class circuit_breaker {
 public:
  circuit_breaker(breaker_options options, std::shared_ptr<clock> time);

  /// allow admits a call, returning std::nullopt, or refuses it, returning the time until the
  /// next trial. In half-open state only one call is admitted until it is recorded.
  std::optional<clock::duration> allow();
  /// record reports the outcome of an admitted call.
  void record(bool success);
  /// cancel_trial forgets a half-open trial that was cancelled before it could be recorded,
  /// so the next call may try instead.
  void cancel_trial();
  /// state returns the current state (an open circuit whose time is up reads half_open).
  breaker_state state() const;

 private:
  breaker_options options_;
  std::shared_ptr<clock> clock_;
  /// healthy_: closed with no failure counted, the state of nearly every call. allow() and a
  /// successful record() then read this alone instead of taking the lock, which every call of
  /// the tool, on every thread, would otherwise share.
  std::atomic<bool> healthy_{true};
  mutable std::mutex mutex_;
  breaker_state state_ = breaker_state::closed;
  int failures_ = 0;
  bool trial_in_flight_ = false;
  clock::time_point opened_at_{};
};

/// retry_options: calls of tools annotated idempotent whose result is an error marked
/// transient (meta {"transient": true}) are retried with exponential back-off and jitter,
/// never after cancellation or timeout.
struct retry_options {
  int max_attempts = 3;  ///< including the first; 1 disables retries
  std::chrono::milliseconds initial_backoff{100};
  double multiplier = 2.0;
  std::chrono::milliseconds max_backoff{std::chrono::seconds(5)};
  double jitter = 0.2;  ///< each delay is scaled by a random factor in [1 - jitter, 1 + jitter]
};

/// backoff_delay returns the delay before attempt `attempt` + 1 (attempt counts from 1) for a
/// random draw `unit` in [0, 1].
clock::duration backoff_delay(const retry_options& options, int attempt, double unit);

}  // namespace tooluse::exec
