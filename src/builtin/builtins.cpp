#include "tooluse/builtin/builtins.hpp"

namespace tooluse::builtin {

void register_builtins(tool_registry& registry, const builtin_options& options) {
  register_file_tools(registry, {.root = options.root});
  register_project_structure(registry, {.root = options.root});
}

}  // namespace tooluse::builtin
