#pragma once
// The CLI's one error path. Every failure a user sees is printed by report_error: one line
// "tooluse: MESSAGE" on stderr, then (when there is one) a line saying what to do next, and the
// command ends with the exit status docs/cli.md documents. CLI11's own parse errors ("A
// subcommand is required", "The following argument was not expected", "Could not convert")
// are translated by report_parse_error, so no parser text reaches the user.

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <string_view>

#include "tooluse/error.hpp"

namespace tooluse::cli {

/// exit_status names the exit codes of docs/cli.md's table.
namespace exit_status {
inline constexpr int ok = 0;
inline constexpr int failed = 1;         ///< the tool or run returned an error
inline constexpr int usage = 2;          ///< bad usage or input; the message says what to fix
inline constexpr int waiting = 3;        ///< a durable run waits for an approval
inline constexpr int interrupted = 130;  ///< Ctrl-C (SIGINT) or SIGTERM
}  // namespace exit_status

/// report_error prints "tooluse: MESSAGE" and, when `next` is not empty, `next` on the
/// following line, to stderr; returns `status`.
int report_error(int status, std::string_view message, std::string_view next = {});

/// usage_error is report_error(exit_status::usage, message).
int usage_error(const std::string& message);

/// status_for maps an operational error to an exit status: input the user named that is
/// wrong or absent (errc::invalid_argument, parse_error, validation_failed, schema_error,
/// not_found) is bad usage (2); the rest is a failure (1).
int status_for(const error& e);

/// report reports `e` with the status status_for gives it.
int report(const error& e);

/// command_path is the command's full name, e.g. "tooluse tools call".
std::string command_path(const CLI::App& app);

/// print_subcommands writes a group's usage line and its subcommands with their one-line
/// descriptions, then how to get a subcommand's options.
void print_subcommands(const CLI::App& group, std::ostream& out);

/// report_parse_error translates a CLI11 parse error (thrown by app.parse) into the CLI's own
/// words, naming the command it happened in and what to do; returns 2. A group given without
/// its subcommand prints the group's subcommands.
int report_parse_error(CLI::App& app, const CLI::ParseError& e);

}  // namespace tooluse::cli
