#pragma once
// The egress proxy: the only way out of a sandbox with a network allowlist (design/sandbox.md,
// "Network allowlist"). The sandbox keeps its own network namespace (no route out); the host
// runs an HTTP proxy on a Unix socket bound into it, which connects only to allowed host names.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/result.hpp"

namespace tooluse::sandbox::detail {

/// egress_socket_inside is where the proxy's socket appears inside the sandbox.
inline constexpr const char* egress_dir_inside = "/run/tooluse";
inline constexpr const char* egress_socket_inside = "/run/tooluse/egress.sock";

/// host_allowed: `host` equals an entry (case-insensitive), or an entry "*.example.com" and host
/// is a subdomain of example.com.
bool host_allowed(const std::vector<std::string>& allowed, std::string_view host);

/// egress_proxy serves HTTP CONNECT (and absolute-form plain HTTP requests) on a Unix socket in
/// a private folder, one thread per connection, until destroyed (which closes every connection
/// and joins its threads). A host not in the list gets 403 with a message naming it.
class egress_proxy {
 public:
  /// start listens. Errors: errc::io_error (socket, folder).
  static result<std::unique_ptr<egress_proxy>> start(std::vector<std::string> allowed);
  ~egress_proxy();
  egress_proxy(const egress_proxy&) = delete;
  egress_proxy& operator=(const egress_proxy&) = delete;
  /// dir is the host folder that holds the socket "egress.sock"; bind it at egress_dir_inside.
  const std::string& dir() const;

  struct impl;

 private:
  explicit egress_proxy(std::unique_ptr<impl> i);
  std::unique_ptr<impl> impl_;
};

}  // namespace tooluse::sandbox::detail
