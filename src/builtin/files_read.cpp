// file_read, file_list, file_search.
#include <fnmatch.h>
#include <re2/re2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sstream>

#include "builtin/files_impl.hpp"
#include "builtin/tool_util.hpp"
#include "tooluse/tools/typed.hpp"

namespace tooluse::builtin::detail {
namespace fs = std::filesystem;

namespace {

struct fd_closer {
  int fd;
  ~fd_closer() {
    if (fd >= 0) ::close(fd);
  }
};

result<struct stat> checked_stat(const files_state& s, int fd, const fs::path& resolved) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail(errc::io_error, "cannot stat the file");
  std::string name = s.guard.relative(resolved);
  if (S_ISDIR(st.st_mode))
    return fail(errc::invalid_argument,
                "\"" + name + "\" is a folder; use file_list or project_structure to see it");
  if (!S_ISREG(st.st_mode))
    return fail(errc::invalid_argument, "\"" + name + "\" is not a regular file");
  if (st.st_nlink > 1 && !s.options.allow_hard_links)
    return fail(errc::permission_denied, "file \"" + name +
                                             "\" is refused: it has several hard links and may be "
                                             "shared with a file outside the root folder");
  return st;
}

}  // namespace

result<std::string> read_text_file(const files_state& s, const fs::path& resolved) {
  auto fd = s.guard.open(resolved, open_mode::read);
  if (!fd) return fail(fd.error());
  fd_closer closer{*fd};
  auto st = checked_stat(s, *fd, resolved);
  if (!st) return fail(st.error());
  std::string name = s.guard.relative(resolved);
  if (static_cast<std::size_t>(st->st_size) > s.options.max_file_bytes)
    return fail(errc::invalid_argument, "file \"" + name + "\" is " + human_size(st->st_size) +
                                            ", over the limit of " +
                                            human_size(s.options.max_file_bytes));
  bool more = false;
  std::string data = read_fd(*fd, s.options.max_file_bytes, more);
  if (looks_binary(std::string_view(data).substr(0, 8192)))
    return fail(errc::unsupported, "file \"" + name + "\" is binary (" + human_size(data.size()) +
                                       "); only text files can be read");
  return data;
}

namespace {

struct file_read_args {
  std::string path;
  std::int64_t start_line = 1;
  std::optional<std::int64_t> end_line;
  bool line_numbers = false;
};
TOOLUSE_DESCRIBE(
    file_read_args,
    (path, "File path relative to the project root, e.g. \"README.md\" or \"src/app/main.cpp\""),
    (start_line, "First line to return (1-based). Default 1", tooluse::minimum(1)),
    (end_line, "Last line to return, inclusive. Default: the end of the file", tooluse::minimum(1)),
    (line_numbers,
     "Prefix each line with its number and a tab (useful before file_edit). Default false",
     tooluse::default_value(false)))

struct file_list_args {
  std::string path = ".";
  bool recursive = false;
  bool include_hidden = false;
  std::int64_t max_entries = 200;
};
TOOLUSE_DESCRIBE(file_list_args,
                 (path, "Folder relative to the project root. Default \".\" (the root)"),
                 (recursive, "Also list the contents of sub-folders. Default false",
                  tooluse::default_value(false)),
                 (include_hidden, "Include names starting with a dot. Default false",
                  tooluse::default_value(false)),
                 (max_entries, "Stop after this many entries. Default 200", tooluse::minimum(1),
                  tooluse::maximum(5000)))

struct file_search_args {
  std::optional<std::string> name;
  std::optional<std::string> content;
  std::string path = ".";
  bool regex = false;
  bool case_sensitive = false;
  bool include_hidden = false;
  std::int64_t max_results = 50;
};
TOOLUSE_DESCRIBE(
    file_search_args,
    (name, "Glob matched against file names (not folders), e.g. \"*.cpp\", \"CMakeLists.txt\""),
    (content, "Text to find inside files; a regular expression when regex is true"),
    (path, "Folder to search, relative to the project root. Default \".\""),
    (regex, "Treat content as an RE2 regular expression. Default false (plain text)",
     tooluse::default_value(false)),
    (case_sensitive, "Match content case-sensitively. Default false",
     tooluse::default_value(false)),
    (include_hidden, "Also search names starting with a dot. Default false",
     tooluse::default_value(false)),
    (max_results, "Stop after this many matches. Default 50", tooluse::minimum(1),
     tooluse::maximum(1000)))

tool_result file_read(const files_state& s, const file_read_args& args) {
  const std::string& path = args.path;
  std::int64_t start = args.start_line;
  std::int64_t end = args.end_line.value_or(0);
  bool numbers = args.line_numbers;
  if (start < 1) return tool_result::error("start_line must be 1 or more");
  if (end != 0 && end < start) return tool_result::error("end_line must be >= start_line");
  auto resolved = s.guard.resolve(path);
  if (!resolved) return error_result(resolved.error());
  auto text = read_text_file(s, *resolved);
  if (!text) return error_result(text.error());
  std::istringstream in(*text);
  std::string line, out;
  std::int64_t n = 0, last = 0;
  bool truncated = false;
  while (std::getline(in, line)) {
    ++n;
    if (n < start || (end != 0 && n > end) || truncated) continue;
    std::string piece = numbers ? std::to_string(n) + "\t" + line + "\n" : line + "\n";
    if (out.size() + piece.size() > s.options.max_read_bytes) {
      truncated = true;
      continue;
    }
    out += piece;
    last = n;
  }
  if (start > n && n > 0)
    return tool_result::error("start_line " + std::to_string(start) + " is past the end: \"" +
                              path + "\" has " + std::to_string(n) + " lines");
  json data = {{"path", s.guard.relative(*resolved)},
               {"start_line", start},
               {"end_line", last},
               {"total_lines", n},
               {"truncated", truncated},
               {"size_bytes", text->size()}};
  if (truncated)
    out += "[truncated at line " + std::to_string(last) + " of " + std::to_string(n) +
           "; call again with start_line=" + std::to_string(last + 1) + "]\n";
  tool_result r = tool_result::text(std::move(out));
  r.structured_content = std::move(data);
  return r;
}

bool hidden(const fs::path& p) {
  std::string n = p.filename().string();
  return n.size() > 1 && n[0] == '.';
}

bool skipped_dir(const fs::path& p) {
  std::string n = p.filename().string();
  return n == ".git" || n == "node_modules" || n == ".hg" || n == ".svn";
}

// folder_arg resolves `path`, a folder argument ("." is the root); when it is not a folder, the
// message ends with `otherwise`.
result<fs::path> folder_arg(const files_state& s, const std::string& path,
                            const std::string& otherwise) {
  auto dir = s.guard.resolve(path == "." ? "" : path);
  if (!dir) return dir;
  std::error_code ec;
  if (!fs::is_directory(*dir, ec))
    return fail(errc::invalid_argument, "\"" + path + "\" is not a folder; " + otherwise);
  return dir;
}

tool_result file_list(const files_state& s, const file_list_args& args) {
  const std::string& path = args.path;
  bool recursive = args.recursive;
  bool include_hidden = args.include_hidden;
  auto max_entries = static_cast<std::size_t>(std::max<std::int64_t>(1, args.max_entries));
  auto dir = folder_arg(s, path, "use file_read for files");
  if (!dir) return error_result(dir.error());
  std::error_code ec;
  json entries = json::array();
  std::string text;
  bool truncated = false;
  fs::recursive_directory_iterator it(*dir, fs::directory_options::skip_permission_denied, ec), e;
  for (; !ec && it != e; it.increment(ec)) {
    const auto& entry = *it;
    if (!include_hidden && hidden(entry.path())) {
      if (entry.is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (entries.size() >= max_entries) {
      truncated = true;
      break;
    }
    auto st = entry.symlink_status(ec);
    const char* type = fs::is_symlink(st) ? "symlink" : fs::is_directory(st) ? "dir" : "file";
    std::string rel = s.guard.relative(entry.path());
    json item = {{"path", rel}, {"type", type}};
    if (fs::is_regular_file(st)) item["size"] = entry.file_size(ec);
    text += rel + (fs::is_directory(st) ? "/" : "");
    if (item.contains("size")) text += "  (" + human_size(item["size"].get<std::uintmax_t>()) + ")";
    text += "\n";
    entries.push_back(std::move(item));
    if (!recursive && entry.is_directory(ec)) it.disable_recursion_pending();
  }
  if (entries.empty()) text = "(empty folder)\n";
  if (truncated) text += "[stopped at " + std::to_string(max_entries) + " entries]\n";
  return text_and_data(
      std::move(text),
      {{"path", s.guard.relative(*dir)}, {"entries", entries}, {"truncated", truncated}});
}

struct search_spec {
  std::string name_glob;
  std::unique_ptr<RE2> content;
  std::size_t max_results = 50;
  bool include_hidden = false;
};

result<search_spec> make_search_spec(const file_search_args& args) {
  search_spec spec;
  spec.name_glob = args.name.value_or("");
  std::string content = args.content.value_or("");
  if (spec.name_glob.empty() && content.empty())
    return fail(errc::invalid_argument,
                "give \"name\" (a glob such as \"*.cpp\") or \"content\" (text to find), or both");
  spec.max_results = static_cast<std::size_t>(std::clamp<std::int64_t>(args.max_results, 1, 1000));
  spec.include_hidden = args.include_hidden;
  if (!content.empty()) {
    RE2::Options o;
    o.set_case_sensitive(args.case_sensitive);
    o.set_log_errors(false);
    std::string pattern = args.regex ? content : RE2::QuoteMeta(content);
    spec.content = std::make_unique<RE2>(pattern, o);
    if (!spec.content->ok())
      return fail(errc::invalid_argument, "content regex is invalid: " + spec.content->error());
  }
  return spec;
}

void search_file(const files_state& s, const search_spec& spec, const fs::path& p, json& matches,
                 std::string& text) {
  auto resolved = s.guard.resolve(s.guard.relative(p));
  if (!resolved) return;
  auto data = read_text_file(s, *resolved);
  if (!data) return;
  std::istringstream in(*data);
  std::string line;
  int n = 0;
  std::string rel = s.guard.relative(p);
  while (std::getline(in, line) && matches.size() < spec.max_results) {
    ++n;
    if (!RE2::PartialMatch(line, *spec.content)) continue;
    if (line.size() > 300) {
      std::size_t cut = 300;  // never inside a UTF-8 sequence: the line goes to a model as JSON
      while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
      line = line.substr(0, cut) + "...";
    }
    matches.push_back({{"path", rel}, {"line", n}, {"text", line}});
    text += rel + ":" + std::to_string(n) + ": " + line + "\n";
  }
}

tool_result file_search(const files_state& s, const file_search_args& args) {
  auto spec = make_search_spec(args);
  if (!spec) return error_result(spec.error());
  const std::string& path = args.path;
  auto dir = folder_arg(s, path, "give a folder to search in");
  if (!dir) return error_result(dir.error());
  json matches = json::array();
  std::string text;
  std::size_t files_seen = 0;
  std::error_code ec;
  fs::recursive_directory_iterator it(*dir, fs::directory_options::skip_permission_denied, ec), e;
  for (; !ec && it != e && matches.size() < spec->max_results; it.increment(ec)) {
    const auto& entry = *it;
    bool is_dir = entry.is_directory(ec);
    if ((!spec->include_hidden && hidden(entry.path())) || (is_dir && skipped_dir(entry.path()))) {
      if (is_dir) it.disable_recursion_pending();
      continue;
    }
    if (is_dir || !entry.is_regular_file(ec)) continue;
    std::string fname = entry.path().filename().string();
    if (!spec->name_glob.empty() && ::fnmatch(spec->name_glob.c_str(), fname.c_str(), 0) != 0)
      continue;
    ++files_seen;
    if (!spec->content) {
      std::string rel = s.guard.relative(entry.path());
      matches.push_back({{"path", rel}});
      text += rel + "\n";
      continue;
    }
    search_file(s, *spec, entry.path(), matches, text);
  }
  bool truncated = matches.size() >= spec->max_results;
  if (matches.empty()) text = "no matches\n";
  if (truncated) text += "[stopped at " + std::to_string(spec->max_results) + " results]\n";
  return text_and_data(
      std::move(text),
      {{"matches", matches}, {"files_scanned", files_seen}, {"truncated", truncated}});
}

}  // namespace

tool file_tool(std::string_view name, std::chrono::seconds timeout) {
  const tool_text& text = text_of(name);
  return builtin_tool(text, {.category = "files",
                             .tags = {"files", std::string(text.tag)},
                             .timeout = timeout,
                             .dangerous = text.hints.destructive == true});
}

void register_read_tools(tool_registry& registry, std::shared_ptr<const files_state> state) {
  add_file_tool(registry, "file_read", std::chrono::seconds(10), state, file_read);
  add_file_tool(registry, "file_list", std::chrono::seconds(10), state, file_list);
  add_file_tool(registry, "file_search", std::chrono::seconds(30), state, file_search);
}

}  // namespace tooluse::builtin::detail
