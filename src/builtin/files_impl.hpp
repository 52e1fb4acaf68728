#pragma once
// Shared state and definition of the file tools (private to the builtin module).

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "builtin/path_guard.hpp"
#include "tooluse/builtin/files.hpp"
#include "tooluse/tools/registry.hpp"
#include "tooluse/tools/typed.hpp"

namespace tooluse::builtin::detail {

/// files_state is what every file tool handler shares; immutable, so handlers run concurrently.
struct files_state {
  path_guard guard;
  files_options options;
};

/// read_text_file opens `resolved` safely and reads it as text: refuses directories, hard-linked
/// files (unless allowed), files over max_file_bytes and binary files.
result<std::string> read_text_file(const files_state& s, const std::filesystem::path& resolved);

/// file_tool is the definition of the tool `name` over the project's files (the file tools and
/// project_structure; its text from the table in tool_util_texts.cpp): filed under "files" and
/// its tag, with `timeout`; one that may overwrite or delete (hints::writes, hints::changes)
/// needs the user's approval before each call. Throws std::logic_error for a name not in the
/// table.
tool file_tool(std::string_view name, std::chrono::seconds timeout);

/// add_file_tool registers the file tool `name` with `handler`, which every call runs on the
/// shared state.
template <class Args>
void add_file_tool(tool_registry& registry, std::string_view name, std::chrono::seconds timeout,
                   std::shared_ptr<const files_state> state,
                   tool_result (*handler)(const files_state&, const Args&)) {
  add_tool(registry, file_tool(name, timeout),
           [state = std::move(state), handler](const Args& a) { return handler(*state, a); });
}

void register_read_tools(tool_registry& registry, std::shared_ptr<const files_state> state);
void register_write_tools(tool_registry& registry, std::shared_ptr<const files_state> state);

}  // namespace tooluse::builtin::detail
