#include "tooluse/builtin/builtins.hpp"

#include "tooluse/builtin/calculator.hpp"
#include "tooluse/builtin/datetime.hpp"

namespace tooluse::builtin {

void register_builtins(tool_registry& registry, const builtin_options& options) {
  register_calculator(registry);
  register_file_tools(registry, {.root = options.root});
  register_project_structure(registry, {.root = options.root});
  register_datetime(registry);
  register_document_search(registry, {.index_path = options.index_path, .root = options.root});
  if (options.network) register_web_tools(registry, options.web);
  if (options.shell) {
    shell_options shell = options.shell_config;
    if (shell.work_dir.empty()) shell.work_dir = options.root;
    register_shell(registry, shell);
  }
  if (options.python) {
    python_options python = options.python_config;
    if (python.work_dir.empty()) python.work_dir = options.root;
    register_python(registry, python);
  }
}

}  // namespace tooluse::builtin
