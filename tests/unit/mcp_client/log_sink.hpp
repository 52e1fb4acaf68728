#pragma once
// log_sink records a mount's log lines (mount_options::on_log) so tests can look for a notice
// or wait for one to arrive from the mount's threads.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tooluse::testing {

struct log_sink {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<std::string> lines;

  std::function<void(std::string_view)> fn() {
    return [this](std::string_view l) {
      std::lock_guard lock(mutex);
      lines.emplace_back(l);
      cv.notify_all();
    };
  }
  /// has tells whether a line recorded so far contains `text`.
  bool has(const std::string& text) {
    std::lock_guard lock(mutex);
    return contains(text);
  }
  /// wait_for_text waits (at most 20 s) for a line containing `text`.
  bool wait_for_text(const std::string& text) {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, std::chrono::seconds(20), [&] { return contains(text); });
  }

 private:
  bool contains(const std::string& text) const {
    for (const auto& l : lines)
      if (l.find(text) != std::string::npos) return true;
    return false;
  }
};

}  // namespace tooluse::testing
