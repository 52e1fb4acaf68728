#pragma once
/// \file clock.hpp
/// tooluse::exec::clock, the time source of the execution engine's policies (rate limits, cache
/// TTL, circuit breaker cool-down, retry back-off). Injectable so tests advance time instead of
/// sleeping. Hard deadlines (timeouts) always use std::chrono::steady_clock: they are the thing
/// being measured.

#include <chrono>
#include <memory>
#include <mutex>
#include <stop_token>
#include <vector>

namespace tooluse::exec {

/// clock is a monotonic time source with an interruptible sleep. Implementations are safe to
/// use from many threads.
class clock {
 public:
  using duration = std::chrono::steady_clock::duration;
  using time_point = std::chrono::steady_clock::time_point;
  virtual ~clock() = default;
  /// now returns the current time.
  virtual time_point now() const = 0;
  /// sleep_for waits `d` or until `stop` is requested; returns false if stopped early.
  virtual bool sleep_for(duration d, std::stop_token stop) = 0;
};

/// steady_clock_source returns the process-wide clock backed by std::chrono::steady_clock.
std::shared_ptr<clock> steady_clock_source();

/// manual_clock is a clock for tests: time moves only through advance() and sleep_for(), which
/// advances it by the requested amount and returns at once (recording the sleep).
/// Thread-safe.
class manual_clock : public clock {
 public:
  manual_clock();
  time_point now() const override;
  bool sleep_for(duration d, std::stop_token stop) override;
  /// advance moves time forward by `d`.
  void advance(duration d);
  /// sleeps returns every duration passed to sleep_for so far, in call order.
  std::vector<duration> sleeps() const;

 private:
  mutable std::mutex mutex_;
  time_point now_;
  std::vector<duration> sleeps_;
};

}  // namespace tooluse::exec
