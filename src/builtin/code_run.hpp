#pragma once
// What the code-running tools (shell, python) share: their definition, running in the sandbox
// and reporting how the run ended, in the same result shape.

#include <stop_token>
#include <string>
#include <vector>

#include "tooluse/sandbox/sandbox.hpp"
#include "tooluse/tools/tool.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse::builtin::detail {

/// code_tool is the definition of the shell and python tools: filed under "system", `tag` and
/// "exec"; each call may change files and needs the user's approval; the handler runs it in the
/// sandbox under `policy`, for up to `max_timeout` (the call's own, plus 5 s to start and stop);
/// 30 calls a minute, 2 at a time.
tool code_tool(std::string name, std::string title, std::string tag,
               std::chrono::milliseconds max_timeout, sandbox::policy policy,
               std::string description);

/// code_work_folder is `dir` (empty: the current folder), canonical. Throws
/// std::invalid_argument naming the `tool` if it is not an existing folder.
std::filesystem::path code_work_folder(const std::filesystem::path& dir, const std::string& tool);

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
