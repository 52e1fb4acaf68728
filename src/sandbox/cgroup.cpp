// pids cgroups for sandboxed runs (see cgroup.hpp for why).
#include "sandbox/cgroup.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace tooluse::sandbox::detail {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.flush();
  return static_cast<bool>(out);
}

// Our own cgroup in the hierarchy whose /proc/self/cgroup line matches `controller` ("" for v2).
std::string own_path(const std::string& controller) {
  std::istringstream lines(read_text("/proc/self/cgroup"));
  for (std::string line; std::getline(lines, line);) {
    auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    std::string ctrls = line.substr(a + 1, b - a - 1);
    bool match = controller.empty() ? ctrls.empty() && line.compare(0, a, "0") == 0
                                    : ("," + ctrls + ",").find("," + controller + ",") != std::string::npos;
    if (match) return line.substr(b + 1);
  }
  return "";
}

bool usable(const std::string& dir) {
  return ::access(dir.c_str(), W_OK) == 0 && ::access((dir + "/cgroup.procs").c_str(), W_OK) == 0;
}

std::string find_root() {
  // cgroup v2: our cgroup, when pids is among the controllers its children get.
  for (const char* mount : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}) {
    std::string dir = std::string(mount) + own_path("");
    if (read_text(dir + "/cgroup.subtree_control").find("pids") != std::string::npos && usable(dir))
      return dir;
  }
  // cgroup v1: the pids hierarchy.
  std::string v1 = "/sys/fs/cgroup/pids" + own_path("pids");
  while (!v1.empty() && v1.back() == '/') v1.pop_back();
  if (::access((v1 + "/pids.max").c_str(), F_OK) == 0 || ::access((v1 + "/tasks").c_str(), F_OK) == 0)
    if (usable(v1)) return v1;
  return "";
}

}  // namespace

// Removes the cgroups of tooluse processes that died without removing theirs (a run's cgroup
// goes with its run, unless tooluse itself was killed).
void remove_stale(const std::string& root) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(root, ec)) {
    const std::string name = e.path().filename();
    if (name.rfind("tooluse-sandbox-", 0) != 0) continue;
    const long pid = std::atol(name.c_str() + 16);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) ::rmdir(e.path().c_str());
  }
}

std::string pids_controller_root() {
  static const std::string root = [] {
    std::string r = find_root();
    if (!r.empty()) remove_stale(r);
    return r;
  }();
  return root;
}

pids_cgroup pids_cgroup::create(std::size_t max_pids) {
  pids_cgroup g;
  const std::string root = pids_controller_root();
  if (root.empty() || max_pids == 0) return g;
  static std::atomic<unsigned> seq{0};
  std::string dir = root + "/tooluse-sandbox-" + std::to_string(::getpid()) + "-" +
                    std::to_string(seq.fetch_add(1));
  if (::mkdir(dir.c_str(), 0755) != 0) return g;
  if (!write_text(dir + "/pids.max", std::to_string(max_pids))) {
    ::rmdir(dir.c_str());
    return g;
  }
  g.dir_ = dir;
  return g;
}

long pids_cgroup::refused_forks() const {
  if (dir_.empty()) return 0;
  std::istringstream in(read_text(dir_ + "/pids.events"));
  std::string key;
  long n = 0;
  while (in >> key >> n)
    if (key == "max") return n;
  return 0;
}

pids_cgroup& pids_cgroup::operator=(pids_cgroup&& o) noexcept {
  if (this != &o) {
    if (!dir_.empty()) ::rmdir(dir_.c_str());
    dir_ = std::move(o.dir_);
    o.dir_.clear();
  }
  return *this;
}

pids_cgroup::~pids_cgroup() {
  if (!dir_.empty()) ::rmdir(dir_.c_str());
}

}  // namespace tooluse::sandbox::detail
