// Running a code tool's command in the sandbox and turning the outcome into a tool result.
#include "builtin/code_run.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "builtin/tool_util.hpp"

namespace tooluse::builtin::detail {

tool code_tool(std::string name, std::string title, std::string tag,
               std::chrono::milliseconds max_timeout, sandbox::policy policy,
               std::string description) {
  std::size_t memory_limit_mb = policy.memory_limit_mb;
  return builtin_tool(std::move(name), std::move(title), std::move(description),
                      {.annotations = hints::changes,
                       .category = "system",
                       .tags = {std::move(tag), "exec"},
                       .timeout = max_timeout + std::chrono::seconds(5),
                       .rate = {.calls = 30, .window = std::chrono::minutes(1)},
                       .max_parallel = 2,
                       .dangerous = true,
                       .sandboxed = true,
                       .memory_limit_mb = memory_limit_mb,
                       .sandbox_policy = std::move(policy),
                       .sandboxed_by_handler = true});
}

std::filesystem::path code_work_folder(const std::filesystem::path& dir, const std::string& tool) {
  std::error_code ec;
  auto work = std::filesystem::canonical(dir.empty() ? std::filesystem::path(".") : dir, ec);
  if (ec || !std::filesystem::is_directory(work))
    throw std::invalid_argument(tool + " work folder \"" + dir.string() +
                                "\" is not an existing folder");
  return work;
}

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
