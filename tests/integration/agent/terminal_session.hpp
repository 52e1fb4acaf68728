#pragma once
// terminal_session runs the CLI with stderr (and, if asked, stdin) on a pseudo-terminal
// (openpty), or with stderr on a pipe to compare what a script sees; stdout goes to a file. It
// reads stderr as the program writes. Without stdin on the pty, the pty is in raw mode so bytes
// arrive exactly as written; with it, the pty keeps its normal (cooked) settings, as a user's
// terminal would have them, and readline switches modes itself. Waits are for bytes (poll with
// a generous deadline), never sleeps.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <spawn.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "support/test_support.hpp"

namespace tooluse::testing {

/// session_options say where the program's stderr and stdin are.
struct session_options {
  bool stderr_on_terminal = true;        ///< false: stderr is a pipe
  bool stdin_on_terminal = false;        ///< needs stderr_on_terminal
  std::string stdin_path = "/dev/null";  ///< when stdin is not on the terminal
};

class terminal_session {
 public:
  terminal_session(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                   session_options o)
      : cwd_(cwd) {
    int slave = -1;
    if (o.stderr_on_terminal) {
      if (::openpty(&master_, &slave, nullptr, nullptr, nullptr) != 0) return;
      if (!o.stdin_on_terminal) {
        termios t{};
        ::tcgetattr(slave, &t);
        ::cfmakeraw(&t);  // no \n -> \r\n
        ::tcsetattr(slave, TCSANOW, &t);
      }
    } else {
      int fds[2];
      if (::pipe(fds) != 0) return;
      master_ = fds[0];
      slave = fds[1];
    }
    std::vector<std::string> argv_s = {TOOLUSE_CLI_PATH};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_s = {"PATH=/usr/bin:/bin", "HOME=" + cwd.string(), "TERM=xterm",
                                      "XDG_CONFIG_HOME=" + (cwd / "config").string(),
                                      "OPENAI_API_KEY=sk-test"};
    std::vector<char*> envp;
    for (auto& e : env_s) envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (o.stderr_on_terminal && o.stdin_on_terminal)
      posix_spawn_file_actions_adddup2(&fa, slave, 0);
    else
      posix_spawn_file_actions_addopen(&fa, 0, o.stdin_path.c_str(), O_RDONLY, 0);
    auto out = (cwd / "stdout.txt").string();
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, slave, 2);
    posix_spawn_file_actions_addclose(&fa, master_);
    posix_spawn_file_actions_addclose(&fa, slave);
    posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);  // the pty can become its terminal
    if (posix_spawn(&pid_, argv[0], &fa, &attr, argv.data(), envp.data()) != 0) pid_ = -1;
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    ::close(slave);
  }
  ~terminal_session() {
    if (pid_ > 0) finish();
    if (master_ >= 0) ::close(master_);
  }
  terminal_session(const terminal_session&) = delete;
  terminal_session& operator=(const terminal_session&) = delete;

  bool started() const { return pid_ > 0; }
  void type(std::string_view keys) { (void)!::write(master_, keys.data(), keys.size()); }

  /// wait_for reads until `needle` has appeared `times` times in the output (false after 30 s
  /// without it or at the end of the output).
  bool wait_for(std::string_view needle, int times = 1) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (count(needle) < times) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 || !read_some(static_cast<int>(left.count()))) return false;
    }
    return true;
  }

  /// finish reads to the end of the output and returns the exit status.
  int finish() {
    while (read_some(30000)) {
    }
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  const std::string& output() const { return output_; }
  std::string stdout_text() const { return read_file(cwd_ / "stdout.txt"); }

 private:
  int count(std::string_view needle) const {
    int n = 0;
    for (auto at = output_.find(needle); at != std::string::npos; at = output_.find(needle, at + 1))
      ++n;
    return n;
  }
  bool read_some(int timeout_ms) {
    pollfd p{.fd = master_, .events = POLLIN, .revents = 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return false;
    char buf[4096];
    auto n = ::read(master_, buf, sizeof buf);
    // 0 (pipe) or EIO (pty): every copy of the writing side is closed (the program ended).
    if (n <= 0) return false;
    output_.append(buf, static_cast<size_t>(n));
    return true;
  }

  std::filesystem::path cwd_;
  int master_ = -1;
  pid_t pid_ = -1;
  std::string output_;
};

}  // namespace tooluse::testing
