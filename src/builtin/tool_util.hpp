#pragma once
// Small helpers the built-in tools share: definitions, results, file descriptors, sizes.
// Arguments are described structs (tooluse::add_tool), not read from JSON by hand.

#include <cstdint>
#include <string>
#include <string_view>

#include "tooluse/error.hpp"
#include "tooluse/json.hpp"
#include "tooluse/tools/tool.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse::builtin::detail {

/// The MCP hints of the built-in tools, all four said, by what a call does. A tool that reads
/// changes nothing; one that writes may overwrite or delete (destructive). Idempotent: the same
/// call again has no further effect; open world: it reaches the network.
namespace hints {
constexpr tool_annotations make(bool writes, bool idempotent, bool open_world) {
  return {.read_only = !writes,
          .destructive = writes,
          .idempotent = idempotent,
          .open_world = open_world};
}
inline constexpr tool_annotations reads = make(false, true, false);         ///< a file, a formula
inline constexpr tool_annotations reads_web = make(false, true, true);      ///< a page, a service
inline constexpr tool_annotations searches_web = make(false, false, true);  ///< results change
inline constexpr tool_annotations writes = make(true, true, false);    ///< overwrites or deletes
inline constexpr tool_annotations changes = make(true, false, false);  ///< edits or runs code
}  // namespace hints

/// tool_text is what a model reads of a built-in tool (its name, title and description), with
/// its MCP hints and the tag it is filed under: one row of the table in tool_util_texts.cpp.
struct tool_text {
  std::string_view name;
  std::string_view title;
  tool_annotations hints;
  std::string_view tag;
  std::string_view description;
};

/// text_of finds the built-in tool `name` in the table. Throws std::logic_error if there is none
/// (a registration naming a tool that the table lacks).
const tool_text& text_of(std::string_view name);

/// builtin_tool is a built-in tool's definition: `policy` (MCP hints, category, tags, limits,
/// approval) with what a model reads first, its name, title and description. Every built-in
/// tool is version 1.0.0.
tool builtin_tool(std::string name, std::string title, std::string description, tool policy);
/// builtin_tool is the definition of the tool that `text` describes (with its hints) under
/// `policy`.
tool builtin_tool(const tool_text& text, tool policy);

/// error_result makes an error result from an operational error's message.
tool_result error_result(const error& e);
/// text_and_data makes a successful result: `text` for the model, `data` as structured content.
tool_result text_and_data(std::string text, json data);

/// read_fd reads up to `limit` bytes from `fd` (which it does not close); sets `more` when the
/// file has further bytes.
std::string read_fd(int fd, std::size_t limit, bool& more);
/// write_fd writes all of `data`; returns false (errno set) on failure.
bool write_fd(int fd, std::string_view data);

/// human_size formats a byte count as "512 B", "1.5 KiB", "3.2 MiB".
std::string human_size(std::uintmax_t bytes);

}  // namespace tooluse::builtin::detail
