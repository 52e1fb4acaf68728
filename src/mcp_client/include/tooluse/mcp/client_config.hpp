#pragma once
/// \file client_config.hpp
/// tooluse::mcp::client_config, the MCP servers a client connects to, read from the
/// `mcpServers` JSON that Claude Desktop, Cursor and most MCP hosts use:
///
///   {"mcpServers": {
///     "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"],
///                "env": {"MEMORY_FILE_PATH": "${HOME}/memory.json"}},
///     "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer
///     ${TOKEN}"}}, "old": {"command": "old-server", "disabled": true}}}
///
/// `${VAR}` in env and header values (and in url, command, args, cwd) is replaced by the
/// variable from our environment, so secrets stay out of the file; `${VAR:-default}` gives a
/// default. See docs/mcp-client-cli.md.

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"
#include "tooluse/sandbox/policy.hpp"

namespace tooluse::mcp {

/// server_transport_kind is how a configured server is reached.
enum class server_transport_kind { stdio, http };

/// server_auth is an http server's "auth" object: how to obtain tokens when it answers 401.
///   "auth": {"clientId": "...", "clientSecret": "${SECRET}", "scope": "read write",
///            "grant": "client_credentials", "privateKeyFile": "key.pem",
///            "tokenCommand": "my-cli print-token"}
/// Without it, tokens saved by `tooluse mcp login URL` are used (and refreshed). "auth": false
/// turns OAuth off for the server.
struct server_auth {
  bool enabled = true;
  std::string grant;  ///< "" or "authorization_code" (stored login), "client_credentials"
  std::string client_id, client_secret, scope;
  std::string private_key_file;  ///< private_key_jwt client authentication
  std::string token_command;     ///< prints a bearer token; run again on 401
};

/// server_config is one entry of `mcpServers`.
struct server_config {
  std::string name;  ///< the key in `mcpServers`; the prefix of its tools' names
  server_transport_kind transport = server_transport_kind::stdio;
  std::vector<std::string> command;            ///< stdio: the program, then its arguments
  std::map<std::string, std::string> env;      ///< stdio: variables added to the environment
  std::string cwd;                             ///< stdio: working folder; empty: ours
  std::string url;                             ///< http: the Streamable HTTP endpoint
  std::map<std::string, std::string> headers;  ///< http: extra request headers
  server_auth auth;                            ///< http: OAuth / token settings
  bool disabled = false;                       ///< "disabled": true; mounting skips it
  /// stdio: "sandbox": true (the default policy) or {policy fields}; runs the server in the
  /// sandbox (docs/sandbox.md).
  std::optional<sandbox::policy> sandbox;
};

/// client_config is every configured server, in the file's order.
struct client_config {
  std::vector<server_config> servers;
};

/// variable_lookup returns an environment variable's value, or nullopt when it is unset.
using variable_lookup = std::function<std::optional<std::string>(std::string_view name)>;

/// environment_lookup reads the process environment (getenv).
variable_lookup environment_lookup();

/// expand_variables replaces `${NAME}` and `${NAME:-default}` in `text`; `$$` is a literal `$`.
/// Errors: errc::not_found naming the variable when it is unset and has no default;
/// errc::invalid_argument for an unterminated `${`.
result<std::string> expand_variables(std::string_view text, const variable_lookup& lookup);

/// parse_client_config reads the `mcpServers` shape (a top-level `servers` object, as VS Code
/// writes, is accepted too). "type" may be "stdio", "http" or "streamable-http"; without it,
/// `command` means stdio and `url` means http.
/// Errors: errc::invalid_argument naming the server and the field (e.g. `server "memory":
/// "args" must be an array of strings`); errc::not_found for an unset `${VAR}`;
/// errc::unsupported for "type": "sse".
result<client_config> parse_client_config(const json& config,
                                          const variable_lookup& lookup = environment_lookup());

/// load_client_config reads and parses a config file.
/// Errors: errc::io_error when it cannot be read; errc::parse_error for bad JSON (with the
/// file's name); otherwise as parse_client_config, prefixed with the file's name.
result<client_config> load_client_config(const std::filesystem::path& path,
                                         const variable_lookup& lookup = environment_lookup());

}  // namespace tooluse::mcp
