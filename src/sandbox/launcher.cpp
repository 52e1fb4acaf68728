// The launcher's bytes in a sealed memfd, reopened read-only: a file open for writing cannot be
// exec'd (ETXTBSY), and the seals keep anyone from changing it.
#include "sandbox/launcher.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>

namespace tooluse::sandbox::detail {

extern const unsigned char init_program[];
extern const std::size_t init_program_size;

namespace {

result<int> make_init_fd() {
  const int rw = ::memfd_create("tooluse-sandbox-init", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (rw < 0) return fail(errc::io_error, std::string("memfd_create: ") + std::strerror(errno));
  std::size_t done = 0;
  while (done < init_program_size) {
    const ssize_t w = ::write(rw, init_program + done, init_program_size - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int e = errno;
      ::close(rw);
      return fail(errc::io_error, std::string("writing the sandbox launcher: ") + std::strerror(e));
    }
    done += static_cast<std::size_t>(w);
  }
  ::fchmod(rw, 0555);
  ::fcntl(rw, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
  const std::string self = "/proc/self/fd/" + std::to_string(rw);
  const int ro = ::open(self.c_str(), O_RDONLY | O_CLOEXEC);
  const int e = errno;
  ::close(rw);
  // Far above the descriptors a spawn maps (0-5), so a dup2 onto 3 never overwrites it.
  if (ro >= 0 && ro < 64) {
    const int high = ::fcntl(ro, F_DUPFD_CLOEXEC, 64);
    if (high >= 0) ::close(ro);
    if (high >= 0) return high;
  }
  if (ro < 0)
    return fail(errc::io_error, "reopening the sandbox launcher read-only (" + self +
                                    "): " + std::strerror(e) + "; is /proc mounted?");
  return ro;
}

}  // namespace

result<int> init_fd() {
  static const result<int> fd = make_init_fd();
  return fd;
}

}  // namespace tooluse::sandbox::detail
