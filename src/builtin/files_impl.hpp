#pragma once
// Shared state of the file tools (private to the builtin module).

#include <memory>

#include "builtin/path_guard.hpp"
#include "tooluse/builtin/files.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse::builtin::detail {

/// files_state is what every file tool handler shares; immutable, so handlers run concurrently.
struct files_state {
  path_guard guard;
  files_options options;
};

/// read_text_file opens `resolved` safely and reads it as text: refuses directories, hard-linked
/// files (unless allowed), files over max_file_bytes and binary files.
result<std::string> read_text_file(const files_state& s, const std::filesystem::path& resolved);

void register_read_tools(tool_registry& registry, std::shared_ptr<const files_state> state);
void register_write_tools(tool_registry& registry, std::shared_ptr<const files_state> state);

}  // namespace tooluse::builtin::detail
