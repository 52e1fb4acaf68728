#include "mcp/handler_pool.hpp"

#include <exception>
#include <iostream>

namespace tooluse::mcp {

bool handler_pool::post(std::function<void()> job, std::size_t limit) {
  std::lock_guard lock(mu_);
  if (stopping_ || jobs_.size() + busy_ >= limit) return false;
  jobs_.push_back(std::move(job));
  if (idle_ < jobs_.size() && threads_.size() < max_) threads_.emplace_back([this] { loop(); });
  cv_.notify_one();
  return true;
}

void handler_pool::loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    ++idle_;
    cv_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
    --idle_;
    if (jobs_.empty()) return;
    auto job = std::move(jobs_.front());
    jobs_.pop_front();
    ++busy_;
    lock.unlock();
    try {
      job();
    } catch (const std::exception& e) {
      std::cerr << "tooluse " << name_ << ": " << e.what() << "\n";
    }
    lock.lock();
    --busy_;
  }
}

void handler_pool::stop() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    threads.swap(threads_);
    cv_.notify_all();
  }
  // Queued jobs still run (their exchanges must end); new ones are refused.
  for (auto& t : threads)
    if (t.joinable()) t.join();
}

}  // namespace tooluse::mcp
