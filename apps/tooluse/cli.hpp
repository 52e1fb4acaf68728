#pragma once
// The CLI's plumbing: each cmd_*.cpp registers its subcommands with a command_registrar, so
// adding a command touches no other file. Errors go through errors.hpp (report_error), which
// prints them and gives the exit status docs/cli.md documents.

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "errors.hpp"

namespace tooluse::cli {

/// app_state is what subcommands share: the action chosen by parsing.
struct app_state {
  std::function<int()> action;  ///< set by the chosen subcommand's callback
};

using command_setup = void (*)(CLI::App& app, app_state& state);

/// command_registrar registers a top-level command's setup function at static-init time.
/// `order` sorts commands in --help.
struct command_registrar {
  command_registrar(int order, command_setup setup);
};

/// value_source names where shell completion finds values that change with the user's setup.
enum class value_source {
  tool_names,     ///< the registry the line's --root, --shell, --network, --mcp ... flags give
  run_ids,        ///< the runs of the line's --store (or TOOLUSE_STORE), never created
  waiting_calls,  ///< the calls the run named by the first positional waits on
};

/// complete_with says what shell completion offers for the value of `opt` (an option or a
/// positional): fixed `values`, or those of `source`; both may be given. The values of a
/// CLI::IsMember check are offered without it.
void complete_with(CLI::Option* opt, std::vector<std::string> values);
void complete_with(CLI::Option* opt, value_source source);

/// text_format_names are the --tool-format / --format names of prompt-based tool calling.
std::vector<std::string> text_format_names();

/// complete_line prints, one a line, the words that complete the last of `words` (the command
/// line after "tooluse"; the last word may be empty): `tooluse __complete WORD...`, which the
/// completion scripts call. Never creates a store.
int complete_line(const CLI::App& root, std::vector<std::string> words);

/// read_text_file reads a file or, for "-", stdin; on failure prints a usage error.
bool read_text_file(const std::string& path, std::string& out);

}  // namespace tooluse::cli

#include <memory>
#include <optional>

#include <map>
#include <optional>

#include "tooluse/builtin/builtins.hpp"
#include "tooluse/mcp/client_config.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse::cli {

/// registry_flags are the options every tool-using command takes.
struct registry_flags {
  std::string root = ".";
  bool network = false;
  bool shell = false;
  bool python = false;
  std::string tools;  ///< comma-separated names to keep; empty keeps all
  std::string mcp;    ///< path of an `mcpServers` JSON config whose servers' tools are mounted
  std::string confirm;  ///< comma-separated names treated as dangerous (approval before each call)
  std::string sandbox;  ///< --sandbox NAME[=MB],...: tools to run sandboxed (cli_sandbox.cpp)
};

/// add_registry_flags adds --root, --network, --shell, --python, --tools, --mcp and --confirm
/// to `cmd`.
void add_registry_flags(CLI::App& cmd, registry_flags& flags);

/// make_registry builds the registry of built-in tools the flags allow, plus the tools of the
/// MCP servers in --mcp (named SERVER__TOOL; the servers stop when the registry is destroyed).
/// Errors: a name in --tools that is not a tool (message lists the available ones); a bad
/// --mcp file or a server that cannot start.
result<std::unique_ptr<tool_registry>> make_registry(const registry_flags& flags);

/// add_yes_flag adds the one pre-approval flag every command that runs tools takes, spelled
/// the same everywhere: --yes (-y). Without it a dangerous tool (built-in dangerous, named by
/// --confirm, or an MCP tool with destructiveHint true and not readOnlyHint) is asked about on
/// the terminal before each call, and refused when there is no terminal.
CLI::Option* add_yes_flag(CLI::App& cmd, bool& yes);

/// needs_approval is the usage error (exit 2) of `command` asked to call the dangerous `tool`
/// with no terminal to ask on and no --yes.
int needs_approval(const std::string& command, const std::string& tool);

/// destructive_by_hints is the MCP part of the approval rule: a server's tool that declares
/// destructiveHint true and not readOnlyHint true asks before each call.
bool destructive_by_hints(std::optional<bool> destructive, std::optional<bool> read_only);

/// sandbox_requests: --sandbox's tool names, each with its memory limit in MB when given.
using sandbox_requests = std::map<std::string, std::optional<std::size_t>>;

/// parse_sandbox_flag reads "NAME[=MB],...". Errors: errc::invalid_argument naming the item.
result<sandbox_requests> parse_sandbox_flag(const std::string& text);

/// apply_sandbox_to_builtins sets the memory limit of shell and python before they register.
void apply_sandbox_to_builtins(const sandbox_requests& asked, builtin::builtin_options& options);

/// sandbox_builtins marks the asked built-in tools sandboxed (write access to --root, the
/// network with --network for tools that reach it) and starts their workers; returns how many
/// were bound. Must run before anything starts a thread. Errors: an unknown name, threads.
result<std::size_t> sandbox_builtins(tool_registry& reg, const sandbox_requests& asked,
                                     const registry_flags& flags);

/// sandbox_servers gives the servers of asked SERVER__TOOL names a sandbox (the default policy
/// with the asked memory limit). Errors: an unknown server, an HTTP server.
status sandbox_servers(mcp::client_config& config, const sandbox_requests& asked);

/// gated_tool_hint returns, for a built-in tool the flags leave off (web_search without
/// --network, shell without --shell), the message saying which flag enables it; else "".
std::string gated_tool_hint(const std::string& name, const registry_flags& flags);

}  // namespace tooluse::cli
