// tooluse mcp serve: serve the registered tools over MCP (stdio or Streamable HTTP).
#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "cli.hpp"
#include "tooluse/auth/resource_server.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/transport.hpp"
#include "tooluse/mcp_store/shared_state.hpp"

namespace tooluse::cli {
namespace {

struct serve_options {
  registry_flags flags;
  bool stdio = false;
  std::string http;  ///< HOST:PORT
  std::string token;
  std::vector<std::string> allowed_hosts;
  bool yes = false;  ///< approve dangerous tools
  std::string store;  ///< --store (alias --task-store): SQLite file or postgresql:// URL
  std::vector<std::string> task_tools;  ///< --task-tool NAME[=optional|required]
  std::vector<std::string> resources;   ///< --resource FILE
  int threads = 0;  ///< --threads: HTTP I/O threads (0: the number of cores)
  // OAuth resource server (off unless --oauth-issuer is given)
  std::string oauth_issuer, oauth_resource, oauth_jwks_uri, oauth_introspection;
  std::string oauth_client_id, oauth_client_secret;
  std::vector<std::string> oauth_scopes, oauth_tool_scopes;
};

// oauth_hook makes the HTTP server an OAuth resource server (tooluse/auth/resource_server.hpp).
result<mcp::http_auth_hook> oauth_hook(const serve_options& o, const std::string& endpoint) {
  auth::resource_server_options ro{
      .resource = o.oauth_resource.empty() ? endpoint : o.oauth_resource,
      .issuer = o.oauth_issuer,
      .jwks_uri = o.oauth_jwks_uri,
      .introspection_endpoint = o.oauth_introspection,
      .introspection_client_id = o.oauth_client_id,
      .introspection_client_secret = o.oauth_client_secret,
      .required_scopes = o.oauth_scopes};
  for (const auto& ts : o.oauth_tool_scopes) {
    auto eq = ts.find('=');
    if (eq == std::string::npos || eq == 0)
      return fail(errc::invalid_argument,
                  "--oauth-tool-scope needs TOOL=SCOPE, got \"" + ts + "\"");
    ro.tool_scopes[ts.substr(0, eq)].push_back(ts.substr(eq + 1));
  }
  std::shared_ptr<auth::resource_server> rs;
  try {
    rs = std::make_shared<auth::resource_server>(std::move(ro));
  } catch (const std::invalid_argument& e) {
    return fail(errc::invalid_argument, e.what());
  }
  return mcp::http_auth_hook([rs](const mcp::http_auth_request& r) {
    auto d = rs->check(r.method, r.target, r.headers, r.body, r.is_endpoint);
    return mcp::http_auth_decision{.status = d.status,
                                   .headers = std::move(d.headers),
                                   .body = std::move(d.body),
                                   .content_type = d.content_type,
                                   .principal = std::move(d.principal)};
  });
}

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

// add_file_resources offers each file as a text resource (file:// URI), read when asked.
status add_file_resources(mcp::server& server, const std::vector<std::string>& files) {
  for (const auto& f : files) {
    std::error_code ec;
    auto path = std::filesystem::absolute(f, ec);
    if (ec || !std::filesystem::is_regular_file(path, ec))
      return fail(errc::invalid_argument, "mcp serve: --resource " + f + ": no such file; give a file to offer");
    const std::string uri = "file://" + path.string();
    server.add_resource(
        {.uri = uri, .name = path.filename().string(), .mime_type = "text/plain"},
        [path, uri](const std::string&, const json&, mcp::request_context&) -> result<std::vector<mcp::resource_contents>> {
          std::ifstream in(path, std::ios::binary);
          if (!in) return fail(errc::io_error, "cannot read " + path.string() + " (resource " + uri + ")");
          std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
          return std::vector<mcp::resource_contents>{{.uri = uri, .mime_type = "text/plain", .text = std::move(text)}};
        });
  }
  return {};
}

int serve(const serve_options& o) {
  if (o.stdio == !o.http.empty())
    return usage_error("mcp serve: give exactly one of --stdio and --http HOST:PORT");
  auto reg = make_registry(o.flags);
  if (!reg) return usage_error(reg.error().message);
  mcp::server_options so{.exec_options = {.approval = approval(o.yes)}};
  for (const auto& spec : o.task_tools) {
    auto eq = spec.find('=');
    std::string name = spec.substr(0, eq);
    auto support = eq == std::string::npos ? std::optional(mcp::task_support::optional)
                                           : mcp::parse_task_support(spec.substr(eq + 1));
    if (!support || *support == mcp::task_support::forbidden)
      return usage_error("mcp serve: --task-tool takes NAME, NAME=optional or NAME=required, not \"" +
                         spec + "\"");
    if (!(*reg)->find(name))
      return usage_error("mcp serve: --task-tool " + name + ": no such tool is served (see "
                         "`tooluse tools list`)");
    so.task_tools[name] = *support;
  }
  std::shared_ptr<mcp::session_store> sessions;
  if (!o.store.empty()) {
    // Tasks and (over HTTP) sessions in the store, shared with the other replicas that use it.
    auto shared = mcp_store::open_shared_state(o.store, {.on_error = [](const error& e) {
                                                  std::cerr << "tooluse: store: " << e.message << "\n";
                                                }});
    if (!shared) return report_error(exit_status::failed, "mcp serve: --store " + shared.error().message);
    so.tasks.store = shared->tasks;
    sessions = shared->sessions;
  }
  mcp::server server(
      {.name = "tooluse", .version = TOOLUSE_VERSION, .description = "tooluse built-in tools"},
      reg->get(), so);
  if (auto ok = add_file_resources(server, o.resources); !ok) return usage_error(ok.error().message);
  if (o.stdio) {
    // stdout carries only protocol messages; diagnostics go to stderr.
    auto ok = mcp::serve_stdio(server);
    return ok ? exit_status::ok : report_error(exit_status::failed, ok.error().message);
  }
  auto colon = o.http.rfind(':');
  if (colon == std::string::npos)
    return usage_error("mcp serve: --http needs HOST:PORT, e.g. 127.0.0.1:8080");
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
  mcp::http_options ho{.host = host,
                       .port = static_cast<unsigned short>(port),
                       .allowed_hosts = o.allowed_hosts,
                       .bearer_token = o.token,
                       .session_store = sessions};
  ho.threads = o.threads;
  if (!o.oauth_issuer.empty()) {
    if (port == 0 && o.oauth_resource.empty())
      return usage_error("mcp serve: --oauth-issuer needs a fixed port or --oauth-resource URL");
    std::string shown = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    auto hook = oauth_hook(o, "http://" + shown + ":" + std::to_string(port) + "/mcp");
    if (!hook) return usage_error("mcp serve: " + hook.error().message);
    ho.authorize = std::move(*hook);
  }
  mcp::http_server http(server, ho);
  if (auto ok = http.start(); !ok) return report_error(exit_status::failed, ok.error().message);
  if (host != "127.0.0.1" && host != "::1" && host != "localhost")
    std::cerr << "tooluse: warning: listening on " << host
              << ", reachable from other machines; use --token and --allowed-host\n";
  std::cerr << "tooluse: MCP endpoint " << http.url() << "\n";
  std::signal(SIGPIPE, SIG_IGN);
  http.wait();
  return 0;
}

void setup_mcp(CLI::App& app, app_state& state) {
  auto opts = std::make_shared<serve_options>();
  auto* mcp_cmd = app.add_subcommand("mcp", "Serve tools over the Model Context Protocol");
  mcp_cmd->require_subcommand(1);
  auto* s =
      mcp_cmd->add_subcommand("serve", "Serve the built-in tools to MCP clients (stdio or HTTP)");
  add_registry_flags(*s, opts->flags);
  s->add_flag("--stdio", opts->stdio,
              "Speak MCP on stdin/stdout (for Claude Desktop, Cursor, ...)");
  s->add_option("--http", opts->http, "Serve Streamable HTTP on HOST:PORT, endpoint /mcp");
  s->add_option("--task-tool", opts->task_tools,
                "Run a tool's calls as MCP tasks: NAME (for clients that support tasks) or "
                "NAME=required (only as tasks); repeatable. Tools tagged long-running are "
                "tasks without it");
  s->add_option("--store,--task-store", opts->store,
                "Keep sessions and task records in a SQLite FILE or a postgresql:// database: "
                "replicas given the same store serve each other's sessions (behind a load "
                "balancer), and finished tasks survive a restart (default: in memory)");
  s->add_option("--resource", opts->resources,
                "Offer FILE as a text resource (file:// URI, read when asked); repeatable");
  s->add_option("--token", opts->token, "Require 'Authorization: Bearer TOKEN' on HTTP requests");
  s->add_option("--threads", opts->threads,
                "HTTP I/O threads (default 0: one per core; 1 leaves a core to a load balancer or "
                "a load generator on the same machine)")
      ->check(CLI::Range(0, 256));
  s->add_option("--allowed-host", opts->allowed_hosts,
                "Host/Origin names accepted over HTTP (repeatable)");
  s->add_option("--oauth-issuer", opts->oauth_issuer,
                "Act as an OAuth resource server: accept tokens from this authorization server");
  s->add_option("--oauth-resource", opts->oauth_resource,
                "This server's public URL (token audience); default http://HOST:PORT/mcp");
  s->add_option("--oauth-jwks-uri", opts->oauth_jwks_uri,
                "The issuer's JWKS (default: from its metadata)");
  s->add_option("--oauth-introspection", opts->oauth_introspection,
                "RFC 7662 endpoint for opaque tokens");
  s->add_option("--oauth-client-id", opts->oauth_client_id, "Client id for introspection");
  s->add_option("--oauth-client-secret", opts->oauth_client_secret, "Its secret")
      ->envname("TOOLUSE_OAUTH_CLIENT_SECRET");
  s->add_option("--oauth-scope", opts->oauth_scopes, "A scope every request needs (repeatable)");
  s->add_option("--oauth-tool-scope", opts->oauth_tool_scopes,
                "TOOL=SCOPE: a scope calling TOOL needs (repeatable)");
  s->add_flag("--yes,-y", opts->yes,
              "Run dangerous tools (shell, file writes, ...) without approval");
  s->footer("Exit status: 0 the client disconnected, 1 serving failed, 2 bad usage.");
  s->callback([opts, &state] { state.action = [opts] { return serve(*opts); }; });
}

const command_registrar mcp_registrar(40, &setup_mcp);

}  // namespace
}  // namespace tooluse::cli
