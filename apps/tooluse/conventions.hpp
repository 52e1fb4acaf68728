#pragma once
// Conventions every tooluse command shares, as gh and kubectl users expect them: suggestions for
// mistyped commands and flags, durations with units, one way to pass tool arguments (a JSON
// object, key=value pairs typed by the tool's schema, or "-" for a JSON object on stdin).

#include <CLI/CLI.hpp>
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"

namespace tooluse::cli {

/// closest returns the candidate nearest to `word` by edit distance (or as a prefix), or ""
/// when none is close enough to be a plausible typo.
std::string closest(std::string_view word, const std::vector<std::string>& candidates);

/// check_spelling walks argv through the command tree before CLI11 parses it. An unknown
/// command or long flag prints "tooluse: unknown command "tool" for "tooluse"; did you mean
/// "tools"?" (and the help to run) and returns 2; otherwise returns -1.
int check_spelling(CLI::App& app, int argc, const char* const* argv);

/// parse_duration reads "500ms", "2s", "1.5m", "1h" (or "0": none). A bare number other than 0
/// is an error that asks for a unit.
result<std::chrono::milliseconds> parse_duration(std::string_view text);

/// add_duration_option adds NAME taking a DURATION; a bad value is a usage error (exit 2).
CLI::Option* add_duration_option(CLI::App& cmd, const std::string& name,
                                 std::chrono::milliseconds& out, const std::string& help);

/// format_duration prints a duration the way parse_duration reads it ("500ms", "2s", "1m").
std::string format_duration(std::chrono::milliseconds d);

/// parse_tool_arguments turns a command's tool-argument words into a JSON object:
///   no words -> {};  one word "-" -> a JSON object read from stdin;  one word starting with
///   '{' -> that JSON object;  otherwise key=value pairs, each value typed by `schema`'s type for
///   the key (string: the text as is; number/integer/boolean/object/array: parsed as JSON and
///   checked; unknown: JSON if it parses to a non-string, else the text).
result<json> parse_tool_arguments(const std::vector<std::string>& words, const json& schema);

/// parse_user_json parses JSON a user wrote (an argument, a file, stdin). Errors: the CLI's own
/// words, no parser text: "WHAT is not valid JSON: REASON (line L, column C)", then the line
/// with a caret under the place, e.g. for `{bad json`:
///   the argument is not valid JSON: a key must be a "quoted string" (line 1, column 2)
///     {bad json
///      ^
result<json> parse_user_json(std::string_view text, const std::string& what);

/// tool_arguments_help is the help text of that convention, for footers.
extern const char* const tool_arguments_help;

/// is_terminal tells whether stderr is a terminal (spinners, progress, colour) .
bool stderr_is_terminal();

}  // namespace tooluse::cli
