// file_write, file_edit, file_delete, and register_file_tools.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "builtin/files_impl.hpp"
#include "builtin/tool_util.hpp"
#include "tooluse/tools/typed.hpp"

namespace tooluse::builtin::detail {
namespace fs = std::filesystem;

namespace {

// replace_contents writes `data` into an existing or new file through the guard; refuses
// hard-linked files before truncating, so a link to an outside file is never emptied.
result<bool> replace_contents(const files_state& s, const fs::path& resolved, std::string_view data,
                              bool must_be_new) {
  auto fd = s.guard.open(resolved, must_be_new ? open_mode::write_new : open_mode::write_replace);
  if (!fd) return fail(fd.error());
  struct stat st {};
  std::string name = s.guard.relative(resolved);
  bool ok = ::fstat(*fd, &st) == 0;
  if (ok && !S_ISREG(st.st_mode)) {
    ::close(*fd);
    return fail(errc::invalid_argument, "\"" + name + "\" is not a regular file");
  }
  if (ok && st.st_nlink > 1 && !s.options.allow_hard_links) {
    ::close(*fd);
    return fail(errc::permission_denied, "file \"" + name +
                                             "\" is refused: it has several hard links and may "
                                             "be shared with a file outside the root folder");
  }
  bool existed = ok && st.st_size > 0;
  ok = ok && ::ftruncate(*fd, 0) == 0 && write_fd(*fd, data);
  int saved = errno;
  ::close(*fd);
  if (!ok) return fail(errc::io_error, "writing \"" + name + "\": " + std::strerror(saved));
  return existed;
}

struct file_write_args {
  std::string path;
  std::string content;
  bool overwrite = false;
  bool create_dirs = true;
};
TOOLUSE_DESCRIBE(file_write_args,
                 (path, "File path relative to the project root, e.g. \"docs/notes.md\""),
                 (content, "The complete new content of the file (UTF-8 text)"),
                 (overwrite,
                  "Replace the file if it exists. Default false: an existing file is an error",
                  tooluse::default_value(false)),
                 (create_dirs, "Create missing parent folders. Default true"))

struct file_edit_args {
  std::string path;
  std::string old_text;
  std::string new_text;
  bool replace_all = false;
};
TOOLUSE_DESCRIBE(file_edit_args, (path, "File path relative to the project root"),
                 (old_text, "Exact text to replace, including indentation and line breaks",
                  tooluse::min_length(1)),
                 (new_text, "Replacement text (may be empty to delete old_text)"),
                 (replace_all,
                  "Replace every occurrence instead of requiring exactly one. Default false",
                  tooluse::default_value(false)))

struct file_delete_args {
  std::string path;
  bool recursive = false;
};
TOOLUSE_DESCRIBE(file_delete_args,
                 (path, "Path relative to the project root of the file or folder to delete"),
                 (recursive, "Delete a non-empty folder with everything in it. Default false",
                  tooluse::default_value(false)))

tool_result file_write(const files_state& s, const file_write_args& args) {
  const std::string& path = args.path;
  const std::string& content = args.content;
  bool overwrite = args.overwrite;
  bool create_dirs = args.create_dirs;
  if (path.empty() || path == ".") return tool_result::error("give a file path, e.g. \"notes.md\"");
  if (content.size() > s.options.max_write_bytes)
    return tool_result::error("content is " + human_size(content.size()) +
                              ", over the write limit of " + human_size(s.options.max_write_bytes));
  auto resolved = s.guard.resolve(path);
  if (!resolved) return error_result(resolved.error());
  std::error_code ec;
  bool exists = fs::exists(fs::symlink_status(*resolved, ec));
  if (exists && !overwrite)
    return tool_result::error("file \"" + path +
                              "\" already exists; pass \"overwrite\": true to replace it, or use "
                              "file_edit to change part of it");
  fs::path parent = resolved->parent_path();
  if (!fs::is_directory(parent, ec)) {
    if (!create_dirs)
      return tool_result::error("folder \"" + s.guard.relative(parent) + "\" does not exist");
    fs::create_directories(parent, ec);
    if (ec)
      return tool_result::error("cannot create \"" + s.guard.relative(parent) +
                                "\": " + ec.message());
    // Re-check: a folder created through a symlink must still be under the root.
    auto again = s.guard.resolve(path);
    if (!again) return error_result(again.error());
  }
  auto written = replace_contents(s, *resolved, content, !exists);
  if (!written) return error_result(written.error());
  std::string rel = s.guard.relative(*resolved);
  return text_and_data(
      (exists ? "replaced " : "created ") + rel + " (" + human_size(content.size()) + ")",
      {{"path", rel}, {"bytes", content.size()}, {"created", !exists}});
}

std::vector<std::size_t> find_all(const std::string& hay, const std::string& needle) {
  std::vector<std::size_t> at;
  for (std::size_t p = hay.find(needle); p != std::string::npos;
       p = hay.find(needle, p + needle.size()))
    at.push_back(p);
  return at;
}

std::size_t line_of(const std::string& text, std::size_t offset) {
  return 1 + static_cast<std::size_t>(std::count(
                 text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

tool_result file_edit(const files_state& s, const file_edit_args& args) {
  const std::string& path = args.path;
  const std::string& old_text = args.old_text;
  const std::string& new_text = args.new_text;
  bool replace_all = args.replace_all;
  if (old_text.empty())
    return tool_result::error("old_text must not be empty; use file_write to create a file");
  if (old_text == new_text)
    return tool_result::error("old_text and new_text are the same; nothing to do");
  auto resolved = s.guard.resolve(path);
  if (!resolved) return error_result(resolved.error());
  auto text = read_text_file(s, *resolved);
  if (!text) return error_result(text.error());
  auto at = find_all(*text, old_text);
  if (at.empty())
    return tool_result::error("old_text was not found in \"" + path +
                              "\"; it must match exactly, including spaces, tabs and line "
                              "breaks; read the file with file_read first");
  json lines = json::array();
  for (auto p : at) lines.push_back(line_of(*text, p));
  if (at.size() > 1 && !replace_all)
    return tool_result::error("old_text occurs " + std::to_string(at.size()) + " times in \"" +
                              path + "\" (lines " + lines.dump() +
                              "); add surrounding lines to make it unique, or pass "
                              "\"replace_all\": true");
  std::string out;
  std::size_t prev = 0;
  for (auto p : at) {
    out.append(*text, prev, p - prev);
    out += new_text;
    prev = p + old_text.size();
  }
  out.append(*text, prev);
  if (out.size() > s.options.max_write_bytes)
    return tool_result::error("the edited file would be " + human_size(out.size()) +
                              ", over the write limit of " + human_size(s.options.max_write_bytes));
  auto written = replace_contents(s, *resolved, out, false);
  if (!written) return error_result(written.error());
  std::string rel = s.guard.relative(*resolved);
  return text_and_data("edited " + rel + ": " + std::to_string(at.size()) +
                           " replacement(s) at line(s) " + lines.dump(),
                       {{"path", rel}, {"replacements", at.size()}, {"lines", lines}});
}

tool_result file_delete(const files_state& s, const file_delete_args& args) {
  const std::string& path = args.path;
  bool recursive = args.recursive;
  fs::path lexical(path);
  if (path.empty() || lexical.filename().empty() || lexical.filename() == ".")
    return tool_result::error(
        "give the path of a file or folder inside the root, e.g. \"old.txt\"");
  // Resolve the parent, not the entry: deleting a symlink removes the link, never its target.
  auto parent = s.guard.resolve(lexical.parent_path().string());
  if (!parent) return error_result(parent.error());
  auto check = s.guard.resolve(path);
  if (!check && check.error().code == errc::permission_denied &&
      check.error().message.find("symlink") == std::string::npos)
    return error_result(check.error());
  fs::path target = *parent / lexical.filename();
  std::error_code ec;
  auto st = fs::symlink_status(target, ec);
  if (!fs::exists(st)) return tool_result::error("\"" + path + "\" does not exist");
  if (target == s.guard.root()) return tool_result::error("the root folder cannot be deleted");
  std::uintmax_t removed = 0;
  if (fs::is_directory(st)) {
    if (!recursive && !fs::is_empty(target, ec))
      return tool_result::error(
          "folder \"" + path +
          "\" is not empty; pass \"recursive\": true to delete it with its contents");
    removed = fs::remove_all(target, ec);
  } else {
    removed = fs::remove(target, ec) ? 1 : 0;
  }
  if (ec) return tool_result::error("cannot delete \"" + path + "\": " + ec.message());
  std::string rel = s.guard.relative(target);
  return text_and_data(
      "deleted " + rel + " (" + std::to_string(removed) + (removed == 1 ? " entry)" : " entries)"),
      {{"path", rel}, {"entries_removed", removed}});
}

}  // namespace

void register_write_tools(tool_registry& registry, std::shared_ptr<const files_state> state) {
  add_file_tool(registry, "file_write", std::chrono::seconds(10), state, file_write);
  add_file_tool(registry, "file_edit", std::chrono::seconds(10), state, file_edit);
  add_file_tool(registry, "file_delete", std::chrono::seconds(30), state, file_delete);
}

}  // namespace tooluse::builtin::detail

namespace tooluse::builtin {

void register_file_tools(tool_registry& registry, const files_options& options) {
  auto state = std::make_shared<const detail::files_state>(
      detail::files_state{detail::path_guard(options.root), options});
  detail::register_read_tools(registry, state);
  if (options.writable) detail::register_write_tools(registry, state);
}

}  // namespace tooluse::builtin
