// What the sandbox sees and may do, as bubblewrap arguments (design/sandbox.md, "The view").
#include "sandbox/view.hpp"

#include "sandbox/egress.hpp"
#include "sandbox/launcher.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>

namespace tooluse::sandbox::detail {
namespace fs = std::filesystem;
namespace {

constexpr const char* inside_path = "/usr/local/bin:/usr/bin:/bin";

// Secrets by name, hidden even when a host made them world-readable by mistake.
const char* const known_secrets[] = {"/etc/shadow",  "/etc/shadow-",   "/etc/gshadow",
                                     "/etc/gshadow-", "/etc/sudoers",  "/etc/sudoers.d",
                                     "/etc/ssh",      "/etc/ssl/private", "/etc/security/opasswd"};

std::vector<std::string> find_etc_masks() {
  std::vector<std::string> masks;
  std::error_code ec;
  for (const char* k : known_secrets)
    if (fs::exists(fs::symlink_status(k, ec))) masks.emplace_back(k);
  fs::recursive_directory_iterator it("/etc", fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    auto st = it->symlink_status(ec);
    if (ec || fs::is_symlink(st)) continue;
    const auto perms = st.permissions();
    const bool dir = fs::is_directory(st);
    bool world = (perms & fs::perms::others_read) != fs::perms::none &&
                 (!dir || (perms & fs::perms::others_exec) != fs::perms::none);
    bool named = false;
    for (const auto& m : masks) named = named || p == m;
    if (!world && !named) masks.push_back(p.string());
    if (dir && (!world || named)) it.disable_recursion_pending();
  }
  return masks;
}

void add(std::vector<std::string>& a, std::initializer_list<std::string> xs) {
  a.insert(a.end(), xs);
}

}  // namespace

const std::vector<std::string>& etc_masks() {
  static const std::vector<std::string> masks = find_etc_masks();
  return masks;
}

result<std::string> resolve_work(const fs::path& work_dir) {
  std::error_code ec;
  fs::path w = fs::canonical(work_dir.empty() ? fs::path(".") : work_dir, ec);
  if (ec || !fs::is_directory(w, ec))
    return fail(errc::invalid_argument,
                "sandbox work folder \"" + work_dir.string() + "\" is not an existing folder");
  for (const char* system : {"/", "/usr", "/etc", "/proc", "/dev", "/tmp"})
    if (w == system)
      return fail(errc::invalid_argument,
                  "sandbox work folder \"" + w.string() +
                      "\" would give the sandbox a system folder; use a project folder");
  return w.string();
}

result<std::vector<std::string>> build_argv(const policy& p, const std::vector<std::string>& argv,
                                            const std::string& work, bool die_with_parent,
                                            bool with_status, const std::string& bwrap_path,
                                            const std::string& egress_dir) {
  if (argv.empty()) return fail(errc::invalid_argument, "sandbox: nothing to run (empty argv)");
  if (!p.allowed_hosts.empty() && egress_dir.empty())
    return fail(errc::unsupported,
                "sandbox: a network allowlist (" + p.allowed_hosts.front() +
                    ", ...) needs the egress proxy, and none was started for this command "
                    "line; use sandbox::run or sandbox::prepare, which start it");
  if (!p.allowed_hosts.empty() && p.host_network)
    return fail(errc::invalid_argument,
                "sandbox: a network allowlist and host_network exclude each other; pick one");
  if (::access(bwrap_path.c_str(), X_OK) != 0)
    return fail(errc::permission_denied,
                "the sandbox cannot run: \"" + bwrap_path +
                    "\" is not installed (Debian: apt install bubblewrap); `tooluse sandbox "
                    "check` says what else is needed");
  std::vector<std::string> a = {bwrap_path, "--unshare-all", "--unshare-user", "--disable-userns"};
  if (p.host_network) a.push_back("--share-net");
  add(a, {"--uid", std::to_string(inside_uid), "--gid", std::to_string(inside_uid),
          "--hostname", "sandbox", "--ro-bind", "/usr", "/usr"});
  // Merged-/usr systems have /bin, /lib... as symlinks into /usr; others have real folders.
  std::error_code ec;
  for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    auto st = fs::symlink_status(top, ec);
    if (fs::is_symlink(st))
      add(a, {"--symlink", fs::read_symlink(top, ec).string(), top});
    else if (fs::is_directory(st))
      add(a, {"--ro-bind", top, top});
  }
  add(a, {"--ro-bind", "/etc", "/etc"});
  for (const auto& m : etc_masks()) {
    if (fs::is_directory(fs::symlink_status(m, ec)))
      add(a, {"--perms", "0000", "--tmpfs", m, "--remount-ro", m});
    else
      add(a, {"--ro-bind", "/dev/null", m});
  }
  // /dev and the new root are tmpfs that bwrap makes writable and as large as half the RAM:
  // both become read-only below, and /dev/shm and /tmp are size-capped tmpfs of their own.
  add(a, {"--dev", "/dev", "--proc", "/proc"});
  for (const char* t : {"/dev/shm", "/tmp"}) {
    if (p.tmp_size_mb) add(a, {"--size", std::to_string(p.tmp_size_mb << 20)});
    add(a, {"--tmpfs", t});
  }
  // The egress proxy's socket: the only way out when there is an allowlist (the network
  // namespace stays empty).
  if (!egress_dir.empty())
    add(a, {"--ro-bind", egress_dir, egress_dir_inside});
  for (const auto& r : p.read_paths) add(a, {"--ro-bind", r.string(), r.string()});
  for (const auto& w : p.write_paths) add(a, {"--bind", w.string(), w.string()});
  add(a, {"--bind", work, work, "--chdir", work, "--remount-ro", "/dev", "--remount-ro", "/"});
  if (die_with_parent) a.push_back("--die-with-parent");
  add(a, {"--new-session", "--cap-drop", "ALL", "--clearenv", "--setenv", "PATH", inside_path,
          "--setenv", "HOME", work, "--setenv", "LANG", "C.UTF-8", "--setenv", "TMPDIR", "/tmp"});
  if (!egress_dir.empty()) {
    // Programs that know only a TCP proxy (curl, pip, urllib) reach the proxy through the
    // launcher's bridge on the sandbox's own loopback.
    add(a, {"--setenv", "TOOLUSE_EGRESS_SOCKET", egress_socket_inside});
    const std::string proxy = "http://127.0.0.1:" + std::to_string(egress_port_inside);
    for (const char* v : {"HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"})
      add(a, {"--setenv", v, proxy});
  }
  for (const auto& e : p.env) {
    auto eq = e.find('=');
    if (eq == std::string::npos || eq == 0)
      return fail(errc::invalid_argument, "sandbox.env: \"" + e + "\" is not NAME=value");
    add(a, {"--setenv", e.substr(0, eq), e.substr(eq + 1)});
  }
  add(a, {"--seccomp", std::to_string(seccomp_child_fd)});
  if (with_status) add(a, {"--json-status-fd", std::to_string(status_child_fd)});
  // The launcher (init/main.cpp) comes last: Landlock over the same view (a process under
  // Landlock may not mount, so bubblewrap must be done), the egress bridge, then the rlimits:
  // RLIMIT_NPROC counts processes per user and namespace, so set outside it would count (and
  // refuse) the host user's own.
  add(a, {"--", init_path_inside, "--list", "/"});
  for (const char* ro : {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
                         "/proc"})
    add(a, {"--ro", ro});
  add(a, {"--dev", "/dev", "--rw", "/dev/shm", "--rw", "/tmp", "--rw", work});
  for (const auto& r : p.read_paths) add(a, {"--ro", r.string()});
  for (const auto& w : p.write_paths) add(a, {"--rw", w.string()});
  if (!egress_dir.empty())
    add(a, {"--ro", egress_dir_inside, "--bridge",
            std::to_string(egress_port_inside) + ":" + egress_socket_inside});
  auto rl = [&a](const char* name, std::size_t soft, std::size_t hard) {
    add(a, {"--limit", std::string(name) + "=" + std::to_string(soft) + ":" + std::to_string(hard)});
  };
  rl("core", 0, 0);
  if (p.memory_limit_mb) {
    rl("as", p.memory_limit_mb << 20, p.memory_limit_mb << 20);
    rl("data", p.memory_limit_mb << 20, p.memory_limit_mb << 20);
  }
  if (p.cpu_seconds) rl("cpu", p.cpu_seconds, p.cpu_seconds + 1);
  if (p.max_processes) rl("nproc", p.max_processes, p.max_processes);
  if (p.max_file_size_mb) rl("fsize", p.max_file_size_mb << 20, p.max_file_size_mb << 20);
  if (p.max_open_files) rl("nofile", p.max_open_files, p.max_open_files);
  a.push_back("--");
  a.insert(a.end(), argv.begin(), argv.end());
  return a;
}

}  // namespace tooluse::sandbox::detail
