#pragma once
// Landlock, applied: an allowlist of paths for the calling process and its children
// (design/sandbox.md, "Landlock"). Raw system calls and our own copies of the structures, so a
// kernel newer than the packaged <linux/landlock.h> is used at its own ABI.

#include <string>
#include <vector>

#include "tooluse/result.hpp"

namespace tooluse::sandbox::detail {

/// landlock_rule allows `path` (a folder and everything under it, or one file) to be read, or
/// read and written.
struct landlock_rule {
  std::string path;
  bool write = false;
};

/// apply_landlock restricts the calling thread (and what it starts) to `rules`, with every
/// file-system right the kernel's ABI knows handled. Returns the ABI applied; 0 when the kernel
/// has no Landlock (nothing applied). Paths that do not exist are skipped. Sets no_new_privs.
/// Errors: errc::io_error when the kernel refuses a rule or the restriction.
result<int> apply_landlock(const std::vector<landlock_rule>& rules);

}  // namespace tooluse::sandbox::detail
