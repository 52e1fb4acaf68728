#include "tooluse/exec/clock.hpp"

#include <condition_variable>

namespace tooluse::exec {
namespace {

class steady_source final : public clock {
 public:
  time_point now() const override { return std::chrono::steady_clock::now(); }
  bool sleep_for(duration d, std::stop_token stop) override {
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    // Nothing notifies cv: the wait ends at the timeout or when stop is requested.
    cv.wait_for(lock, stop, d, [] { return false; });
    return !stop.stop_requested();
  }
};

}  // namespace

std::shared_ptr<clock> steady_clock_source() {
  static const std::shared_ptr<clock> source = std::make_shared<steady_source>();
  return source;
}

manual_clock::manual_clock() : now_(std::chrono::steady_clock::time_point{} + std::chrono::hours(1)) {}

clock::time_point manual_clock::now() const {
  std::lock_guard lock(mutex_);
  return now_;
}

bool manual_clock::sleep_for(duration d, std::stop_token stop) {
  if (stop.stop_requested()) return false;
  std::lock_guard lock(mutex_);
  sleeps_.push_back(d);
  now_ += d;
  return true;
}

void manual_clock::advance(duration d) {
  std::lock_guard lock(mutex_);
  now_ += d;
}

std::vector<clock::duration> manual_clock::sleeps() const {
  std::lock_guard lock(mutex_);
  return sleeps_;
}

}  // namespace tooluse::exec
