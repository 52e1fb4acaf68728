#pragma once
// What the code-running tools (shell, python) share: running in the sandbox and reporting how
// the run ended, in the same result shape.

#include <stop_token>
#include <string>
#include <vector>

#include "tooluse/sandbox/sandbox.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse::builtin::detail {

/// code_timeout is a model's timeout_seconds (or the default), capped.
std::chrono::milliseconds code_timeout(const std::optional<double>& asked,
                                       std::chrono::milliseconds fallback,
                                       std::chrono::milliseconds cap);

/// run_sandboxed runs `argv` in `work` under `policy` and makes the tool result: text with the
/// exit code and the limit that stopped it, structured content {exit_code, stdout, stderr,
/// timed_out, killed_by, limit, sandboxed, dropped_bytes}. A sandbox that cannot be built is an
/// error result that says what to install.
tool_result run_sandboxed(const sandbox::policy& policy, std::vector<std::string> argv,
                          const std::filesystem::path& work, const sandbox::run_options& options);

}  // namespace tooluse::builtin::detail
