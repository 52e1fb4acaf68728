#pragma once
// The bubblewrap command line for a policy: the filesystem view, namespaces, environment,
// seccomp descriptor, and the launcher (Landlock, the egress bridge, the rlimits: launcher.hpp).

#include <string>
#include <vector>

#include "tooluse/sandbox/sandbox.hpp"

namespace tooluse::sandbox::detail {

/// seccomp_child_fd and status_child_fd are the descriptors bwrap reads its filter from and
/// writes its JSON status to, in the child.
inline constexpr int seccomp_child_fd = 3;
inline constexpr int status_child_fd = 4;

/// inside_uid is the unprivileged uid (and gid) a sandboxed process has in its namespace.
inline constexpr int inside_uid = 1000;

/// build_argv returns bwrap's argv; with_status adds --json-status-fd. `work` is canonical.
/// egress_dir: the host folder of the egress proxy's socket, for a policy with allowed_hosts
/// (bound read-only at egress_dir_inside); empty refuses such a policy.
/// Errors: as sandbox::prepare (bwrap missing, network allowlist, bad paths).
result<std::vector<std::string>> build_argv(const policy& p, const std::vector<std::string>& argv,
                                            const std::string& work, bool die_with_parent,
                                            bool with_status, const std::string& bwrap_path,
                                            const std::string& egress_dir = {});

/// resolve_work makes work_dir absolute and canonical; errc::invalid_argument if not a folder.
result<std::string> resolve_work(const std::filesystem::path& work_dir);

/// etc_masks lists the paths under /etc hidden from the sandbox: what is not readable by every
/// user (shadow, sudoers, SSH host keys, private TLS keys), found once per process.
const std::vector<std::string>& etc_masks();

}  // namespace tooluse::sandbox::detail
