#include "support/test_support.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string_view>
#include <sys/wait.h>

namespace tooluse::testing {

std::filesystem::path data_dir() { return std::filesystem::path(TOOLUSE_SOURCE_DIR) / "tests" / "data"; }

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci && (std::string_view(ci) == "true" || std::string_view(ci) == "1");
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string run_shell(const std::string& command, int& status) {
  std::string out;
  status = -1;
  FILE* p = ::popen(command.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  status = ::pclose(p);
  return out;
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
