#pragma once
/// \file workers.hpp
/// Process-isolated C++ tools: the handler of a tool marked `sandboxed` runs in a worker process
/// under the tool's sandbox policy, so a crash (SIGSEGV, abort), an out-of-memory or a CPU-limit
/// kill of that call becomes an error result naming the limit, and the host carries on. The
/// workers are forked from a zygote, a copy of the host made when start_tool_workers is called,
/// before the host starts threads (design/sandbox.md, "Workers"; docs/sandbox.md).

#include <cstddef>

#include "tooluse/result.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse {

/// worker_options bound the traffic of one isolated call.
struct worker_options {
  std::size_t max_result_bytes = 8 << 20;  ///< a bigger result kills the worker (output_size)
  std::size_t max_stderr_bytes = 16 << 10;  ///< the worker's stderr kept for the error message
  /// warm: keep one worker per tool forked and sandboxed ahead of its call (still one process
  /// per call, never reused), so a call does not wait for the sandbox to be built. Costs one
  /// idle process per bound tool.
  bool warm = true;
};

/// start_tool_workers forks the zygote and binds every tool of `registry` that is sandboxed and
/// not sandboxed_by_handler: its handler becomes one that sends the call to a fresh worker
/// (forked by the zygote, confined with sandbox::confine under effective_sandbox_policy) and
/// returns the worker's result, or an error result that says how the worker ended ("tool
/// \"parse\" crashed (SIGSEGV, segmentation fault) in its worker process; the host is
/// unaffected"). Bound tools become sandboxed_by_handler. Tools added later are not bound (they
/// are refused when called, as before); the zygote holds the handlers as they were at the call,
/// so a worker sees a copy of the tool's state, and nothing it changes comes back. A worker has
/// the call's id, session and idempotency key; progress reports and the stop token stay in the
/// host (a stop kills the worker). The zygote ends when the last bound handler is gone.
///
/// Call it early in main, after registering the tools and before starting any thread: forking
/// a process with threads copies locks they may hold. Returns how many tools were bound.
/// Errors: errc::unsupported when the process already runs other threads (the message says how
/// many and where to call it), errc::io_error when the zygote cannot be started.
result<std::size_t> start_tool_workers(tool_registry& registry, const worker_options& options = {});

}  // namespace tooluse
