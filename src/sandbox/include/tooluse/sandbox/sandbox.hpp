#pragma once
/// \file sandbox.hpp
/// Running a command in a sandbox on Linux: bubblewrap namespaces (no network, a minimal
/// read-only view of the system, the work folder writable, a private size-capped /tmp, a fresh
/// /proc and /dev, an unprivileged uid without capabilities), a seccomp deny list, rlimits and,
/// where the host has one, a pids cgroup. `run` runs a command to its end and reports how it
/// ended; `prepare` gives the command line for a caller that keeps the process (a stdio MCP
/// server). Never falls back to running unsandboxed: a missing part is an error that says what
/// to install or enable.

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/result.hpp"
#include "tooluse/sandbox/policy.hpp"

namespace tooluse::sandbox {

/// command is what to run: argv[0] is looked up on the sandbox's PATH (/usr/local/bin, /usr/bin,
/// /bin), so "/bin/sh" and "python3" both work. work_dir must be an existing folder; it is the
/// only host folder the command may write (plus policy::write_paths) and its working folder.
/// A relative work_dir is resolved against the current folder.
struct command {
  std::vector<std::string> argv;
  std::filesystem::path work_dir;
};

/// run_options bound one run.
struct run_options {
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};  ///< wall clock; then killed
  std::size_t max_output_bytes = 64 * 1024;  ///< kept per stream; the rest is counted, dropped
  std::size_t output_kill_bytes = 16 << 20;  ///< total output after which the run is killed
  std::stop_token stop;                      ///< a stop request kills the run
  std::string bwrap_path = "/usr/bin/bwrap";
};

/// outcome is how a sandboxed run ended.
struct outcome {
  int exit_code = -1;          ///< the command's exit status; 128 + N when killed by signal N
  limit killed_by = limit::none;  ///< the limit that stopped it, when one did
  std::string out, err;        ///< stdout and stderr, each up to max_output_bytes
  std::size_t dropped = 0;     ///< bytes of output beyond max_output_bytes, dropped
  std::chrono::milliseconds elapsed{0};
  std::string limit_detail;    ///< e.g. "the memory limit (512 MB)"; empty when none

  /// ok: exited with status 0 and no limit stopped it.
  bool ok() const { return exit_code == 0 && killed_by == limit::none; }
  /// describe says how it ended, e.g. "exit code 0" or "exit code 137 (killed: the cpu time
  /// limit (5 s) was reached)".
  std::string describe() const;
};

/// run runs `cmd` under `policy` until it ends, a limit stops it, the timeout passes or `stop`
/// is requested, and kills every process it started before returning (no daemon outlives it).
/// Thread-safe: concurrent runs are independent.
/// Errors: errc::permission_denied when the sandbox cannot be built here (the message says what
/// to install or enable: bubblewrap, user namespaces), errc::invalid_argument for a missing
/// work folder or empty argv, errc::io_error when the process or the egress proxy (a network
/// allowlist: docs/sandbox.md) cannot be started.
result<outcome> run(const policy& policy, const command& cmd, const run_options& options = {});

/// prepared is a sandboxed command line for a caller that spawns and keeps the process itself:
/// exec `argv` with environment `env`, with `seccomp_fd` open as descriptor 3 and `init_fd` (the
/// launcher that applies Landlock and the rlimits inside) as descriptor 5 in the child, every
/// other descriptor beyond stdio closed. Owns seccomp_fd; init_fd is shared by the whole process
/// and stays open (never close it).
struct prepared {
  std::vector<std::string> argv;
  std::vector<std::string> env;
  int seccomp_fd = -1;
  int init_fd = -1;
  /// resources must live as long as the process: its pids cgroup, when one could be made (argv
  /// then starts with the launcher, which joins it and exec's bubblewrap), and the egress proxy
  /// of a network allowlist.
  std::shared_ptr<void> resources;
  prepared() = default;
  prepared(prepared&& other) noexcept;
  prepared& operator=(prepared&& other) noexcept;
  prepared(const prepared&) = delete;
  prepared& operator=(const prepared&) = delete;
  ~prepared();
};

/// prepare_options: die_with_parent kills the sandbox when the thread that started it ends
/// (PR_SET_PDEATHSIG is per thread: leave it off for a process that outlives its thread).
struct prepare_options {
  bool die_with_parent = true;
  std::string bwrap_path = "/usr/bin/bwrap";
};

/// prepare builds the command line without running it. With a network allowlist it starts the
/// egress proxy, owned by `resources`: keep them until the process is reaped. Errors as `run`.
result<prepared> prepare(const policy& policy, const command& cmd,
                         const prepare_options& options = {});

/// exit_limit names the limit a sandboxed process ran into from its exit status (128 + SIGXCPU:
/// cpu_time, 128 + SIGXFSZ: file_size) and, for another non-zero status, from what it wrote to
/// stderr about a refused call (MemoryError / ENOMEM: memory, a refused fork: processes,
/// EMFILE: open_files, EFBIG: file_size, ENOSPC: tmp_size); limit::none otherwise. `run` uses
/// it; callers of `prepare` use it on the exit status they reap.
limit exit_limit(int exit_code, std::string_view err = {}) noexcept;

/// limit_description says which limit, with its value under `policy`: "the cpu time limit
/// (5 s)".
std::string limit_description(limit l, const policy& policy);

}  // namespace tooluse::sandbox
