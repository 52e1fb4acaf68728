#pragma once
// The seccomp deny list, compiled to a classic BPF program for bubblewrap's --seccomp FD.

#include "tooluse/result.hpp"

namespace tooluse::sandbox::detail {

/// compiled_filter returns a sealed memfd holding the BPF program (positioned at 0); the caller
/// owns it. Built with libseccomp on each call (about 0.1 ms).
result<int> compiled_filter();

/// load_filter applies the same deny list to the calling thread (and what it starts), with
/// no_new_privs. Errors: errc::io_error when libseccomp or the kernel refuses.
/// prepare_filter compiles the filter once for this process (and its forks); load_filter
/// installs it (no_new_privs first), compiling it first if prepare_filter was not called.
status prepare_filter();
status load_filter();

/// denied_syscalls lists the names the filter refuses outright, for docs and tests.
const char* const* denied_syscalls();

}  // namespace tooluse::sandbox::detail
