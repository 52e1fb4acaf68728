#include "builtin/path_guard.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "tooluse/text.hpp"

namespace tooluse::builtin::detail {
namespace fs = std::filesystem;

namespace {

error refused(std::string_view path, std::string_view why) {
  return error{errc::permission_denied,
               "path \"" + std::string(path) + "\" is refused: " + std::string(why) +
                   "; give a path relative to the root folder, e.g. \"src/main.cpp\""};
}

// percent_decode decodes %XX once; the caller repeats it to catch double encoding.
std::string percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool has_dotdot_segment(std::string_view s) {
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '/' || s[i] == '\\') {
      if (s.substr(start, i - start) == "..") return true;
      start = i + 1;
    }
  }
  return false;
}

std::optional<std::string> lexical_problem(std::string_view path) {
  if (path.find('\0') != std::string_view::npos) return "it contains a NUL byte";
  if (!path.empty() && (path[0] == '/' || path[0] == '\\')) return "absolute paths are not allowed";
  if (!path.empty() && path[0] == '~') return "home-relative paths are not allowed";
  if (path.size() >= 2 && std::isalpha(static_cast<unsigned char>(path[0])) && path[1] == ':')
    return "drive paths are not allowed";
  if (path.find('\\') != std::string_view::npos) return "back slashes are not allowed; use /";
  if (has_dotdot_segment(path)) return "\"..\" segments are not allowed";
  // A layer above us might decode %2e%2e%2f; refuse anything whose decoded form is unsafe.
  std::string decoded(path);
  for (int round = 0; round < 3; ++round) {
    std::string next = percent_decode(decoded);
    if (next == decoded) break;
    decoded = std::move(next);
    if (decoded.find('/') == 0 || has_dotdot_segment(decoded) ||
        decoded.find('\\') != std::string::npos || decoded.find('\0') != std::string::npos)
      return "percent-encoded \"..\", \"/\" or \"\\\" is not allowed";
  }
  return std::nullopt;
}

bool is_under(const fs::path& p, const fs::path& root) {
  auto r = root.begin();
  auto q = p.begin();
  for (; r != root.end(); ++r, ++q) {
    if (r->empty() && std::next(r) == root.end()) break;  // trailing separator
    if (q == p.end() || *q != *r) return false;
  }
  return true;
}

}  // namespace

path_guard::path_guard(const fs::path& root) {
  std::error_code ec;
  root_ = fs::canonical(root, ec);
  if (ec || !fs::is_directory(root_, ec))
    throw std::invalid_argument("file tools root \"" + root.string() +
                                "\" is not an existing folder");
}

result<fs::path> path_guard::resolve(std::string_view path) const {
  if (auto why = lexical_problem(path)) return fail(refused(path, *why));
  fs::path joined = path.empty() ? root_ : root_ / fs::path(std::string(path));
  std::error_code ec;
  fs::path resolved = fs::weakly_canonical(joined, ec);
  if (ec) return fail(errc::io_error, "path \"" + std::string(path) + "\": " + ec.message());
  // weakly_canonical leaves a dangling symlink unresolved; follow it by hand, so a link to a
  // file that does not exist yet outside the root is refused too.
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(resolved, ec)); ++hops) {
    fs::path target = fs::read_symlink(resolved, ec);
    if (ec) break;
    resolved = fs::weakly_canonical(resolved.parent_path() / target, ec);
    if (ec) return fail(errc::io_error, "path \"" + std::string(path) + "\": " + ec.message());
  }
  if (!is_under(resolved, root_))
    return fail(refused(path, "it leads outside the root folder (through a symlink)"));
  return resolved;
}

result<int> path_guard::open(const fs::path& resolved, open_mode mode) const {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (or reader); callers fstat the
  // descriptor and refuse anything but a regular file, then clear O_NONBLOCK.
  int flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
  if (mode == open_mode::read) flags |= O_RDONLY;
  if (mode == open_mode::write_new) flags |= O_WRONLY | O_CREAT | O_EXCL;
  // No O_TRUNC: the caller checks the hard-link count first, then ftruncate()s.
  if (mode == open_mode::write_replace) flags |= O_WRONLY | O_CREAT;
  // Lexically: fs::relative would canonicalize `resolved` and so follow a symlink swapped in
  // after resolve() (inside the root, or, without openat2, through ".." out of it).
  const fs::path rel_path = resolved.lexically_relative(root_);
  if (rel_path.empty() || *rel_path.begin() == "..")
    return fail(errc::permission_denied,
                "path \"" + resolved.string() + "\" is refused: it is not inside the root folder");
  const std::string rel = rel_path.string();
  int root_fd = ::open(root_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) return fail(errc::io_error, "root folder: " + std::string(std::strerror(errno)));
  open_how how{};
  how.flags = static_cast<unsigned long long>(flags);
  how.mode = (flags & O_CREAT) ? 0644 : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  int fd = static_cast<int>(::syscall(SYS_openat2, root_fd, rel.c_str(), &how, sizeof how));
  if (fd < 0 && (errno == ENOSYS || errno == EPERM)) {
    // No openat2 (old kernel, seccomp): O_NOFOLLOW on the canonical path still refuses a
    // final symlink swapped in after resolve().
    fd = ::openat(root_fd, rel.c_str(), flags, 0644);
  }
  int saved = errno;
  ::close(root_fd);
  if (fd < 0) {
    std::string name = relative(resolved);
    if (saved == EXDEV || saved == ELOOP)
      return fail(errc::permission_denied,
                  "path \"" + name + "\" is refused: it is a symlink or leads outside the root");
    if (saved == EEXIST)
      return fail(errc::already_exists, "file \"" + name + "\" already exists");
    if (saved == ENXIO)
      return fail(errc::invalid_argument, "\"" + name + "\" is not a regular file (a FIFO or socket "
                                          "with no peer); file tools open only regular files");
    return fail(errc::io_error, "file \"" + name + "\": " + std::strerror(saved));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    std::string name = relative(resolved);
    if (S_ISDIR(st.st_mode))
      return fail(errc::invalid_argument,
                  "\"" + name + "\" is a folder; use file_list or project_structure to see it");
    return fail(errc::invalid_argument, "\"" + name + "\" is not a regular file (a FIFO, device or "
                                        "socket); file tools open only regular files");
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

std::string path_guard::relative(const fs::path& p) const {
  if (p == root_) return ".";
  return fs::relative(p, root_).generic_string();
}

bool looks_binary(std::string_view data) {
  if (data.find('\0') != std::string_view::npos) return true;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < data.size();) {
    auto c = static_cast<unsigned char>(data[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0) {
      ++bad;
      ++i;
      continue;
    }
    if (i + len > data.size()) break;  // a character cut by the sample's end
    bool ok = true;
    for (int k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(data[i + k]) >> 6) != 2) ok = false;
    if (!ok) ++bad;
    i += ok ? len : 1;
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != 0x1b) ++bad;
  }
  return bad * 20 > data.size();  // more than 5% suspicious bytes
}

}  // namespace tooluse::builtin::detail
