#pragma once
// The seccomp deny list, compiled to a classic BPF program for bubblewrap's --seccomp FD.

#include "tooluse/result.hpp"

namespace tooluse::sandbox::detail {

/// compiled_filter returns a sealed memfd holding the BPF program (positioned at 0); the caller
/// owns it. Built with libseccomp on each call (about 0.1 ms).
result<int> compiled_filter();

/// denied_syscalls lists the names the filter refuses outright, for docs and tests.
const char* const* denied_syscalls();

}  // namespace tooluse::sandbox::detail
