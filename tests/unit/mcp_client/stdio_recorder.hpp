#pragma once
// recorder collects what a stdio client transport delivers (messages, its end, sends that got
// no reply, log lines); waits are bounded so a bug fails, not hangs. shell() runs a small
// shell script as the transport's child.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tooluse/mcp/stdio_client_transport.hpp"

namespace tooluse::testing {

struct recorder {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<json> messages;
  std::vector<std::string> logs;
  std::vector<std::pair<json, error>> failed;
  std::optional<error> closed;

  mcp::transport_handlers handlers() {
    return {.on_message =
                [this](json m) {
                  std::lock_guard lock(mutex);
                  messages.push_back(std::move(m));
                  cv.notify_all();
                },
            .on_closed =
                [this](const error& e) {
                  std::lock_guard lock(mutex);
                  closed = e;
                  cv.notify_all();
                },
            .on_send_failed =
                [this](const json& id, const error& e) {
                  std::lock_guard lock(mutex);
                  failed.emplace_back(id, e);
                  cv.notify_all();
                }};
  }
  std::function<void(std::string_view)> logger() {
    return [this](std::string_view l) {
      std::lock_guard lock(mutex);
      logs.emplace_back(l);
      cv.notify_all();
    };
  }
  template <class P>
  bool wait(P pred) {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, std::chrono::seconds(20), pred);
  }
  /// logged tells whether a log line so far contains `part`.
  bool logged(const std::string& part) {
    std::lock_guard lock(mutex);
    for (const auto& l : logs)
      if (l.find(part) != std::string::npos) return true;
    return false;
  }
};

/// shell is a transport running `/bin/sh -c script`, logging to `r`.
inline mcp::stdio_server_options shell(const std::string& script, recorder& r) {
  return {.command = {"/bin/sh", "-c", script},
          .name = "sh",
          .on_log = r.logger(),
          .shutdown_grace = std::chrono::milliseconds(200)};
}

}  // namespace tooluse::testing
