#pragma once
/// \file files.hpp
/// The file tools (file_read, file_list, file_search, file_write, file_edit, file_delete) and
/// project_structure, all confined to one root folder.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "tooluse/tools/registry.hpp"

namespace tooluse::builtin {

/// files_options configures the file tools. Every path a model gives is relative to `root`;
/// `..` segments, absolute paths, percent-encoded separators and symlinks leading outside are
/// refused, and files are opened without following a final symlink.
struct files_options {
  std::filesystem::path root = ".";
  std::size_t max_read_bytes = 256 * 1024;      ///< text returned by one file_read
  std::size_t max_file_bytes = 8 * 1024 * 1024;  ///< larger files are not read or searched
  std::size_t max_write_bytes = 1024 * 1024;    ///< file_write / file_edit result size cap
  bool allow_hard_links = false;  ///< read or write files with more than one hard link
  bool writable = true;           ///< register file_write, file_edit and file_delete
};

/// register_file_tools adds the six file tools. file_write, file_edit and file_delete are
/// dangerous (they need approval). Throws std::invalid_argument if `root` is not a folder.
void register_file_tools(tool_registry& registry, const files_options& options = {});

/// project_structure_options configures project_structure.
struct project_structure_options {
  std::filesystem::path root = ".";
  std::vector<std::string> default_excludes = {".git", "node_modules", "__pycache__",
                                               ".venv", "build", ".cache"};
};

/// register_project_structure adds project_structure (read-only).
void register_project_structure(tool_registry& registry,
                                const project_structure_options& options = {});

}  // namespace tooluse::builtin
