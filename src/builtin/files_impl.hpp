#pragma once
// Shared state and definition of the file tools (private to the builtin module).

#include <chrono>
#include <memory>
#include <string>

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

/// file_tool is the definition of a tool over the project's files (the file tools and
/// project_structure): filed under "files" and `tag`, with `hints`; one that may overwrite or
/// delete (hints::writes, hints::changes) needs the user's approval before each call.
tool file_tool(std::string name, std::string title, const tool_annotations& hints, std::string tag,
               std::chrono::seconds timeout, std::string description);

void register_read_tools(tool_registry& registry, std::shared_ptr<const files_state> state);
void register_write_tools(tool_registry& registry, std::shared_ptr<const files_state> state);

}  // namespace tooluse::builtin::detail
