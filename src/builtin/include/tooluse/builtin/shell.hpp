#pragma once
/// \file shell.hpp
/// The shell tool: runs a command in the sandbox (tooluse::sandbox: no network, a minimal
/// read-only view of the system, one writable work folder, memory, CPU, process and file size
/// limits, a seccomp filter), with a timeout and an output cap. Off unless enabled.

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>

#include "tooluse/sandbox/policy.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse::builtin {

/// shell_options configures the shell tool.
struct shell_options {
  std::filesystem::path work_dir;  ///< the only writable folder; empty: builtin_options::root
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};       ///< default per command
  std::chrono::milliseconds max_timeout{std::chrono::seconds(300)};  ///< cap on a model's ask
  std::size_t max_output_bytes = 64 * 1024;  ///< per stream; the rest is dropped and counted
  std::string bwrap_path = "/usr/bin/bwrap";
  bool allow_network = false;      ///< keep the host network inside the sandbox
  bool allow_unsandboxed = false;  ///< run without bubblewrap when it does not work (unsafe)
  /// policy: the limits inside the sandbox (512 MB of memory by default); allow_network sets
  /// its host_network.
  sandbox::policy policy;
};

/// sandbox_status says whether bubblewrap works here, and if not, why.
struct sandbox_status {
  bool available = false;
  std::string detail;  ///< e.g. "bwrap: setting up uid map: Permission denied"
};

/// probe_sandbox runs `/bin/true` in the sandbox once to see whether it can be created
/// (bubblewrap needs unprivileged user namespaces). Thread-safe; not cached.
sandbox_status probe_sandbox(const shell_options& options);

/// register_shell adds the `shell` tool (dangerous, needs approval). The sandbox is probed at
/// the first call; without it, calls are refused with the reason unless allow_unsandboxed.
/// Throws std::invalid_argument if work_dir is not a folder.
void register_shell(tool_registry& registry, const shell_options& options);

}  // namespace tooluse::builtin
