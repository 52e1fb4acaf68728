#include "support/test_support.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/wait.h>

namespace tooluse::testing {

std::filesystem::path shared_dir() {
  if (const char* env = std::getenv("TOOLUSE_SHARED_DIR"); env && *env) return env;
  return TOOLUSE_SHARED_DIR_DEFAULT;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

temp_dir::temp_dir() {
  std::random_device rd;
  path_ = std::filesystem::temp_directory_path() /
          ("tooluse-test-" + std::to_string(rd()) + std::to_string(rd()));
  std::filesystem::create_directories(path_);
}

temp_dir::~temp_dir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace tooluse::testing
