#pragma once
/// \file python.hpp
/// The python tool: runs Python 3 code (Debian's python3) in the sandbox, the same one as the
/// shell tool, with its own timeout, memory limit and output cap. Off unless enabled; dangerous
/// (every call needs approval). It never runs unsandboxed.

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>

#include "tooluse/sandbox/policy.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse::builtin {

/// python_options configures the python tool.
struct python_options {
  std::filesystem::path work_dir;  ///< the only writable folder; empty: builtin_options::root
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};       ///< default per call
  std::chrono::milliseconds max_timeout{std::chrono::seconds(300)};  ///< cap on a model's ask
  std::size_t max_output_bytes = 64 * 1024;  ///< per stream; the rest is dropped and counted
  std::string interpreter = "/usr/bin/python3";
  std::string bwrap_path = "/usr/bin/bwrap";
  sandbox::policy policy;  ///< 512 MB of memory, 60 s of CPU, no network by default
};

/// register_python adds the `python` tool (dangerous, needs approval). Calls are refused with
/// the reason when the sandbox does not work here.
/// Throws std::invalid_argument if work_dir is not a folder.
void register_python(tool_registry& registry, const python_options& options);

}  // namespace tooluse::builtin
