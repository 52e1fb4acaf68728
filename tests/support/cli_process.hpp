#pragma once
// Running the real `tooluse` binary for the agent integration tests: arguments, an environment
// of our choosing (no API keys leak in from the test runner), a working folder, and captured
// stdout, stderr and exit status.

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace tooluse::testing {

struct cli_outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// run_tooluse runs TOOLUSE_CLI_PATH with `args` in `cwd`, with only PATH, HOME=cwd and `env`.
inline cli_outcome run_tooluse(const std::vector<std::string>& args,
                               const std::map<std::string, std::string>& env,
                               const std::filesystem::path& cwd,
                               const std::string& stdin_path = "/dev/null") {
  std::vector<std::string> argv_s = {TOOLUSE_CLI_PATH};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s = {"PATH=/usr/bin:/bin", "HOME=" + cwd.string(),
                                    "XDG_CONFIG_HOME=" + (cwd / "config").string()};
  for (const auto& [k, v] : env) env_s.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  auto out_path = cwd / "stdout.txt", err_path = cwd / "stderr.txt";
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, stdin_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  pid_t pid = 0;
  cli_outcome r;
  if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data()) == 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&fa);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

/// run_tooluse runs the CLI with `args` in a fresh temporary folder (removed afterwards).
inline cli_outcome run_tooluse(const std::vector<std::string>& args) {
  temp_dir dir;
  return run_tooluse(args, {}, dir.path());
}

}  // namespace tooluse::testing

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>

namespace tooluse::testing {

/// background_tooluse runs the CLI as a long-lived process (a server) with stderr on a pipe the
/// test reads; the process is killed (SIGTERM) and reaped on destruction.
class background_tooluse {
 public:
  background_tooluse(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                     const std::map<std::string, std::string>& env = {}) {
    int fds[2];
    if (::pipe(fds) != 0) return;
    std::vector<std::string> argv_s = {TOOLUSE_CLI_PATH};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_s = {"PATH=/usr/bin:/bin", "HOME=" + cwd.string()};
    for (const auto& [k, v] : env) env_s.push_back(k + "=" + v);
    std::vector<char*> envp;
    for (auto& e : env_s) envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
    if (posix_spawn(&pid_, argv[0], &fa, nullptr, argv.data(), envp.data()) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&fa);
    ::close(fds[1]);
    err_fd_ = fds[0];
  }
  ~background_tooluse() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
    if (err_fd_ >= 0) ::close(err_fd_);
  }
  background_tooluse(const background_tooluse&) = delete;
  background_tooluse& operator=(const background_tooluse&) = delete;

  /// wait_for_line reads stderr until a line containing `needle` arrives and returns that line
  /// ("" after 30 s or at the end of stderr).
  std::string wait_for_line(const std::string& needle) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
      for (size_t nl; (nl = err_.find('\n', scanned_)) != std::string::npos;) {
        std::string line = err_.substr(scanned_, nl - scanned_);
        scanned_ = nl + 1;
        if (line.find(needle) != std::string::npos) return line;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return "";
      pollfd p{err_fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return "";
      char buf[4096];
      auto n = ::read(err_fd_, buf, sizeof buf);
      if (n <= 0) return "";
      err_.append(buf, static_cast<size_t>(n));
    }
  }
  const std::string& stderr_so_far() const { return err_; }

  /// signal sends `sig` to the process (e.g. SIGINT, as Ctrl-C would).
  void signal(int sig) {
    if (pid_ > 0) ::kill(pid_, sig);
  }
  /// wait reaps the process and returns its exit status (128 + N when killed by signal N); the
  /// rest of stderr is read into stderr_so_far().
  int wait() {
    if (pid_ <= 0) return -1;
    char buf[4096];
    for (ssize_t n; (n = ::read(err_fd_, buf, sizeof buf)) > 0;) err_.append(buf, static_cast<size_t>(n));
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  int err_fd_ = -1;
  std::string err_;
  size_t scanned_ = 0;
};

}  // namespace tooluse::testing
