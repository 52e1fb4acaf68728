#pragma once
// A pids cgroup per run, where the host lets us make one: RLIMIT_NPROC does not bind a process
// whose user is root outside its user namespace (the kernel exempts uid 0), which is the case
// when tooluse itself runs as root, so a fork bomb there needs pids.max.

#include <cstddef>
#include <string>

namespace tooluse::sandbox::detail {

/// pids_cgroup is one child cgroup of a pids controller (cgroup v2 with pids enabled, or the
/// v1 pids hierarchy) with pids.max set; removed on destruction (after its processes are gone).
class pids_cgroup {
 public:
  /// create makes the cgroup; empty() when the host has no writable pids controller.
  static pids_cgroup create(std::size_t max_pids);
  pids_cgroup() = default;
  pids_cgroup(pids_cgroup&& o) noexcept : dir_(std::move(o.dir_)) { o.dir_.clear(); }
  pids_cgroup& operator=(pids_cgroup&& o) noexcept;
  ~pids_cgroup();
  bool empty() const { return dir_.empty(); }
  /// procs_path is the file a child writes "0" to, to move itself in before it execs.
  std::string procs_path() const { return dir_ + "/cgroup.procs"; }
  /// refused_forks is how many forks pids.max refused (pids.events "max").
  long refused_forks() const;

 private:
  std::string dir_;
};

/// pids_controller_root returns the folder under which this process may make pids cgroups, or
/// "" (for `sandbox check`).
std::string pids_controller_root();

}  // namespace tooluse::sandbox::detail
