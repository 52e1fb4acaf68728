#pragma once
/// \file policy.hpp
/// tooluse::sandbox::policy, what a sandboxed process may use: memory, CPU time, processes, file
/// sizes, open files, the size of its private /tmp, the network, and which host paths it sees.
/// One type for every sandboxed thing (the shell and python tools, stdio MCP servers); see
/// docs/sandbox.md for the threat model and design/sandbox.md for how each field is enforced.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"

namespace tooluse::sandbox {

/// limit names the bound that stopped a sandboxed process, reported in its outcome and in error
/// messages ("killed: the memory limit (512 MB) was reached").
enum class limit {
  none,         ///< the process ended by itself
  memory,       ///< policy::memory_limit_mb (address space and data segment)
  cpu_time,     ///< policy::cpu_seconds
  processes,    ///< policy::max_processes
  file_size,    ///< policy::max_file_size_mb
  open_files,   ///< policy::max_open_files
  tmp_size,     ///< policy::tmp_size_mb, the private /tmp is full
  disk_space,   ///< the work folder's file system fell below policy::min_free_disk_mb
  timeout,      ///< the wall-clock timeout of the run
  output_size,  ///< the process wrote more than the run's output kill bound
  cancelled,    ///< the caller's stop token
};

/// to_string returns the limit's snake_case name, e.g. "cpu_time".
std::string_view to_string(limit l) noexcept;

/// policy is what a sandboxed process may use. Every limit is on by default; the defaults are
/// those of a code-running tool (512 MB, as the reference tool design says). A value of 0 means
/// "no limit" for the numeric fields, which `sandbox::run` accepts but `tooluse sandbox check`
/// warns about.
///
/// Example: `sandbox::policy{.memory_limit_mb = 256, .cpu_seconds = 5,
///                           .write_paths = {"/srv/out"}}`
struct policy {
  std::size_t memory_limit_mb = 512;   ///< RLIMIT_AS and RLIMIT_DATA
  std::size_t cpu_seconds = 60;        ///< RLIMIT_CPU (SIGXCPU, then SIGKILL one second later)
  std::size_t max_processes = 64;      ///< RLIMIT_NPROC, and pids.max where a pids cgroup exists
  std::size_t max_file_size_mb = 256;  ///< RLIMIT_FSIZE (a write past it gets SIGXFSZ)
  std::size_t max_open_files = 256;    ///< RLIMIT_NOFILE
  std::size_t tmp_size_mb = 64;        ///< size of the private tmpfs on /tmp (and /dev/shm)
  std::size_t min_free_disk_mb = 512;  ///< kill the run when the work folder's disk gets this low
  /// allowed_hosts: empty means no network at all (the default: a fresh network namespace with
  /// only a loopback). Else these host names ("*.example.com": its subdomains) are reached only
  /// through the host's egress proxy (sandbox::run); prepare and confine refuse a list with
  /// errc::unsupported rather than widen it to the whole network.
  std::vector<std::string> allowed_hosts;
  /// host_network shares the host's network namespace (every address the host reaches). Unsafe;
  /// only for an explicit user option such as the shell tool's allow_network.
  bool host_network = false;
  std::vector<std::filesystem::path> read_paths;   ///< extra host paths, read-only
  std::vector<std::filesystem::path> write_paths;  ///< extra host paths, read-write
  /// env: variables set inside ("NAME=value"); nothing of the host's environment is passed
  /// unless listed here. PATH, HOME (the work folder) and LANG are always set.
  std::vector<std::string> env;
};

/// parse_policy reads a policy from JSON as an `mcpServers` entry's "sandbox" value gives it:
/// `true` (the defaults), or an object with any of memory_limit_mb, cpu_seconds,
/// max_processes, max_file_size_mb, max_open_files, tmp_size_mb, network (false or a list of
/// host names), read and write (lists of absolute paths). Fields not given keep `defaults`.
/// Errors: errc::invalid_argument naming the field (`sandbox.cpu_seconds: expected a
/// non-negative integer`), for `false` too (the caller decides what an absent sandbox means).
result<policy> parse_policy(const json& value, const policy& defaults = {});

/// to_json gives the policy in the form parse_policy reads (plus host_network and env names).
json to_json(const policy& p);

}  // namespace tooluse::sandbox
