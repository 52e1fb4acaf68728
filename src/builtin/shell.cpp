// shell: a command in the sandbox (tooluse::sandbox), with a timeout and an output cap. Refuses
// to run unsandboxed unless explicitly allowed.
#include "tooluse/builtin/shell.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>

#include "builtin/code_run.hpp"
#include "builtin/tool_util.hpp"
#include "tooluse/sandbox/sandbox.hpp"
#include "tooluse/tools/typed.hpp"

extern char** environ;

namespace tooluse::builtin {
namespace fs = std::filesystem;
namespace {
using namespace detail;

struct run_output {
  int exit_code = -1;
  std::string out, err;
  bool timed_out = false, cancelled = false;
  std::size_t dropped = 0;
};

// run_process spawns argv in its own process group and collects its output until it exits,
// the deadline passes or `stop` is requested (then the whole group is killed).
result<run_output> run_process(const std::vector<std::string>& argv,
                               const std::vector<std::string>& env, const fs::path& cwd,
                               std::chrono::milliseconds timeout, std::size_t cap,
                               const std::stop_token& stop) {
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0)
    return fail(errc::io_error, "pipe: " + std::string(std::strerror(errno)));
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return fail(errc::io_error, "pipe: " + std::string(std::strerror(errno)));
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err_pipe[1], 2);
  posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // The command starts with no signal blocked, whatever the caller blocked for its signal
  // thread (tooluse run, worker).
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, args[0], &fa, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (rc != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return fail(errc::io_error, "cannot start \"" + argv[0] + "\": " + std::strerror(rc));
  }
  run_output r;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buf[16384];
  while (open_fds > 0) {
    if (stop.stop_requested()) r.cancelled = true;
    if (std::chrono::steady_clock::now() >= deadline) r.timed_out = true;
    if (r.cancelled || r.timed_out) {
      ::kill(-pid, SIGKILL);
      break;
    }
    // Wake up at least every 100 ms to notice a stop request.
    if (::poll(fds, 2, 100) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      std::string& dst = i == 0 ? r.out : r.err;
      std::size_t keep = std::min(static_cast<std::size_t>(n), cap - std::min(cap, dst.size()));
      dst.append(buf, keep);
      r.dropped += static_cast<std::size_t>(n) - keep;
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

const std::vector<std::string> plain_env = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"};

struct shell_state {
  shell_options options;
  fs::path work;
  std::once_flag probed;
  sandbox_status sandbox;
};

struct shell_args {
  std::string command;
  std::optional<double> timeout_seconds;  // default: shell_options::timeout
};
TOOLUSE_DESCRIBE(shell_args,
                 (command,
                  "Command line for /bin/sh -c, e.g. \"ls -la src\" or \"python3 -m pytest -q\"",
                  tooluse::min_length(1)),
                 (timeout_seconds, "Kill the command after this many seconds. Default 30",
                  tooluse::exclusive_minimum(0), tooluse::maximum(300)))

sandbox::policy shell_policy(const shell_options& o) {
  sandbox::policy p = o.policy;
  p.host_network = p.host_network || o.allow_network;
  return p;
}

// The unsandboxed path, only when the user allowed it explicitly (allow_unsandboxed).
tool_result run_unsandboxed(shell_state& s, const std::string& command,
                            std::chrono::milliseconds timeout, call_context& ctx) {
  auto r = run_process({"/bin/sh", "-c", command}, plain_env, s.work, timeout,
                       s.options.max_output_bytes, ctx.stop);
  if (!r) return error_result(r.error());
  std::string text = "exit code " + std::to_string(r->exit_code) + " (not sandboxed)";
  if (r->timed_out) text += " (killed: timed out)";
  if (r->cancelled) text += " (killed: cancelled)";
  if (!r->out.empty()) text += "\n--- stdout ---\n" + r->out;
  if (!r->err.empty()) text += "\n--- stderr ---\n" + r->err;
  if (r->dropped) text += "\n[" + std::to_string(r->dropped) + " bytes of output dropped]";
  tool_result res = text_and_data(text, {{"exit_code", r->exit_code},
                                         {"stdout", r->out},
                                         {"stderr", r->err},
                                         {"timed_out", r->timed_out},
                                         {"killed_by", r->timed_out ? json("timeout") : json(nullptr)},
                                         {"limit", nullptr},
                                         {"sandboxed", false},
                                         {"dropped_bytes", r->dropped}});
  res.is_error = r->exit_code != 0 || r->timed_out || r->cancelled;
  return res;
}

tool_result run_shell(shell_state& s, const shell_args& args, call_context& ctx) {
  if (args.command.empty()) return tool_result::error("give a command, e.g. \"ls -la\"");
  auto timeout = code_timeout(args.timeout_seconds, s.options.timeout, s.options.max_timeout);
  std::call_once(s.probed, [&] {
    shell_options o = s.options;
    o.work_dir = s.work;
    s.sandbox = probe_sandbox(o);
  });
  if (!s.sandbox.available) {
    if (s.options.allow_unsandboxed) return run_unsandboxed(s, args.command, timeout, ctx);
    return tool_result::error(
        "the shell tool is refused: the bubblewrap sandbox does not work here (" +
        s.sandbox.detail +
        "); install bubblewrap and allow unprivileged user namespaces (`tooluse sandbox check` "
        "says what is missing), or have the user enable unsandboxed runs explicitly");
  }
  return run_sandboxed(shell_policy(s.options), {"/bin/sh", "-c", args.command}, s.work,
                       {.timeout = timeout,
                        .max_output_bytes = s.options.max_output_bytes,
                        .stop = ctx.stop,
                        .bwrap_path = s.options.bwrap_path});
}

}  // namespace

sandbox_status probe_sandbox(const shell_options& options) {
  // Without a work folder, a fresh one of our own (the shared /tmp is refused as a work folder).
  std::error_code ec;
  std::string scratch;
  if (options.work_dir.empty()) {
    scratch = (fs::temp_directory_path(ec) / "tooluse-probe-XXXXXX").string();
    if (!::mkdtemp(scratch.data())) return {false, "mkdtemp: " + std::string(std::strerror(errno))};
  }
  auto r = sandbox::run(shell_policy(options),
                        {.argv = {"/bin/true"},
                         .work_dir = scratch.empty() ? options.work_dir : fs::path(scratch)},
                        {.timeout = std::chrono::seconds(10), .bwrap_path = options.bwrap_path});
  if (!scratch.empty()) ::rmdir(scratch.c_str());
  if (!r) return {false, r.error().message};
  if (!r->ok()) return {false, r->describe() + (r->err.empty() ? "" : ": " + r->err)};
  return {true, "bubblewrap works"};
}

void register_shell(tool_registry& registry, const shell_options& options) {
  auto state = std::make_shared<shell_state>();
  state->options = options;
  state->work = code_work_folder(options.work_dir, "shell");
  add_tool(
      registry,
      code_tool(
          "shell", "Run a shell command (sandboxed)", "shell", options.max_timeout,
          shell_policy(options),
          "Run a command with /bin/sh in the project folder and return its exit code, stdout and "
          "stderr. Use it to build, run tests, or inspect things no other tool covers; prefer "
          "file_read, file_search and file_list for looking at files.\n"
          "It runs in a sandbox: no network, the system is read-only, only the project folder is "
          "writable, /tmp is private and empty, memory is limited to " +
          std::to_string(options.policy.memory_limit_mb) +
          " MB; it is killed after timeout_seconds (default 30, "
          "max 300) and output beyond 64 KiB per stream is dropped. Every call needs the user's "
          "approval. Do not run interactive programs (there is no input).\n"
          "Example: {\"command\": \"make test 2>&1 | tail -20\", \"timeout_seconds\": 120}"),
      [state](const shell_args& a, call_context& ctx) { return run_shell(*state, a, ctx); });
}

}  // namespace tooluse::builtin
