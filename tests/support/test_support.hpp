#pragma once
// Helpers shared by the tests: paths to test data, temporary folders.

#include <filesystem>
#include <string>

namespace tooluse::testing {

/// shared_dir is ../shared beside the checkout (TOOLUSE_SHARED_DIR overrides).
std::filesystem::path shared_dir();

/// read_file returns a file's bytes ("" if unreadable).
std::string read_file(const std::filesystem::path& path);

/// run_shell runs `command` through /bin/sh and returns its stdout; `status` gets pclose's status
/// (0 on success). For tests that need shell redirections; prefer run_tooluse (cli_process.hpp).
std::string run_shell(const std::string& command, int& status);

/// temp_dir is a fresh folder removed with its contents on destruction.
class temp_dir {
 public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace tooluse::testing
