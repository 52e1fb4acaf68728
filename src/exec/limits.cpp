#include "tooluse/exec/limits.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "tooluse/enum_names.hpp"
namespace tooluse::exec {

rate_limiter::rate_limiter(std::shared_ptr<clock> time) : clock_(std::move(time)) {
  if (!clock_) clock_ = steady_clock_source();
}

std::optional<clock::duration> rate_limiter::try_acquire(std::string_view key,
                                                         const rate_limit& limit) {
  if (limit.calls <= 0) return std::nullopt;
  const auto now = clock_->now();
  std::lock_guard lock(mutex_);
  // Drop idle keys now and then so a long-lived executor with many sessions stays small. A
  // key is idle once its own window (not this call's) has passed since its last call.
  if (++acquisitions_ % 1024 == 0) {
    std::erase_if(windows_, [&](const auto& kv) {
      return kv.second.admitted.empty() || kv.second.admitted.back() + kv.second.length <= now;
    });
  }
  auto it = windows_.find(key);
  if (it == windows_.end()) it = windows_.emplace(std::string(key), window{}).first;
  it->second.length = limit.window;
  auto& times = it->second.admitted;
  while (!times.empty() && times.front() + limit.window <= now) times.pop_front();
  if (static_cast<int>(times.size()) < limit.calls) {
    times.push_back(now);
    return std::nullopt;
  }
  return times.front() + limit.window - now;
}

run_budget::run_budget(budget_limits limits) : limits_(limits) {}

namespace {
std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}
}  // namespace

std::optional<std::string> run_budget::reserve(double cost) {
  std::lock_guard lock(mutex_);
  if (limits_.max_calls > 0 && calls_ >= limits_.max_calls)
    return "budget exceeded: this run may make at most " + std::to_string(limits_.max_calls) +
           " tool calls and all have been used; answer with what you have";
  if (limits_.max_cost > 0 && cost_ + cost > limits_.max_cost + 1e-12)
    return "budget exceeded: this call would cost " + number(cost) + " and the run has spent " +
           number(cost_) + " of its " + number(limits_.max_cost) +
           "; answer with what you have";
  ++calls_;
  cost_ += cost;
  return std::nullopt;
}

void run_budget::refund(double cost) {
  std::lock_guard lock(mutex_);
  if (calls_ > 0) --calls_;
  cost_ = cost_ > cost ? cost_ - cost : 0.0;
}

void run_budget::charge(double cost) {
  std::lock_guard lock(mutex_);
  cost_ += cost;
}

std::size_t run_budget::calls_used() const {
  std::lock_guard lock(mutex_);
  return calls_;
}

double run_budget::cost_used() const {
  std::lock_guard lock(mutex_);
  return cost_;
}

TOOLUSE_ENUM_NAMES(breaker_state, (closed), (open), (half_open))

std::string_view to_string(breaker_state s) noexcept { return enum_name(s, "closed"); }

circuit_breaker::circuit_breaker(breaker_options options, std::shared_ptr<clock> time)
    : options_(options), clock_(std::move(time)) {
  if (!clock_) clock_ = steady_clock_source();
}

std::optional<clock::duration> circuit_breaker::allow() {
  if (healthy_.load(std::memory_order_acquire)) return std::nullopt;
  std::lock_guard lock(mutex_);
  if (state_ == breaker_state::closed) return std::nullopt;
  const auto now = clock_->now();
  if (state_ == breaker_state::open) {
    if (now < opened_at_ + options_.open_for) return opened_at_ + options_.open_for - now;
    state_ = breaker_state::half_open;
    trial_in_flight_ = false;
  }
  if (trial_in_flight_) return std::chrono::duration_cast<clock::duration>(options_.open_for);
  trial_in_flight_ = true;
  return std::nullopt;
}

void circuit_breaker::record(bool success) {
  if (success && healthy_.load(std::memory_order_acquire)) return;  // nothing to change
  std::lock_guard lock(mutex_);
  if (success) {
    state_ = breaker_state::closed;
    failures_ = 0;
    trial_in_flight_ = false;
    healthy_.store(true, std::memory_order_release);
    return;
  }
  ++failures_;
  healthy_.store(false, std::memory_order_release);
  if (state_ == breaker_state::half_open ||
      (options_.failure_threshold > 0 && failures_ >= options_.failure_threshold)) {
    state_ = breaker_state::open;
    opened_at_ = clock_->now();
    trial_in_flight_ = false;
  }
}

void circuit_breaker::cancel_trial() {
  std::lock_guard lock(mutex_);
  if (state_ == breaker_state::half_open) trial_in_flight_ = false;
}

breaker_state circuit_breaker::state() const {
  std::lock_guard lock(mutex_);
  if (state_ == breaker_state::open && clock_->now() >= opened_at_ + options_.open_for)
    return breaker_state::half_open;
  return state_;
}

clock::duration backoff_delay(const retry_options& o, int attempt, double unit) {
  double ms = static_cast<double>(o.initial_backoff.count()) *
              std::pow(o.multiplier, std::max(0, attempt - 1));
  ms = std::min(ms, static_cast<double>(o.max_backoff.count()));
  const double factor = 1.0 + o.jitter * (2.0 * std::clamp(unit, 0.0, 1.0) - 1.0);
  ms = std::max(0.0, ms * factor);
  return std::chrono::duration_cast<clock::duration>(std::chrono::duration<double, std::milli>(ms));
}

}  // namespace tooluse::exec
