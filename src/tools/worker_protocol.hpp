#pragma once
// Between the host, the zygote and a worker (design/sandbox.md, "Workers"):
//   host -> zygote, on the control socket (SOCK_SEQPACKET): the tool's name, with descriptors
//     [data, err, status] attached (SCM_RIGHTS).
//   zygote -> host, on the control socket, for each warm worker it forks (forked, then confined
//     ahead of its call): "spare:NAME" with [data, pidfd, status, err], the host's ends of the
//     worker's data socket and stderr pipe. The host writes a call's request into data, which
//     the worker waits on, so a warm call is one wake-up each way and no descriptor is made or
//     passed on the call's path. The zygote reaps it and sends its status.
//   zygote -> worker: data (a stream socket: the request in, the result out, each as an 8-byte
//     length and JSON text) and err (its stderr).
//   zygote -> host, on status: the worker's pidfd (SCM_RIGHTS), then its wait status (an int)
//     once it is reaped.
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "tooluse/tools/registry.hpp"

namespace tooluse::detail {

/// Exit statuses of a worker that are ours, not the handler's.
inline constexpr int worker_exit_memory = 251;   ///< operator new failed (the memory limit)
inline constexpr int worker_exit_confine = 250;  ///< the sandbox could not be built (stderr)
inline constexpr int worker_exit_protocol = 249;  ///< the request could not be read

/// zygote_main serves the control socket until the host closes it; never returns. warm keeps
/// one confined worker per tool ready (worker_options::warm).
[[noreturn]] void zygote_main(int control,
                              std::vector<std::shared_ptr<const registered_tool>> tools, bool warm);

/// send_fds sends `text` with descriptors attached; false on failure.
bool send_fds(int socket, const std::string& text, const int* fds, int count);

/// recv_fds receives one message of at most `max` bytes and up to `count` descriptors (-1
/// where none came); `flags` are recvmsg's (MSG_DONTWAIT). Returns the bytes read, 0 at end,
/// -1 on error.
ssize_t recv_fds(int socket, std::string& text, std::size_t max, int* fds, int count,
                 int flags = 0);

}  // namespace tooluse::detail
