#pragma once
/// \file check.hpp
/// What of the sandbox works on this machine (`tooluse sandbox check`): bubblewrap, user
/// namespaces, seccomp, Landlock (its ABI, probed from the kernel at run time), a pids cgroup,
/// and what each missing part costs.

#include <string>
#include <vector>

namespace tooluse::sandbox {

/// check_item is one part of the sandbox and whether it works here.
struct check_item {
  std::string name;    ///< e.g. "bubblewrap", "user namespaces", "landlock"
  bool ok = false;
  bool required = false;  ///< without it nothing runs sandboxed
  std::string detail;  ///< what was found, e.g. "bubblewrap 0.8.0" or the error
  std::string cost;    ///< when missing: what is lost, and how to get it
};

/// check_report is every item; usable when every required item is ok.
struct check_report {
  std::vector<check_item> items;
  bool usable = false;
};

/// check probes the machine (runs `bwrap` once with the full sandbox). Takes about 10 ms.
/// Thread-safe.
check_report check(const std::string& bwrap_path = "/usr/bin/bwrap");

/// landlock_abi asks the kernel for its Landlock ABI version: 0 when the kernel has no Landlock
/// or it is disabled, otherwise 1, 2, ... (the packaged header may be older than the kernel).
int landlock_abi() noexcept;

}  // namespace tooluse::sandbox
