#pragma once
// Helpers for the tests that run tests/programs/task_mcp_server.cpp: the events FIFO its tools
// write to (so a test waits for "started X" / "stopped X" without sleeping) and the server as a
// Streamable HTTP process.
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "npm_peers.hpp"
#include "tooluse/mcp/stdio_client_transport.hpp"

namespace tooluse::testing {

/// task_events is a FIFO the task server's tools append lines to. The test keeps a writer open
/// itself, so the reader never sees end-of-file between the server's writes.
class task_events {
 public:
  explicit task_events(const std::filesystem::path& dir) : path_((dir / "events").string()) {
    ::mkfifo(path_.c_str(), 0600);
    read_fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK);
    write_fd_ = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK);
  }
  ~task_events() {
    if (read_fd_ >= 0) ::close(read_fd_);
    if (write_fd_ >= 0) ::close(write_fd_);
  }
  task_events(const task_events&) = delete;
  task_events& operator=(const task_events&) = delete;
  const std::string& path() const { return path_; }

  /// wait_for returns true once a line equal to `line` arrived (false after 60 s); lines before
  /// it are consumed.
  bool wait_for(const std::string& line) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
      for (std::size_t nl; (nl = buf_.find('\n')) != std::string::npos;) {
        std::string got = buf_.substr(0, nl);
        buf_.erase(0, nl + 1);
        seen_ += got + "\n";
        if (got == line) return true;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      pollfd p{read_fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
      char b[1024];
      auto n = ::read(read_fd_, b, sizeof b);
      if (n <= 0) return false;
      buf_.append(b, static_cast<std::size_t>(n));
    }
  }
  /// seen is every line consumed so far (for failure messages).
  const std::string& seen() const { return seen_; }

 private:
  std::string path_;
  int read_fd_ = -1;
  int write_fd_ = -1;
  std::string buf_, seen_;
};

/// task_server_command is the command line of the task server in `mode` ("--stdio", or
/// "--http PORT" as two words) writing events to `events`.
inline std::vector<std::string> task_server_command(std::vector<std::string> mode,
                                                    const std::string& events) {
  std::vector<std::string> cmd = {TOOLUSE_TASK_SERVER};
  cmd.insert(cmd.end(), mode.begin(), mode.end());
  cmd.push_back("--events");
  cmd.push_back(events);
  return cmd;
}

/// task_server_http runs the task server over Streamable HTTP; start() waits until it listens.
/// Destroying it ends the process without a clean shutdown (SIGTERM, which the server does not
/// handle), as a crash would: tasks it ran stay `working` in a durable store.
class task_server_http : public listening_child {
 public:
  explicit task_server_http(const std::string& events, std::vector<std::string> extra = {},
                            int port = free_port())
      : listening_child(port, {.command = command(events, std::move(extra), port), .name = "task-server-http"},
                        "listening on") {}

 private:
  static std::vector<std::string> command(const std::string& events, std::vector<std::string> extra,
                                          int port) {
    auto cmd = task_server_command({"--http", std::to_string(port)}, events);
    cmd.insert(cmd.end(), extra.begin(), extra.end());
    return cmd;
  }
};

}  // namespace tooluse::testing
