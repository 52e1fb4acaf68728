// python: Python 3 code in the sandbox, with a timeout, a memory limit and an output cap.
#include "tooluse/builtin/python.hpp"

#include <mutex>
#include <optional>

#include "builtin/code_run.hpp"
#include "builtin/tool_util.hpp"
#include "tooluse/sandbox/sandbox.hpp"
#include "tooluse/tools/typed.hpp"

namespace tooluse::builtin {
namespace fs = std::filesystem;
namespace {
using namespace detail;

struct python_args {
  std::string code;
  std::optional<double> timeout_seconds;
};
TOOLUSE_DESCRIBE(python_args,
                 (code, "Python 3 source to run, e.g. \"import math\\nprint(math.pi)\"; print what "
                        "you want to see",
                  tooluse::min_length(1)),
                 (timeout_seconds, "Kill the program after this many seconds. Default 30",
                  tooluse::exclusive_minimum(0), tooluse::maximum(300)))

struct python_state {
  python_options options;
  fs::path work;
};

tool_result run_python(const python_state& s, const python_args& a, call_context& ctx) {
  if (a.code.empty()) return tool_result::error("give some code, e.g. \"print(1 + 1)\"");
  // -I: isolated mode (no PYTHON* variables, no user site-packages, no script folder on sys.path).
  return run_sandboxed(s.options.policy, {s.options.interpreter, "-I", "-c", a.code}, s.work,
                       {.timeout = code_timeout(a.timeout_seconds, s.options.timeout,
                                                s.options.max_timeout),
                        .max_output_bytes = s.options.max_output_bytes,
                        .stop = ctx.stop,
                        .bwrap_path = s.options.bwrap_path});
}

}  // namespace

void register_python(tool_registry& registry, const python_options& options) {
  auto state = std::make_shared<python_state>();
  state->options = options;
  state->work = code_work_folder(options.work_dir, "python");
  const std::string mb = std::to_string(options.policy.memory_limit_mb);
  add_tool(
      registry,
      code_tool(
          "python", "Run Python code (sandboxed)", "python", options.max_timeout, options.policy,
          "Run Python 3 code in the project folder and return its exit code, stdout and stderr. "
          "Use it for calculations, data processing and checking ideas; print the results you "
          "need. Only the standard library is certain to be there.\n"
          "It runs in a sandbox: no network, the system is read-only, only the project folder is "
          "writable, /tmp is private, memory is limited to " + mb +
          " MB; it is killed after timeout_seconds (default 30, max 300). Every call needs the "
          "user's approval. There is no input.\n"
          "Example: {\"code\": \"import statistics\\nprint(statistics.mean([1, 2, 4]))\"}"),
      [state](const python_args& a, call_context& ctx) { return run_python(*state, a, ctx); });
}

}  // namespace tooluse::builtin
