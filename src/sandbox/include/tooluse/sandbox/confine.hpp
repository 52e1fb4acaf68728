#pragma once
/// \file confine.hpp
/// Sandboxing the calling process itself, for code that is already running and cannot be
/// exec'd through bubblewrap: the worker processes that run sandboxed C++ tool handlers
/// (tooluse::start_tool_workers). Same policy, same deny list, same view as `sandbox::run`,
/// built with the kernel's calls directly (design/sandbox.md, "Workers").

#include "tooluse/result.hpp"
#include "tooluse/sandbox/policy.hpp"

namespace tooluse::sandbox {

/// confinement says what confine applied beyond the namespaces, rlimits and seccomp.
struct confinement {
  int landlock_abi = 0;     ///< the Landlock ABI applied; 0 when the kernel has none
  bool fresh_proc = false;  ///< /proc shows only the sandbox's processes (else it is empty)
};

/// prepare_confine does once what confine needs and should not redo per call (finding the
/// secrets under /etc). Call it in the process that will fork the workers, before forking.
void prepare_confine();

/// confine turns the calling process into a sandboxed one under `policy`: new user (uid 1000
/// inside), pid, mount, network (unless host_network), IPC and UTS namespaces; the system
/// read-only, /home /root /run /var /srv /mnt /media /opt /boot /sys hidden (the policy's paths are bound
/// back at their own paths), /etc's secrets masked, a minimal /dev, a fresh /proc, a private /tmp and
/// /dev/shm of tmp_size_mb; write_paths writable; Landlock (an allowlist of the same paths)
/// where the kernel has it; no capabilities, no_new_privs, the seccomp deny list; rlimits, the
/// memory limit counted on top of what the process maps now (it is a copy of its parent); an
/// environment of PATH, HOME=/tmp, LANG and policy.env only; working folder the first write
/// path, else /tmp.
///
/// The calling process must be single-threaded and its own (a worker forked for one call): it
/// forks twice (a pid namespace starts with a child, whose pid 1 stays as its init) and returns
/// only in the last child; the earlier two wait and exit with its status, a signal S as exit
/// status 128 + S. Irreversible.
/// Errors: errc::permission_denied when namespaces cannot be made (`tooluse sandbox check` says
/// why), errc::unsupported for a network allowlist, errc::io_error for a refused mount,
/// Landlock rule or filter (the message names it).
result<confinement> confine(const policy& policy);

}  // namespace tooluse::sandbox
