#pragma once
/// \file builtins.hpp
/// The built-in tools (calculator, files, web, ...) and how to register them.

#include <filesystem>
#include <string>
#include <vector>

#include "tooluse/tools/registry.hpp"

namespace tooluse::builtin {

/// builtin_options configures the built-in tools. Tools that touch the network or run
/// commands are off unless enabled (safe by default).
struct builtin_options {
  std::filesystem::path root = ".";  ///< file tools stay inside this folder
  bool network = false;              ///< register tools that reach the network
  bool shell = false;                ///< register the shell tool (always dangerous)
};

/// register_builtins adds every built-in tool allowed by `options` to `registry`.
/// Throws std::invalid_argument if a name is already taken.
void register_builtins(tool_registry& registry, const builtin_options& options = {});

}  // namespace tooluse::builtin
