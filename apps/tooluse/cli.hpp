#pragma once
// The CLI's plumbing: each cmd_*.cpp registers its subcommands with a command_registrar, so
// adding a command touches no other file. Errors go through errors.hpp (report_error), which
// prints them and gives the exit status docs/cli.md documents.

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

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

/// read_text_file reads a file or, for "-", stdin; on failure prints a usage error.
bool read_text_file(const std::string& path, std::string& out);

}  // namespace tooluse::cli

#include <memory>

#include "tooluse/builtin/builtins.hpp"
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
};

/// add_registry_flags adds --root, --network, --shell, --python, --tools, --mcp and --confirm
/// to `cmd`.
void add_registry_flags(CLI::App& cmd, registry_flags& flags);

/// make_registry builds the registry of built-in tools the flags allow, plus the tools of the
/// MCP servers in --mcp (named SERVER__TOOL; the servers stop when the registry is destroyed).
/// Errors: a name in --tools that is not a tool (message lists the available ones); a bad
/// --mcp file or a server that cannot start.
result<std::unique_ptr<tool_registry>> make_registry(const registry_flags& flags);

/// gated_tool_hint returns, for a built-in tool the flags leave off (web_search without
/// --network, shell without --shell), the message saying which flag enables it; else "".
std::string gated_tool_hint(const std::string& name, const registry_flags& flags);

}  // namespace tooluse::cli
