#pragma once
// Starting `tooluse` in the background for the crash tests: the pid, to wait for it to stop at
// a journal boundary (TOOLUSE_TEST_PAUSE_AT raises SIGSTOP) and kill -9 it.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace tooluse::testing {

inline pid_t spawn_tooluse(const std::vector<std::string>& args,
                           const std::map<std::string, std::string>& env,
                           const std::filesystem::path& cwd, const std::string& tag) {
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
  auto out = (cwd / (tag + ".out")).string(), err = (cwd / (tag + ".err")).string();
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  pid_t pid = -1;
  if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data()) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

/// wait_stopped waits until `pid` stops (true) or exits (false).
inline bool wait_stopped(pid_t pid) {
  int st = 0;
  if (waitpid(pid, &st, WUNTRACED) != pid) return false;
  return WIFSTOPPED(st);
}

/// kill9 kills `pid` with SIGKILL and reaps it.
inline void kill9(pid_t pid) {
  ::kill(pid, SIGKILL);
  int st = 0;
  waitpid(pid, &st, 0);
}

}  // namespace tooluse::testing
