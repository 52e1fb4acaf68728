#pragma once
// The launcher (init/main.cpp): bubblewrap runs it inside the sandbox, it applies Landlock, starts
// the egress bridge, sets the rlimits and exec's the command (design/sandbox.md, "The launcher").
// The program is embedded in the library; the host keeps it in one sealed, read-only memfd.

#include "tooluse/result.hpp"

namespace tooluse::sandbox::detail {

/// init_child_fd is the descriptor the launcher has in bubblewrap's process; it is run as
/// /proc/self/fd/5 and closes it before exec'ing the command.
inline constexpr int init_child_fd = 5;
inline constexpr const char* init_path_inside = "/proc/self/fd/5";

/// egress_port_inside: the TCP port of the egress bridge on the sandbox's own loopback.
inline constexpr int egress_port_inside = 3128;

/// init_fd is a read-only descriptor of the launcher program, made once per process (close-on-
/// exec; dup it to init_child_fd in the child). Thread-safe.
/// Errors: errc::io_error when the memfd cannot be made (the message says why).
result<int> init_fd();

}  // namespace tooluse::sandbox::detail
