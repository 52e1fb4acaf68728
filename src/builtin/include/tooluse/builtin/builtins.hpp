#pragma once
/// \file builtins.hpp
/// The built-in tools (calculator, files, web, ...) and how to register them.
/// docs/builtin-tools.md documents every tool with an example call; design/builtin.md explains
/// the choices (sandboxing, SSRF, path confinement).

#include <filesystem>
#include <string>
#include <vector>

#include "tooluse/builtin/document_search.hpp"
#include "tooluse/builtin/files.hpp"
#include "tooluse/builtin/python.hpp"
#include "tooluse/builtin/shell.hpp"
#include "tooluse/builtin/web.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse::builtin {

/// builtin_options configures the built-in tools. Tools that touch the network or run
/// commands are off unless enabled (safe by default).
struct builtin_options {
  std::filesystem::path root = ".";  ///< file tools stay inside this folder
  bool network = false;              ///< register tools that reach the network
  bool shell = false;                ///< register the shell tool (always dangerous)
  bool python = false;               ///< register the python tool (always dangerous)
  /// index_path is document_search's SQLite file; empty means default_index_path().
  std::filesystem::path index_path;
  web_options web;             ///< providers, base URLs, keys and SSRF policy of the web tools
  shell_options shell_config;  ///< sandbox and limits; its work_dir defaults to `root`
  python_options python_config;  ///< sandbox and limits; its work_dir defaults to `root`
};

/// register_builtins adds every built-in tool allowed by `options` to `registry`.
/// Throws std::invalid_argument if a name is already taken or `root` is not a folder.
void register_builtins(tool_registry& registry, const builtin_options& options = {});

}  // namespace tooluse::builtin
