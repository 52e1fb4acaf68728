// Running a code tool's command in the sandbox and turning the outcome into a tool result.
#include "builtin/code_run.hpp"

#include <algorithm>
#include <cstdint>

#include "builtin/tool_util.hpp"

namespace tooluse::builtin::detail {

std::chrono::milliseconds code_timeout(const std::optional<double>& asked,
                                       std::chrono::milliseconds fallback,
                                       std::chrono::milliseconds cap) {
  double secs = asked.value_or(static_cast<double>(fallback.count()) / 1000);
  return std::min(cap, std::chrono::milliseconds(static_cast<std::int64_t>(std::max(0.1, secs) * 1000)));
}

tool_result run_sandboxed(const sandbox::policy& policy, std::vector<std::string> argv,
                          const std::filesystem::path& work, const sandbox::run_options& options) {
  auto r = sandbox::run(policy, {.argv = std::move(argv), .work_dir = work}, options);
  if (!r) return error_result(r.error());
  std::string text = r->describe();
  if (!r->out.empty()) text += "\n--- stdout ---\n" + r->out;
  if (!r->err.empty()) text += "\n--- stderr ---\n" + r->err;
  if (r->dropped) text += "\n[" + std::to_string(r->dropped) + " bytes of output dropped]";
  const bool stopped = r->killed_by != sandbox::limit::none;
  tool_result res = text_and_data(
      text, {{"exit_code", r->exit_code},
             {"stdout", r->out},
             {"stderr", r->err},
             {"timed_out", r->killed_by == sandbox::limit::timeout},
             {"killed_by", stopped ? json(std::string(sandbox::to_string(r->killed_by))) : json(nullptr)},
             {"limit", stopped ? json(r->limit_detail) : json(nullptr)},
             {"sandboxed", true},
             {"dropped_bytes", r->dropped}});
  res.is_error = !r->ok();
  return res;
}

}  // namespace tooluse::builtin::detail
