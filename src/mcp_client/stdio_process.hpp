#pragma once
// Child-process plumbing for stdio_client_transport: spawning with pipes, timed waits on the
// child (pidfd where the kernel has it), and writing to a pipe without dying of SIGPIPE.

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "tooluse/mcp/stdio_client_transport.hpp"

namespace tooluse::mcp::detail {

/// child_process is a spawned child and our ends of its three pipes (-1 once closed).
struct child_process {
  pid_t pid = 0;
  int pidfd = -1;
  int stdin_fd = -1;   ///< blocking, for writing
  int stdout_fd = -1;  ///< non-blocking, for reading
  int stderr_fd = -1;  ///< non-blocking, for reading
  std::shared_ptr<void> resources;  ///< a sandboxed child's cgroup and egress proxy: keep until reaped
};

/// spawn_child runs options.command in its own process group, with the environment additions
/// and working folder, stdin/stdout/stderr on pipes and no other descriptors inherited.
result<child_process> spawn_child(const stdio_server_options& options, std::string_view label);

/// reaper waits for and reaps one child exactly once; safe from several threads.
class reaper {
 public:
  /// watch takes the child; `resources` (its sandbox's pids cgroup) are released once reaped.
  void watch(pid_t pid, int pidfd, std::shared_ptr<void> resources = {});
  /// wait_for waits up to `timeout` (negative: forever) and returns the exit once reaped.
  std::optional<process_exit> wait_for(std::chrono::milliseconds timeout);
  /// signal_group sends `sig` to the child's process group if it has not been reaped.
  void signal_group(int sig);
  std::optional<process_exit> exit() const;
  ~reaper();

 private:
  std::optional<process_exit> try_reap_locked();
  mutable std::mutex mutex_;
  pid_t pid_ = 0;
  int pidfd_ = -1;
  std::shared_ptr<void> resources_;
  std::optional<process_exit> exit_;
};

/// write_all writes every byte to a pipe, turning a closed reader into EPIPE, not SIGPIPE.
/// Returns 0 or the errno.
int write_all(int fd, std::string_view data);

/// close_fd closes `fd` if it is open and sets it to -1.
void close_fd(int& fd);

}  // namespace tooluse::mcp::detail
