// project_structure: a directory tree with depth and entry limits, excludes, .gitignore,
// sizes and summary counts (seed 004's prepare_project_structure).
#include <fnmatch.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "builtin/files_impl.hpp"
#include "builtin/path_guard.hpp"
#include "builtin/tool_util.hpp"
#include "tooluse/builtin/files.hpp"
#include "tooluse/tools/typed.hpp"

namespace tooluse::builtin {
namespace fs = std::filesystem;
using namespace detail;

namespace {

// ignore_rule is one .gitignore line, relative to the folder holding the .gitignore.
struct ignore_rule {
  fs::path base;
  std::string pattern;
  bool negate = false;
  bool dir_only = false;
  bool anchored = false;
};

void load_gitignore(const fs::path& dir, std::vector<ignore_rule>& rules) {
  std::ifstream in(dir / ".gitignore");
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    ignore_rule r{.base = dir};
    if (line[0] == '!') {
      r.negate = true;
      line.erase(0, 1);
    }
    if (line.size() > 3 && line.ends_with("/**")) line.resize(line.size() - 3);
    if (!line.empty() && line.back() == '/') {
      r.dir_only = true;
      line.pop_back();
    }
    if (line.starts_with("**/")) line.erase(0, 3);
    r.anchored = line.find('/') != std::string::npos;
    if (!line.empty() && line[0] == '/') line.erase(0, 1);
    r.pattern = line;
    if (!r.pattern.empty()) rules.push_back(std::move(r));
  }
}

bool ignored(const std::vector<ignore_rule>& rules, const fs::path& p, bool is_dir) {
  bool result = false;
  std::string name = p.filename().string();
  for (const auto& r : rules) {
    if (r.dir_only && !is_dir) continue;
    bool m = r.anchored ? ::fnmatch(r.pattern.c_str(), p.lexically_relative(r.base).c_str(),
                                    FNM_PATHNAME) == 0
                        : ::fnmatch(r.pattern.c_str(), name.c_str(), 0) == 0;
    if (m) result = !r.negate;
  }
  return result;
}

struct walk_state {
  std::vector<std::string> excludes;
  bool use_gitignore = true;
  bool show_sizes = true;
  int max_depth = 3;
  std::size_t max_entries = 300;
  std::size_t scan_limit = 50000;
  // results
  std::string tree;
  std::size_t printed = 0, scanned = 0, files = 0, dirs = 0;
  std::uintmax_t bytes = 0;
  std::map<std::string, std::size_t> extensions;
  std::vector<std::string> skipped;
  bool truncated = false;
};

bool excluded(const walk_state& w, const std::string& name) {
  return std::any_of(w.excludes.begin(), w.excludes.end(), [&](const std::string& e) {
    return ::fnmatch(e.c_str(), name.c_str(), 0) == 0;
  });
}

void walk(walk_state& w, const fs::path& dir, int depth, const std::string& indent,
          std::vector<ignore_rule> rules, const fs::path& root) {
  if (w.use_gitignore) load_gitignore(dir, rules);
  std::vector<fs::directory_entry> entries;
  std::error_code ec;
  for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), e;
       !ec && it != e; it.increment(ec))
    entries.push_back(*it);
  std::sort(entries.begin(), entries.end(), [&](const auto& a, const auto& b) {
    bool ad = a.is_directory(ec) && !a.is_symlink(ec), bd = b.is_directory(ec) && !b.is_symlink(ec);
    if (ad != bd) return ad;
    return a.path().filename() < b.path().filename();
  });
  // Excluded and ignored entries are dropped first, so that the last entry shown gets "└──".
  struct shown {
    const fs::directory_entry* entry;
    bool link;
    bool is_dir;
  };
  std::vector<shown> visible;
  for (const auto& entry : entries) {
    if (++w.scanned > w.scan_limit) {
      w.truncated = true;
      break;
    }
    std::string name = entry.path().filename().string();
    bool link = entry.is_symlink(ec);
    bool is_dir = !link && entry.is_directory(ec);
    if (excluded(w, name) || (w.use_gitignore && ignored(rules, entry.path(), is_dir))) {
      if (depth == 0) w.skipped.push_back(name + (is_dir ? "/" : ""));
      continue;
    }
    visible.push_back({&entry, link, is_dir});
  }
  for (std::size_t i = 0; i < visible.size(); ++i) {
    const auto& entry = *visible[i].entry;
    const bool link = visible[i].link, is_dir = visible[i].is_dir;
    const bool last = i + 1 == visible.size();
    std::string name = entry.path().filename().string();
    std::uintmax_t size = (!link && !is_dir) ? entry.file_size(ec) : 0;
    if (is_dir)
      ++w.dirs;
    else {
      ++w.files;
      w.bytes += size;
      std::string ext = entry.path().extension().string();
      ++w.extensions[ext.empty() ? "(none)" : ext];
    }
    bool print = depth < w.max_depth && w.printed < w.max_entries;
    if (!print) w.truncated = true;
    if (print) {
      ++w.printed;
      w.tree += indent + (last ? "└── " : "├── ") + name + (is_dir ? "/" : "");
      if (link)
        w.tree += " -> " + fs::read_symlink(entry.path(), ec).string();
      else if (!is_dir && w.show_sizes)
        w.tree += " (" + human_size(size) + ")";
      w.tree += "\n";
    }
    if (is_dir) walk(w, entry.path(), depth + 1, indent + (last ? "    " : "│   "), rules, root);
  }
}

struct project_structure_args {
  std::string path = ".";
  std::int64_t max_depth = 3;
  std::int64_t max_entries = 300;
  std::optional<std::vector<std::string>> exclude;
  bool include_default_excludes = false;
  bool use_gitignore = true;
  bool show_sizes = true;
};
TOOLUSE_DESCRIBE(
    project_structure_args, (path, "Folder relative to the project root. Default \".\""),
    (max_depth, "Levels of folders to show. Default 3", tooluse::minimum(1), tooluse::maximum(12)),
    (max_entries, "Lines of tree to show at most. Default 300", tooluse::minimum(1),
     tooluse::maximum(5000)),
    (exclude, "More names or globs to leave out, e.g. [\"dist\", \"*.log\"]"),
    (include_default_excludes, "Set true to show .git, node_modules, build etc. too. Default false",
     tooluse::default_value(false)),
    (use_gitignore, "Honour .gitignore files. Default true"),
    (show_sizes, "Show file sizes. Default true"))

tool_result project_structure(const path_guard& guard, const project_structure_options& o,
                              const project_structure_args& args) {
  walk_state w;
  w.excludes = o.default_excludes;
  if (args.exclude) w.excludes.insert(w.excludes.end(), args.exclude->begin(), args.exclude->end());
  if (args.include_default_excludes) w.excludes.clear();
  w.use_gitignore = args.use_gitignore;
  w.show_sizes = args.show_sizes;
  w.max_depth = static_cast<int>(std::clamp<std::int64_t>(args.max_depth, 1, 12));
  w.max_entries = static_cast<std::size_t>(std::clamp<std::int64_t>(args.max_entries, 1, 5000));
  const std::string& path = args.path;
  auto dir = guard.resolve(path == "." ? "" : path);
  if (!dir) return error_result(dir.error());
  std::error_code ec;
  if (!fs::is_directory(*dir, ec)) return tool_result::error("\"" + path + "\" is not a folder");
  std::string label = guard.relative(*dir) == "." ? dir->filename().string() : guard.relative(*dir);
  w.tree = label + "/\n";
  walk(w, *dir, 0, "", {}, *dir);
  std::vector<std::pair<std::string, std::size_t>> exts(w.extensions.begin(), w.extensions.end());
  std::sort(exts.begin(), exts.end(), [](auto& a, auto& b) { return a.second > b.second; });
  if (exts.size() > 10) exts.resize(10);
  json by_ext = json::object();
  std::string ext_text;
  for (auto& [e, n] : exts) {
    by_ext[e] = n;
    ext_text += (ext_text.empty() ? "" : ", ") + e + " " + std::to_string(n);
  }
  std::string text = w.tree + "\n" + std::to_string(w.dirs) + " folders, " +
                     std::to_string(w.files) + " files, " + human_size(w.bytes) + " in total\n";
  if (!ext_text.empty()) text += "by extension: " + ext_text + "\n";
  if (!w.skipped.empty()) {
    text += "excluded at top level:";
    for (auto& s : w.skipped) text += " " + s;
    text += "\n";
  }
  if (w.truncated)
    text += "[tree cut by max_depth=" + std::to_string(w.max_depth) +
            " or max_entries=" + std::to_string(w.max_entries) + "; counts cover the whole tree]\n";
  json data = {
      {"path", guard.relative(*dir)},
      {"tree", w.tree},
      {"summary",
       {{"folders", w.dirs}, {"files", w.files}, {"bytes", w.bytes}, {"by_extension", by_ext}}},
      {"excluded", w.skipped},
      {"truncated", w.truncated}};
  return text_and_data(std::move(text), std::move(data));
}

}  // namespace

void register_project_structure(tool_registry& registry, const project_structure_options& options) {
  auto guard = std::make_shared<const path_guard>(options.root);
  add_tool(registry, file_tool("project_structure", std::chrono::seconds(20)),
           [guard, options](const project_structure_args& a) {
             return project_structure(*guard, options, a);
           });
}

}  // namespace tooluse::builtin
