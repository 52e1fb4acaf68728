// tooluse mcp serve: serve the registered tools over MCP (stdio or Streamable HTTP).
#include <sys/resource.h>

#include <csignal>
#include <iostream>

#include "cli.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/transport.hpp"

namespace tooluse::cli {
namespace {

struct serve_options {
  registry_flags flags;
  bool stdio = false;
  std::string http;  ///< HOST:PORT
  std::string token;
  std::vector<std::string> allowed_hosts;
  bool yes = false;  ///< approve dangerous tools
};

// approval is the policy of `mcp serve`: the client cannot be asked on a terminal (stdin is the
// protocol), so dangerous tools run only when the user started the server with --yes.
exec::approval_policy approval(bool yes) {
  return [yes](const exec::approval_request& r) {
    if (yes) return exec::approval_decision::approve();
    return exec::approval_decision::reject("tool \"" + r.definition.name +
                                           "\" is dangerous and the server was started without "
                                           "--yes; the user can restart it with --yes to allow it");
  };
}

int serve(const serve_options& o) {
  if (o.stdio == !o.http.empty()) return usage_error("mcp serve: give exactly one of --stdio and --http HOST:PORT");
  auto reg = make_registry(o.flags);
  if (!reg) return usage_error(reg.error().message);
  mcp::server server({.name = "tooluse", .version = TOOLUSE_VERSION,
                      .description = "tooluse built-in tools"},
                     reg->get(), {.exec_options = {.approval = approval(o.yes)}});
  if (o.stdio) {
    // stdout carries only protocol messages; diagnostics go to stderr.
    auto ok = mcp::serve_stdio(server);
    if (!ok) std::cerr << "tooluse: " << ok.error().message << "\n";
    return ok ? 0 : 1;
  }
  auto colon = o.http.rfind(':');
  if (colon == std::string::npos) return usage_error("mcp serve: --http needs HOST:PORT, e.g. 127.0.0.1:8080");
  int port = 0;
  try {
    port = std::stoi(o.http.substr(colon + 1));
  } catch (const std::exception&) {
    port = -1;
  }
  if (port < 0 || port > 65535) return usage_error("mcp serve: bad port in \"" + o.http + "\"");
  std::string host = o.http.substr(0, colon);
  if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  // Many clients (or many idle sockets) need descriptors: use the hard limit.
  if (rlimit lim{}; getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
  mcp::http_server http(server, {.host = host, .port = static_cast<unsigned short>(port),
                                 .allowed_hosts = o.allowed_hosts, .bearer_token = o.token});
  if (auto ok = http.start(); !ok) {
    std::cerr << "tooluse: " << ok.error().message << "\n";
    return 1;
  }
  if (host != "127.0.0.1" && host != "::1" && host != "localhost")
    std::cerr << "tooluse: warning: listening on " << host
              << ", reachable from other machines; use --token and --allowed-host\n";
  std::cerr << "tooluse: MCP endpoint " << http.url() << "\n";
  std::signal(SIGPIPE, SIG_IGN);
  http.wait();
  return 0;
}

void setup(CLI::App& app, app_state& state) {
  auto opts = std::make_shared<serve_options>();
  auto* mcp_cmd = app.add_subcommand("mcp", "Serve tools over the Model Context Protocol");
  mcp_cmd->require_subcommand(1);
  auto* s = mcp_cmd->add_subcommand("serve", "Serve the built-in tools to MCP clients (stdio or HTTP)");
  add_registry_flags(*s, opts->flags);
  s->add_flag("--stdio", opts->stdio, "Speak MCP on stdin/stdout (for Claude Desktop, Cursor, ...)");
  s->add_option("--http", opts->http, "Serve Streamable HTTP on HOST:PORT, endpoint /mcp");
  s->add_option("--token", opts->token, "Require 'Authorization: Bearer TOKEN' on HTTP requests");
  s->add_option("--allowed-host", opts->allowed_hosts, "Host/Origin names accepted over HTTP (repeatable)");
  s->add_flag("--yes,-y", opts->yes, "Run dangerous tools (shell, file writes, ...) without approval");
  s->footer("Exit status: 0 the client disconnected, 1 serving failed, 2 bad usage.");
  s->callback([opts, &state] { state.action = [opts] { return serve(*opts); }; });
}

const command_registrar reg(40, &setup);

}  // namespace
}  // namespace tooluse::cli
