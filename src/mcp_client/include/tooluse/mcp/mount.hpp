#pragma once
/// \file mount.hpp
/// tooluse::mcp::mounted_server, an MCP server's tools offered as tooluse tools: each server
/// tool `T` of server `S` becomes the registry tool `S__T` (characters the registry rejects
/// mapped to `_`), with its input schema, output schema, annotations and description kept
/// verbatim. A call forwards to the server (progress and cancellation included) and returns
/// its result; `notifications/tools/list_changed` refreshes the mounted set; a server that
/// crashed is restarted on the next call (once by default).

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/auth/oauth.hpp"
#include "tooluse/mcp/client.hpp"
#include "tooluse/mcp/client_config.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse::mcp {

/// mount_options tune how servers are connected and their tools registered.
struct mount_options {
  /// client is the base of each connection's options. Its on_tools_changed and on_closed are
  /// taken over by the mount; the other handlers (sampling, elicitation, roots, logging) are
  /// passed on.
  client_options client;
  /// separator joins the server name and the tool name.
  std::string separator = "__";
  /// include, when non-empty, keeps only the mounted tools with these (mounted) names.
  std::vector<std::string> include;
  /// on_log receives the servers' stderr lines and the mount's notices (restarts, skipped
  /// tools), already prefixed with "[server] ". Empty: written to our stderr. Never stdout.
  std::function<void(std::string_view line)> on_log;
  /// max_restarts is how many times a crashed server is started again (on the next call).
  int max_restarts = 1;
  /// shutdown_grace: stdio servers get this long after stdin closes, then after SIGTERM.
  std::chrono::milliseconds shutdown_grace{std::chrono::seconds(2)};
};

/// make_transport builds the transport a configured server needs (stdio child or Streamable
/// HTTP); `on_log` receives a stdio server's stderr lines (empty: our stderr, prefixed).
/// Errors: errc::invalid_argument for an unusable url.
result<std::unique_ptr<client_transport>> make_transport(
    const server_config& server, std::function<void(std::string_view)> on_log = {},
    std::chrono::milliseconds shutdown_grace = std::chrono::seconds(2));

/// make_authorizer is what make_transport attaches to an http server: nothing when "auth" is
/// false or a static Authorization header is configured; the token command when given; else
/// the OAuth client (tooluse/auth/oauth.hpp) with the user's token file, so tokens from
/// `tooluse mcp login` are used and refreshed, and client credentials are used when configured.
/// `token_file` empty: the default (auth::default_token_store_path()).
std::shared_ptr<auth::http_authorizer> make_authorizer(const server_config& server,
                                                       const std::string& token_file = "");

/// mounted_tool_name is the registry name of server tool `tool` of server `server`:
/// `server + separator + tool`, with characters outside [A-Za-z0-9_.-] replaced by `_` and,
/// when too long (over 128), shortened with a hash.
std::string mounted_tool_name(std::string_view server, std::string_view tool,
                              std::string_view separator = "__");

/// mounted_server is one connected server whose tools are in a registry. Destroying it (or
/// unmount()) removes its tools and stops the server. The registry must outlive it, or the
/// mount must be bound to the registry with bind_to_registry.
/// Thread-safety: the mounted tools may be called concurrently from any threads; refresh and
/// unmount may run concurrently with calls.
class mounted_server {
 public:
  /// mount connects to `server` and registers its tools in `registry`.
  /// Errors: the server cannot start or connect (message names it; for stdio, with its exit
  /// status and last stderr lines); listing its tools fails; errc::invalid_argument for a
  /// disabled server.
  static result<std::shared_ptr<mounted_server>> mount(tool_registry& registry,
                                                       server_config server,
                                                       mount_options options = {});
  ~mounted_server();
  mounted_server(const mounted_server&) = delete;
  mounted_server& operator=(const mounted_server&) = delete;

  /// name is the server's name (the config key).
  const std::string& name() const;
  /// tool_names returns the registry names of its tools now mounted, sorted.
  std::vector<std::string> tool_names() const;
  /// connection is the current client (nullptr while the server is down).
  std::shared_ptr<client> connection() const;
  /// refresh lists the server's tools again and updates the registry.
  /// Errors: the server is down, or the listing fails.
  status refresh();
  /// unmount removes the tools and stops the server; later calls of its tools fail.
  void unmount();
  /// detach forgets the registry without touching it (it is being destroyed); the server
  /// stays connected until this object is destroyed.
  void detach();

  struct state;
  explicit mounted_server(std::shared_ptr<state> s);

 private:
  std::shared_ptr<state> state_;
};

/// mount_servers mounts every enabled server of `config`, in order.
/// Errors: the first server that fails, prefixed with its name (the servers mounted before it
/// are unmounted).
result<std::vector<std::shared_ptr<mounted_server>>> mount_servers(
    tool_registry& registry, const client_config& config, const mount_options& options = {});

/// bind_to_registry keeps `mounts` alive as long as `registry`: when the registry is
/// destroyed they are detached and their servers stopped. For hosts that hand the registry
/// around alone (as the CLI does).
void bind_to_registry(tool_registry& registry, std::vector<std::shared_ptr<mounted_server>> mounts);

}  // namespace tooluse::mcp
