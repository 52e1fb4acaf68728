#pragma once
// path_guard confines model-supplied paths to a root folder (private to the builtin module).

#include <filesystem>
#include <string>
#include <string_view>

#include "tooluse/result.hpp"

namespace tooluse::builtin::detail {

/// open_mode says how path_guard::open opens a file.
enum class open_mode { read, write_new, write_replace };

/// path_guard resolves paths relative to a root and refuses anything that leads outside it.
/// Thread-safe (immutable after construction).
class path_guard {
 public:
  /// path_guard canonicalizes `root`; throws std::invalid_argument if it is not a folder.
  explicit path_guard(const std::filesystem::path& root);

  /// resolve maps a model path ("src/a.cpp", "." or "") to an absolute path inside the root.
  /// Lexical checks first (absolute, `..`, NUL, `~`, percent-encoded dots or separators, back
  /// slashes), then symlinks are resolved and the result must stay under the root.
  /// Errors: errc::permission_denied with a message naming the path.
  result<std::filesystem::path> resolve(std::string_view path) const;

  /// open opens a resolved path with O_NOFOLLOW and, where the kernel has openat2,
  /// RESOLVE_BENEATH from the root, so a symlink swapped in after resolve() is not followed.
  /// Returns a file descriptor the caller closes. Errors: errc::io_error, errc::permission_denied.
  result<int> open(const std::filesystem::path& resolved, open_mode mode) const;

  /// relative returns `p` relative to the root, "." for the root itself.
  std::string relative(const std::filesystem::path& p) const;

  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

/// looks_binary tells whether `data` (a file's first bytes) is binary: a NUL byte or mostly
/// invalid UTF-8.
bool looks_binary(std::string_view data);

}  // namespace tooluse::builtin::detail
