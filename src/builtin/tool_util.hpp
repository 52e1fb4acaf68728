#pragma once
// Small helpers the built-in tools share: results, file descriptors, sizes. Arguments are
// described structs (tooluse::add_tool), not read from JSON by hand.

#include <cstdint>
#include <string>
#include <string_view>

#include "tooluse/error.hpp"
#include "tooluse/json.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse::builtin::detail {

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
