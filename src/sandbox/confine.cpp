// confine: the sandbox built from inside, for a worker that is a fork of the host (design/
// sandbox.md, "Workers"). The order matters: namespaces first (the uid map needs the user
// namespace, mounts need its capabilities), then the view while capabilities last, then the
// pid namespace's init, then what removes rights for good: Landlock, capabilities, the filter,
// rlimits.
#include "tooluse/sandbox/confine.hpp"

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/mount.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sandbox/filter.hpp"
#include "sandbox/landlock.hpp"
#include "sandbox/view.hpp"

namespace tooluse::sandbox {
namespace fs = std::filesystem;
namespace {

// Hidden behind an empty read-only tmpfs: where users' and services' data lives.
const char* const hidden_dirs[] = {"/home", "/root", "/run", "/var", "/srv",  "/mnt",
                                   "/media", "/opt", "/boot", "/sys", "/snap", "/lost+found"};
const char* const devices[] = {"null", "zero", "full", "random", "urandom"};

tl::unexpected<error> sys_fail(errc code, const std::string& what) {
  return fail(code, "sandbox: " + what + ": " + std::strerror(errno));
}

bool write_text(const char* path, const std::string& text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

// VmSize and VmData in bytes: a worker is a copy of its parent, so its memory limit counts
// from what it already maps (design/sandbox.md, "Workers").
// Read with one read(2), no stream: this runs in every fresh worker.
std::pair<rlim_t, rlim_t> mapped_now() {
  rlim_t vm = 0, data = 0;
  const int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {vm, data};
  char buf[4096];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return {vm, data};
  buf[n] = '\0';
  if (const char* at = std::strstr(buf, "\nVmSize:")) vm = std::strtoull(at + 8, nullptr, 10) << 10;
  if (const char* at = std::strstr(buf, "\nVmData:")) data = std::strtoull(at + 8, nullptr, 10) << 10;
  return {vm, data};
}

bool under(const fs::path& p, const fs::path& dir) {
  auto rel = p.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

// A policy path, held open while the folders above it are covered, then bound back at its own
// path (it may be under /tmp or /home, which the view replaces).
struct kept_path {
  std::string path;
  int fd;
  bool write;
};

status bind_back(const kept_path& k) {
  std::error_code ec;
  struct stat st {};
  ::fstat(k.fd, &st);
  if (S_ISDIR(st.st_mode))
    fs::create_directories(k.path, ec);
  else if (!fs::exists(k.path, ec))
    ::close(::open(k.path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
  const std::string from = "/proc/self/fd/" + std::to_string(k.fd);
  if (::mount(from.c_str(), k.path.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0)
    return sys_fail(errc::io_error, "bind the policy path " + k.path);
  return {};
}

status mount_tmpfs(const char* where, const std::string& options, unsigned long flags = 0) {
  if (::mount("tmpfs", where, "tmpfs", MS_NOSUID | MS_NODEV | flags, options.c_str()) != 0)
    return sys_fail(errc::io_error, std::string("mount a tmpfs on ") + where);
  return {};
}

status minimal_dev(const policy& p) {
  int fds[std::size(devices)];
  for (std::size_t i = 0; i < std::size(devices); ++i)
    fds[i] = ::open(("/dev/" + std::string(devices[i])).c_str(), O_PATH | O_CLOEXEC);
  if (auto s = mount_tmpfs("/dev", "mode=0755,size=64k"); !s) return s;
  for (std::size_t i = 0; i < std::size(devices); ++i) {
    if (fds[i] < 0) continue;
    const std::string at = "/dev/" + std::string(devices[i]);
    ::close(::open(at.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0666));
    const std::string from = "/proc/self/fd/" + std::to_string(fds[i]);
    const bool ok = ::mount(from.c_str(), at.c_str(), nullptr, MS_BIND, nullptr) == 0;
    ::close(fds[i]);
    if (!ok) return sys_fail(errc::io_error, "bind " + at);
  }
  ::mkdir("/dev/shm", 01777);
  std::string size = p.tmp_size_mb ? ",size=" + std::to_string(p.tmp_size_mb << 20) : "";
  return mount_tmpfs("/dev/shm", "mode=1777" + size);
}

// Without mount_setattr (kernels before 5.12, or a container's filter that refuses it): remount
// each mount read-only from /proc/self/mountinfo, keeping the flags a lower user namespace
// locked (nosuid, nodev, noexec), except the writable ones and what lies under them.
status remount_read_only(const std::vector<std::string>& writable) {
  std::ifstream in("/proc/self/mountinfo");
  for (std::string line; std::getline(in, line);) {
    std::istringstream f(line);
    std::string id, parent, dev, root, at, options;
    f >> id >> parent >> dev >> root >> at >> options;
    bool keep_rw = false;
    for (const auto& w : writable) keep_rw = keep_rw || at == w || under(at, w);
    if (keep_rw) continue;
    unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID;
    if (options.find("nodev") != std::string::npos) flags |= MS_NODEV;
    if (options.find("noexec") != std::string::npos) flags |= MS_NOEXEC;
    if (options.find("noatime") != std::string::npos) flags |= MS_NOATIME;
    // A mount hidden under a cover cannot be reached by its path any more, nor by the sandbox.
    if (::mount(nullptr, at.c_str(), nullptr, flags, nullptr) != 0 && errno != ENOENT &&
        errno != ENOTDIR && errno != EACCES)
      return sys_fail(errc::io_error, "make the system read-only (remount " + at + ")");
  }
  return {};
}

// The view, while this process still has the capabilities of its new user namespace. Covers
// are writable until the policy paths are bound back into them; then everything is made
// read-only but /tmp, /dev/shm and the write paths.
status make_view(const policy& p) {
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    return sys_fail(errc::io_error, "make mounts private");
  std::vector<kept_path> kept;
  auto keep = [&](const fs::path& x, bool write) -> status {
    const int fd = ::open(x.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) return sys_fail(errc::invalid_argument, "open the policy path " + x.string());
    kept.push_back({x.string(), fd, write});
    return {};
  };
  status s;
  for (const auto& r : p.read_paths) s = s ? keep(r, false) : s;
  for (const auto& w : p.write_paths) s = s ? keep(w, true) : s;
  for (const char* d : hidden_dirs) {
    std::error_code ec;
    if (s && fs::is_directory(fs::symlink_status(d, ec))) s = mount_tmpfs(d, "mode=0755,size=64k");
  }
  for (const auto& m : detail::etc_masks()) {
    if (!s) break;
    std::error_code ec;
    const bool dir = fs::is_directory(fs::symlink_status(m, ec));
    if (dir ? !mount_tmpfs(m.c_str(), "mode=0000,size=4k", MS_RDONLY)
            : ::mount("/dev/null", m.c_str(), nullptr, MS_BIND, nullptr) != 0)
      s = sys_fail(errc::io_error, "hide " + m);
  }
  if (s) s = minimal_dev(p);
  const std::string size = p.tmp_size_mb ? ",size=" + std::to_string(p.tmp_size_mb << 20) : "";
  if (s) s = mount_tmpfs("/tmp", "mode=1777" + size);
  for (const auto& k : kept) s = s ? bind_back(k) : s;
  for (const auto& k : kept) ::close(k.fd);
  if (!s) return s;
  std::vector<std::string> writable = {"/tmp", "/dev/shm"};
  for (const auto& w : p.write_paths) writable.push_back(w.string());
  mount_attr ro{.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID};
  if (::syscall(SYS_mount_setattr, -1, "/", AT_RECURSIVE, &ro, sizeof ro) != 0)
    return errno == ENOSYS || errno == EPERM ? remount_read_only(writable)
                                             : sys_fail(errc::io_error, "make the system read-only");
  mount_attr rw{.attr_clr = MOUNT_ATTR_RDONLY};
  for (const auto& w : writable)
    if (::syscall(SYS_mount_setattr, -1, w.c_str(), AT_RECURSIVE, &rw, sizeof rw) != 0)
      return sys_fail(errc::io_error, "make " + w + " writable");
  return {};
}

[[noreturn]] void relay(pid_t child) {
  int st = 0;
  while (::waitpid(child, &st, 0) < 0 && errno == EINTR) {
  }
  ::_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

status drop_capabilities() {
  for (int c = 0; c <= 63; ++c)  // capabilities are numbered without gaps: EINVAL past the last
    if (::prctl(PR_CAPBSET_DROP, c, 0, 0, 0) != 0 && errno == EINVAL) break;
  ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  __user_cap_header_struct h{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct d[2] = {};
  if (::syscall(SYS_capset, &h, d) != 0) return sys_fail(errc::io_error, "drop capabilities");
  return {};
}

status set_limits(const policy& p, std::pair<rlim_t, rlim_t> base) {
  auto set = [](int which, rlim_t soft, rlim_t hard) {
    rlimit r{soft, hard};
    return ::setrlimit(which, &r) == 0;
  };
  bool ok = set(RLIMIT_CORE, 0, 0);
  if (p.memory_limit_mb) {
    const rlim_t mem = static_cast<rlim_t>(p.memory_limit_mb) << 20;
    ok = ok && set(RLIMIT_AS, base.first + mem, base.first + mem) &&
         set(RLIMIT_DATA, base.second + mem, base.second + mem);
  }
  if (p.cpu_seconds) ok = ok && set(RLIMIT_CPU, p.cpu_seconds, p.cpu_seconds + 1);
  if (p.max_processes) ok = ok && set(RLIMIT_NPROC, p.max_processes, p.max_processes);
  if (p.max_file_size_mb)
    ok = ok && set(RLIMIT_FSIZE, p.max_file_size_mb << 20, p.max_file_size_mb << 20);
  if (p.max_open_files) ok = ok && set(RLIMIT_NOFILE, p.max_open_files, p.max_open_files);
  if (!ok) return sys_fail(errc::io_error, "set the rlimits");
  return {};
}

std::vector<detail::landlock_rule> landlock_rules(const policy& p) {
  std::vector<detail::landlock_rule> r;
  for (const char* d : {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
                        "/proc", "/dev/zero", "/dev/random", "/dev/urandom"})
    r.push_back({d, false});
  for (const char* d : {"/tmp", "/dev/shm", "/dev/null", "/dev/full"}) r.push_back({d, true});
  for (const auto& x : p.read_paths) r.push_back({x.string(), false});
  for (const auto& x : p.write_paths) r.push_back({x.string(), true});
  return r;
}

void set_environment(const policy& p) {
  ::clearenv();
  ::setenv("PATH", "/usr/local/bin:/usr/bin:/bin", 1);
  ::setenv("HOME", "/tmp", 1);
  ::setenv("LANG", "C.UTF-8", 1);
  ::setenv("TMPDIR", "/tmp", 1);
  for (const auto& e : p.env)
    if (auto eq = e.find('='); eq != std::string::npos && eq > 0)
      ::setenv(e.substr(0, eq).c_str(), e.substr(eq + 1).c_str(), 1);
}

}  // namespace

void prepare_confine() {
  (void)detail::etc_masks();
  (void)detail::prepare_filter();  // an error shows again, with its message, at load_filter
}

result<confinement> confine(const policy& p) {
  if (!p.allowed_hosts.empty())
    return fail(errc::unsupported, "sandbox: a network allowlist needs the egress proxy, which "
                                   "this version does not have; use no network");
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  const auto base = mapped_now();
  const int flags = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS |
                    (p.host_network ? 0 : CLONE_NEWNET);
  if (::unshare(flags) != 0)
    return sys_fail(errc::permission_denied,
                    "cannot make the namespaces (unshare); `tooluse sandbox check` says what to "
                    "enable (unprivileged user namespaces)");
  const std::string inside = std::to_string(detail::inside_uid);
  if (!write_text("/proc/self/setgroups", "deny") ||
      !write_text("/proc/self/uid_map", inside + " " + std::to_string(uid) + " 1") ||
      !write_text("/proc/self/gid_map", inside + " " + std::to_string(gid) + " 1"))
    return sys_fail(errc::permission_denied, "map uid " + inside + " in the user namespace");
  ::sethostname("sandbox", 7);
  if (auto s = make_view(p); !s) return fail(s.error());
  // The pid namespace begins with the next child: it is pid 1, the init that holds the
  // namespace; the one after it runs the code, so a signal of the kernel's (SIGXCPU, SIGSEGV)
  // is not ignored as pid 1's would be.
  for (int level = 0; level < 2; ++level) {
    const pid_t child = ::fork();
    if (child < 0) return sys_fail(errc::io_error, "fork");
    if (child > 0) relay(child);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  }
  confinement c;
  c.fresh_proc = ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0;
  if (!c.fresh_proc)  // a container's masked /proc forbids a new one: then none at all
    if (auto s = mount_tmpfs("/proc", "mode=0555,size=4k", MS_RDONLY); !s) return fail(s.error());
  const fs::path cwd = p.write_paths.empty() ? fs::path("/tmp") : p.write_paths.front();
  if (::chdir(cwd.c_str()) != 0) return sys_fail(errc::io_error, "enter " + cwd.string());
  auto abi = detail::apply_landlock(landlock_rules(p));
  if (!abi) return fail(abi.error());
  c.landlock_abi = *abi;
  if (auto s = drop_capabilities(); !s) return fail(s.error());
  set_environment(p);
  if (auto s = detail::load_filter(); !s) return fail(s.error());
  if (auto s = set_limits(p, base); !s) return fail(s.error());
  return c;
}

}  // namespace tooluse::sandbox
