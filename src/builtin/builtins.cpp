#include "tooluse/builtin/builtins.hpp"

namespace tooluse::builtin {

void register_builtins(tool_registry& registry, const builtin_options& options) {
  (void)registry;
  (void)options;
}

}  // namespace tooluse::builtin
