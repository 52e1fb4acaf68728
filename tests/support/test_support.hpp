#pragma once
// Helpers shared by the tests: paths to test data, temporary folders.

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace tooluse::testing {

/// data_dir is tests/data in the source tree: third-party data sets kept in the repository
/// (tests/data/README.md), so a clone alone passes its tests.
std::filesystem::path data_dir();

/// in_ci is true when the environment variable CI is set to "true" or "1" (CI systems set it).
bool in_ci();

/// TOOLUSE_PEER_MISSING(why): a peer program or file the test needs is missing. Outside CI the
/// test is skipped with `why`; under CI=true it fails, so a CI run cannot pass without its peers.
/// Use it where GTEST_SKIP would go (a test body or SetUp).
#define TOOLUSE_PEER_MISSING(why)                                                            \
  do {                                                                                       \
    if (::tooluse::testing::in_ci())                                                         \
      GTEST_FAIL() << (why) << " (CI=true, so a missing peer is a failure)";                 \
    else                                                                                     \
      GTEST_SKIP() << (why);                                                                 \
  } while (0)

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
