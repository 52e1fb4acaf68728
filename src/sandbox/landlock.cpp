// Landlock applied with raw system calls: the structures are declared here because Debian 12's
// <linux/landlock.h> stops at ABI 2 while the kernels it runs on reach 6 and more, and each ABI
// adds rights that must be handled for the ruleset to cover them (truncate, device ioctls).
#include "sandbox/landlock.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "tooluse/sandbox/check.hpp"

namespace tooluse::sandbox::detail {
namespace {

struct ruleset_attr {
  std::uint64_t handled_access_fs;
};
struct path_beneath_attr {
  std::uint64_t allowed_access;
  std::int32_t parent_fd;
} __attribute__((packed));
constexpr int rule_path_beneath = 1;

// The rights, by the ABI that introduced them.
constexpr std::uint64_t execute = 1ULL << 0, write_file = 1ULL << 1, read_file = 1ULL << 2,
                        read_dir = 1ULL << 3;
constexpr std::uint64_t abi1_all = (1ULL << 13) - 1;  // execute .. make_sym
constexpr std::uint64_t refer = 1ULL << 13, truncate = 1ULL << 14, ioctl_dev = 1ULL << 15;
constexpr std::uint64_t file_rights = execute | write_file | read_file | truncate | ioctl_dev;

std::uint64_t handled_for(int abi) {
  std::uint64_t h = abi1_all;
  if (abi >= 2) h |= refer;
  if (abi >= 3) h |= truncate;
  if (abi >= 5) h |= ioctl_dev;
  return h;
}

tl::unexpected<error> sys_fail(const std::string& what) {
  return fail(errc::io_error, "landlock: " + what + ": " + std::strerror(errno));
}

}  // namespace

result<int> apply_landlock(const std::vector<landlock_rule>& rules) {
  const int abi = landlock_abi();
  if (abi <= 0) return 0;
  const std::uint64_t handled = handled_for(abi);
  ruleset_attr attr{handled};
  const int rs = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0));
  if (rs < 0) return sys_fail("create_ruleset");
  for (const auto& r : rules) {
    const int fd = ::open(r.path.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) continue;  // not on this host
    struct stat st {};
    ::fstat(fd, &st);
    std::uint64_t allowed = r.write ? handled : (execute | read_file | read_dir);
    if (!S_ISDIR(st.st_mode)) allowed &= file_rights;
    allowed &= handled;
    path_beneath_attr pb{allowed, fd};
    const long rc = ::syscall(SYS_landlock_add_rule, rs, rule_path_beneath, &pb, 0);
    ::close(fd);
    if (rc != 0) {
      ::close(rs);
      return sys_fail("add_rule " + r.path);
    }
  }
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return sys_fail("no_new_privs");
  const long rc = ::syscall(SYS_landlock_restrict_self, rs, 0);
  ::close(rs);
  if (rc != 0) return sys_fail("restrict_self");
  return abi;
}

}  // namespace tooluse::sandbox::detail
