#include "tooluse/builtin/builtins.hpp"

#include "tooluse/builtin/calculator.hpp"
#include "tooluse/builtin/datetime.hpp"

namespace tooluse::builtin {

void register_builtins(tool_registry& registry, const builtin_options& options) {
  register_calculator(registry);
  register_file_tools(registry, {.root = options.root});
  register_project_structure(registry, {.root = options.root});
  register_datetime(registry);
}

}  // namespace tooluse::builtin
