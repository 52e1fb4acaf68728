#pragma once
/// \file document_search.hpp
/// document_index, a persistent full-text index (SQLite FTS5, BM25 ranking, snippets), and the
/// stateful document_search tool built on it (seed 000's DocumentSearchTool).

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/result.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse::builtin {

/// search_hit is one ranked result: the document id, its title and source, a snippet with
/// the matched words in [brackets], and the BM25 score (higher is better).
struct search_hit {
  std::string id;
  std::string title;
  std::string source;
  std::string snippet;
  double score = 0;
};

/// document_info describes an indexed document.
struct document_info {
  std::string id;
  std::string title;
  std::string source;
  std::size_t bytes = 0;
};

/// document_index is an FTS5 index in one SQLite file. Thread-safe: calls are serialized.
/// Several processes may use the same file (SQLite locking; writes wait up to 5 s).
/// Example:
///   auto index = document_index::open("docs.sqlite");
///   (*index)->add_text("note-1", "The Moon's perigee is 356,400 km.", "Moon notes");
///   auto hits = (*index)->search("moon perigee");
class document_index {
 public:
  /// open opens or creates the index at `file` (":memory:" for a temporary one), creating
  /// its parent folder. Errors: errc::io_error naming the file.
  static result<std::unique_ptr<document_index>> open(const std::filesystem::path& file);
  ~document_index();
  document_index(const document_index&) = delete;
  document_index& operator=(const document_index&) = delete;

  /// add_text adds or replaces the document `id`. Errors: errc::invalid_argument (empty id),
  /// errc::io_error.
  status add_text(std::string_view id, std::string_view text, std::string_view title = {},
                  std::string_view source = {});
  /// add_file adds or replaces a text file, with its absolute path as id and source and its
  /// file name as title; returns the id. Errors: not_found, unsupported (binary), io_error.
  result<std::string> add_file(const std::filesystem::path& path,
                               std::size_t max_bytes = 4 * 1024 * 1024);
  /// remove deletes `id`; returns false if there was no such document.
  result<bool> remove(std::string_view id);
  /// search ranks documents by BM25 (title words weigh 5 times body words). `query` is plain
  /// words (any punctuation is ignored); documents with more of the words rank first.
  result<std::vector<search_hit>> search(std::string_view query, std::size_t limit = 5);
  /// list returns up to `limit` documents, ordered by id.
  result<std::vector<document_info>> list(std::size_t limit = 100);
  /// size returns the number of documents.
  result<std::size_t> size();

 private:
  struct impl;
  explicit document_index(std::unique_ptr<impl> p);
  std::unique_ptr<impl> impl_;
};

/// add_files adds `path`: a text file, or every text file under a folder (recursively,
/// skipping hidden entries, .git, node_modules, binary files and files over `max_bytes`), up to
/// `max_files`. Returns the ids added. Errors: not_found if `path` does not exist, io_error.
result<std::vector<std::string>> add_files(document_index& index, const std::filesystem::path& path,
                                           std::size_t max_files = 5000,
                                           std::size_t max_bytes = 4 * 1024 * 1024);

/// default_index_path is $TOOLUSE_INDEX, else $XDG_DATA_HOME/tooluse/index.sqlite, else
/// ~/.local/share/tooluse/index.sqlite; shared by the tool and `tooluse index`.
std::filesystem::path default_index_path();

/// document_search_options configures the document_search tool.
struct document_search_options {
  std::filesystem::path index_path;  ///< empty: default_index_path()
  std::filesystem::path root = ".";  ///< add_file paths are confined to this folder
  bool allow_changes = true;         ///< allow the add_text, add_file and remove actions
};

/// register_document_search adds the stateful document_search tool. The index is opened at
/// the first call, so registering never creates a file.
void register_document_search(tool_registry& registry, const document_search_options& options = {});

}  // namespace tooluse::builtin
