#pragma once
// handler_pool: the threads on which the MCP server runs requests that may block (the HTTP
// server's handlers, message_pump's requests), made on demand up to a maximum.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tooluse::mcp {

/// handler_pool runs jobs on up to `max` threads, made when a job finds no idle one. A job's
/// exception is written to stderr after "tooluse <name>: ". Thread-safe.
class handler_pool {
 public:
  handler_pool(std::size_t max, std::string name) : max_(max), name_(std::move(name)) {}
  ~handler_pool() { stop(); }
  handler_pool(const handler_pool&) = delete;
  handler_pool& operator=(const handler_pool&) = delete;

  /// post queues `job`; false if `limit` jobs are already queued or running, or after stop.
  bool post(std::function<void()> job, std::size_t limit);
  /// stop refuses new jobs, lets the queued ones run and joins the threads.
  void stop();

 private:
  void loop();
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  std::size_t max_, idle_ = 0, busy_ = 0;
  std::string name_;
  bool stopping_ = false;
};

}  // namespace tooluse::mcp
