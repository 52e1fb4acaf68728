// prepare (the command line for a caller that keeps the process) and naming what ended a run.
#include "tooluse/sandbox/sandbox.hpp"

#include <signal.h>
#include <unistd.h>

#include <memory>
#include <utility>

#include "sandbox/cgroup.hpp"
#include "sandbox/egress.hpp"
#include "sandbox/filter.hpp"
#include "sandbox/launcher.hpp"
#include "sandbox/view.hpp"

namespace tooluse::sandbox {

prepared::prepared(prepared&& o) noexcept
    : argv(std::move(o.argv)),
      env(std::move(o.env)),
      seccomp_fd(std::exchange(o.seccomp_fd, -1)),
      init_fd(std::exchange(o.init_fd, -1)),
      resources(std::move(o.resources)) {}

prepared& prepared::operator=(prepared&& o) noexcept {
  if (this != &o) {
    if (seccomp_fd >= 0) ::close(seccomp_fd);
    argv = std::move(o.argv);
    env = std::move(o.env);
    seccomp_fd = std::exchange(o.seccomp_fd, -1);
    init_fd = std::exchange(o.init_fd, -1);
    resources = std::move(o.resources);
  }
  return *this;
}

prepared::~prepared() {
  if (seccomp_fd >= 0) ::close(seccomp_fd);
}

namespace {
// What a kept process needs for as long as it lives: its pids cgroup and its egress proxy.
struct kept_resources {
  std::shared_ptr<detail::pids_cgroup> cgroup;
  std::unique_ptr<detail::egress_proxy> proxy;
};
}  // namespace

result<prepared> prepare(const policy& p, const command& cmd, const prepare_options& options) {
  auto work = detail::resolve_work(cmd.work_dir);
  if (!work) return fail(work.error());
  auto kept = std::make_shared<kept_resources>();
  // A network allowlist: the host's egress proxy, kept with the process (prepared::resources).
  if (!p.allowed_hosts.empty()) {
    auto started = detail::egress_proxy::start(p.allowed_hosts);
    if (!started) return fail(started.error());
    kept->proxy = std::move(*started);
  }
  auto argv = detail::build_argv(p, cmd.argv, *work, options.die_with_parent, false,
                                 options.bwrap_path, kept->proxy ? kept->proxy->dir() : std::string());
  if (!argv) return fail(argv.error());
  auto init = detail::init_fd();
  if (!init) return fail(init.error());
  auto fd = detail::compiled_filter();
  if (!fd) return fail(fd.error());
  prepared out;
  out.init_fd = *init;
  // As root the kernel exempts the sandbox from RLIMIT_NPROC: a pids cgroup bounds it, joined by
  // the launcher before bubblewrap starts (the caller spawns without a hook of ours).
  if (p.max_processes) {
    auto cg = std::make_shared<detail::pids_cgroup>(detail::pids_cgroup::create(p.max_processes + 3));
    if (!cg->empty()) {
      argv->insert(argv->begin(), {detail::init_path_inside, "--outer", "--join", cg->procs_path(), "--"});
      kept->cgroup = cg;
    }
  }
  if (kept->cgroup || kept->proxy) out.resources = kept;
  out.argv = std::move(*argv);
  out.seccomp_fd = *fd;
  return out;
}

namespace {
bool contains(std::string_view s, std::string_view what) { return s.find(what) != s.npos; }
}  // namespace

// rlimits make a call fail (ENOMEM, EAGAIN, EMFILE, EFBIG, ENOSPC) or send a signal, so the exit
// status and the program's own error message are the evidence (design/sandbox.md, "Naming the
// limit").
limit exit_limit(int exit_code, std::string_view err) noexcept {
  if (exit_code == 128 + SIGXCPU) return limit::cpu_time;
  if (exit_code == 128 + SIGXFSZ) return limit::file_size;
  if (exit_code == 0) return limit::none;
  for (std::string_view m : {"MemoryError", "Cannot allocate memory", "bad_alloc", "out of memory",
                             "memory exhausted", "Out of memory"})
    if (contains(err, m)) return limit::memory;
  if (contains(err, "Cannot fork") || contains(err, "can't fork") ||
      (contains(err, "fork") && contains(err, "Resource temporarily unavailable")))
    return limit::processes;
  if (contains(err, "Too many open files")) return limit::open_files;
  if (contains(err, "File too large")) return limit::file_size;
  if (contains(err, "No space left on device")) return limit::tmp_size;
  return limit::none;
}

std::string limit_description(limit l, const policy& p) {
  auto n = [](std::size_t v, const char* unit) {
    return v ? std::to_string(v) + unit : std::string("unlimited");
  };
  switch (l) {
    case limit::memory: return "the memory limit (" + n(p.memory_limit_mb, " MB") + ")";
    case limit::cpu_time: return "the cpu time limit (" + n(p.cpu_seconds, " s") + ")";
    case limit::processes: return "the process limit (" + n(p.max_processes, "") + ")";
    case limit::file_size: return "the file size limit (" + n(p.max_file_size_mb, " MB") + ")";
    case limit::open_files: return "the open files limit (" + n(p.max_open_files, "") + ")";
    case limit::tmp_size: return "the /tmp size limit (" + n(p.tmp_size_mb, " MB") + ")";
    case limit::disk_space:
      return "the free disk space floor (" + n(p.min_free_disk_mb, " MB") + ")";
    case limit::timeout: return "the timeout";
    case limit::output_size: return "the output size limit";
    case limit::cancelled: return "a cancellation";
    case limit::none: break;
  }
  return "";
}

std::string outcome::describe() const {
  std::string s = "exit code " + std::to_string(exit_code);
  if (killed_by != limit::none) s += " (stopped: " + limit_detail + ")";
  return s;
}

}  // namespace tooluse::sandbox
