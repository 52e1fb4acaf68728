#pragma once
// response_gate holds a scripted model's answer until the test opens it: the fake server's
// responder calls wait() (which also records that the request arrived), the test waits for the
// arrival, looks at what the CLI shows meanwhile, then opens the gate. Every wait ends after
// 30 s, so a failed test cannot hang. gate_opener opens it when the test ends, before a server
// declared earlier waits for its connections. The destructor opens the gate too and waits until
// every waiter has left wait(): a server that outlives the gate (a fixture member) may still
// have a responder inside wait() when the test body's locals go.
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace tooluse::testing {

class response_gate {
 public:
  response_gate() = default;
  response_gate(const response_gate&) = delete;
  response_gate& operator=(const response_gate&) = delete;
  ~response_gate() {
    std::unique_lock lock(mutex_);
    open_ = true;
    cv_.notify_all();
    cv_.wait(lock, [&] { return waiters_ == 0; });
  }
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    cv_.notify_all();
  }
  /// wait records the arrival, then blocks until open() (or 30 s).
  void wait() {
    std::unique_lock lock(mutex_);
    arrived_ = true;
    ++waiters_;
    cv_.notify_all();
    cv_.wait_for(lock, std::chrono::seconds(30), [&] { return open_; });
    --waiters_;
    cv_.notify_all();
  }
  /// wait_arrival blocks until a wait() has begun; false after 30 s without one.
  bool wait_arrival() {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, std::chrono::seconds(30), [&] { return arrived_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool open_ = false, arrived_ = false;
  int waiters_ = 0;
};

struct gate_opener {
  response_gate& gate;
  ~gate_opener() { gate.open(); }
};

}  // namespace tooluse::testing
