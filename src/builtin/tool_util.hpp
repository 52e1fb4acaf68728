#pragma once
// Small helpers the built-in tools share: argument access with clear errors, results.

#include <cstdint>
#include <string>
#include <string_view>

#include "tooluse/error.hpp"
#include "tooluse/json.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse::builtin::detail {

/// arg_string returns arguments[key] as a string, `fallback` when absent or null.
/// Throws std::invalid_argument (the registry turns it into an error result) on a wrong type.
std::string arg_string(const json& args, std::string_view key, std::string fallback = {});
/// arg_int returns arguments[key] as an integer (accepting 3.0), `fallback` when absent.
std::int64_t arg_int(const json& args, std::string_view key, std::int64_t fallback);
/// arg_double returns arguments[key] as a number, `fallback` when absent.
double arg_double(const json& args, std::string_view key, double fallback);
/// arg_bool returns arguments[key] as a boolean, `fallback` when absent.
bool arg_bool(const json& args, std::string_view key, bool fallback);
/// has_arg tells whether arguments[key] is present and not null.
bool has_arg(const json& args, std::string_view key);

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
