// client_config: the `mcpServers` JSON shape, with ${VAR} expansion.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tooluse/describe.hpp"
#include "tooluse/mcp/client_config.hpp"

namespace tooluse::mcp {
namespace {

bool is_var_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// One server's entry as written; decoded with root `mcpServers.NAME`, so a field of the wrong
// type reads `mcpServers.github.command: expected string, got integer 3`. Unknown fields are
// ignored (other clients' settings share the file).
struct auth_entry {
  std::optional<std::string> grant;
  std::optional<std::string> client_id;
  std::optional<std::string> client_secret;
  std::optional<std::string> scope;
  std::optional<std::string> private_key_file;
  std::optional<std::string> token_command;
};
TOOLUSE_WIRE(auth_entry, (grant), (client_id, "clientId"), (client_secret, "clientSecret"),
             (scope), (private_key_file, "privateKeyFile"), (token_command, "tokenCommand"))

struct server_entry {
  std::optional<bool> disabled;
  std::optional<std::string> type;
  std::optional<std::string> command;
  std::optional<std::vector<std::string>> args;
  std::optional<std::map<std::string, std::string>> env;
  std::optional<std::string> cwd;
  std::optional<std::string> url;
  std::optional<std::map<std::string, std::string>> headers;
  std::optional<json> auth;     ///< an auth_entry, or a boolean
  std::optional<json> sandbox;  ///< true, false or policy fields (stdio)
};
TOOLUSE_WIRE(server_entry, (disabled), (type), (command), (args), (env), (cwd), (url), (headers),
             (auth), (sandbox))

// field_path is `base.field`, or `base["odd key"]`.
std::string field_path(std::string base, std::string_view field) {
  tooluse::detail::path_push(base, field);
  return base;
}

tl::unexpected<error> path_error(const std::string& path, const std::string& what) {
  return fail(errc::invalid_argument, path + ": " + what);
}

// expand expands ${VAR}s in the value at `path`, naming it in the error.
result<std::string> expand(const std::string& value, const std::string& path,
                           const variable_lookup& lookup) {
  auto out = expand_variables(value, lookup);
  if (!out) return fail(out.error().code, path + ": " + out.error().message);
  return out;
}

result<std::map<std::string, std::string>> expand_map(const std::map<std::string, std::string>& in,
                                                      const std::string& path,
                                                      const variable_lookup& lookup) {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : in) {
    auto value = expand(v, field_path(path, k), lookup);
    if (!value) return fail(value.error());
    out[k] = std::move(*value);
  }
  return out;
}

status parse_stdio(const server_entry& e, const std::string& at, server_config& s,
                   const variable_lookup& lookup) {
  if (!e.command) return path_error(at, "missing \"command\" (stdio servers need one)");
  auto command = expand(*e.command, at + ".command", lookup);
  if (!command) return fail(command.error());
  if (command->empty()) return path_error(at + ".command", "is empty");
  s.command.push_back(*command);
  const auto args = e.args.value_or(std::vector<std::string>{});
  for (std::size_t i = 0; i < args.size(); ++i) {
    auto arg = expand(args[i], at + ".args[" + std::to_string(i) + "]", lookup);
    if (!arg) return fail(arg.error());
    s.command.push_back(*arg);
  }
  if (e.env) {
    auto env = expand_map(*e.env, at + ".env", lookup);
    if (!env) return fail(env.error());
    s.env = std::move(*env);
  }
  if (e.cwd) {
    auto cwd = expand(*e.cwd, at + ".cwd", lookup);
    if (!cwd) return fail(cwd.error());
    s.cwd = *cwd;
  }
  if (e.sandbox && !(e.sandbox->is_boolean() && !e.sandbox->get<bool>())) {
    auto policy = sandbox::parse_policy(*e.sandbox);
    if (!policy) return fail(errc::invalid_argument, at + "." + policy.error().message);
    s.sandbox = std::move(*policy);
  }
  return {};
}

status parse_http(const server_entry& e, const std::string& at, server_config& s,
                  const variable_lookup& lookup) {
  if (!e.url) return path_error(at, "missing \"url\" (http servers need one)");
  if (e.sandbox && !(e.sandbox->is_boolean() && !e.sandbox->get<bool>()))
    return path_error(at + ".sandbox", "applies to stdio servers only (an http server runs elsewhere)");
  auto url = expand(*e.url, at + ".url", lookup);
  if (!url) return fail(url.error());
  if (url->rfind("http://", 0) != 0 && url->rfind("https://", 0) != 0)
    return path_error(at + ".url", "must start with http:// or https://, not \"" + *url + "\"");
  s.url = *url;
  if (e.headers) {
    auto headers = expand_map(*e.headers, at + ".headers", lookup);
    if (!headers) return fail(headers.error());
    s.headers = std::move(*headers);
  }
  if (!e.auth) return {};
  if (e.auth->is_boolean()) {
    s.auth.enabled = e.auth->get<bool>();
    return {};
  }
  if (!e.auth->is_object())
    return path_error(at + ".auth", "expected object or false, got " + tooluse::detail::got(*e.auth));
  auto a = tooluse::decode<auth_entry>(*e.auth, at + ".auth");
  if (!a) return fail(a.error());
  std::pair<const char*, std::pair<const std::optional<std::string>*, std::string*>> fields[] = {
      {"grant", {&a->grant, &s.auth.grant}},
      {"clientId", {&a->client_id, &s.auth.client_id}},
      {"clientSecret", {&a->client_secret, &s.auth.client_secret}},
      {"scope", {&a->scope, &s.auth.scope}},
      {"privateKeyFile", {&a->private_key_file, &s.auth.private_key_file}},
      {"tokenCommand", {&a->token_command, &s.auth.token_command}}};
  for (const auto& field : fields) {
    const auto& [in, out] = field.second;
    if (!*in) continue;
    auto v = expand(**in, at + ".auth." + field.first, lookup);
    if (!v) return fail(v.error());
    *out = *v;
  }
  if (!s.auth.grant.empty() && s.auth.grant != "authorization_code" &&
      s.auth.grant != "client_credentials")
    return path_error(at + ".auth.grant",
                      "must be \"authorization_code\" or \"client_credentials\", not \"" +
                          s.auth.grant + "\"");
  return {};
}

// parse_server reads the entry `name` of the servers object found at `root` (mcpServers).
result<server_config> parse_server(const std::string& root, const std::string& name,
                                   const json& j, const variable_lookup& lookup) {
  server_config s{.name = name};
  if (name.empty())
    return fail(errc::invalid_argument, "a server in " + root + " has an empty name");
  std::string at = field_path(root, name);
  auto e = tooluse::decode<server_entry>(j, at);
  if (!e) return fail(e.error());
  s.disabled = e->disabled.value_or(false);
  std::string type = e->type.value_or("");
  if (type == "sse")
    return fail(errc::unsupported, at + ".type: \"sse\" (the old HTTP+SSE transport) is not "
                                        "supported; use its Streamable HTTP url");
  if (!type.empty() && type != "stdio" && type != "http" && type != "streamable-http" &&
      type != "streamableHttp")
    return path_error(at + ".type",
                      "must be \"stdio\", \"http\" or \"streamable-http\", not \"" + type + "\"");
  if (type.empty()) {
    if (e->command && e->url)
      return path_error(at, "has both \"command\" and \"url\"; keep one (or set \"type\")");
    if (!e->command && !e->url)
      return path_error(at, "needs \"command\" (stdio) or \"url\" (Streamable HTTP)");
    type = e->url ? "http" : "stdio";
  }
  s.transport = type == "stdio" ? server_transport_kind::stdio : server_transport_kind::http;
  auto ok = s.transport == server_transport_kind::stdio ? parse_stdio(*e, at, s, lookup)
                                                        : parse_http(*e, at, s, lookup);
  if (!ok) return fail(ok.error());
  return s;
}

}  // namespace

variable_lookup environment_lookup() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    if (!v) return std::nullopt;
    return std::string(v);
  };
}

result<std::string> expand_variables(std::string_view text, const variable_lookup& lookup) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    if (text[i + 1] == '$') {
      out += '$';
      ++i;
      continue;
    }
    if (text[i + 1] != '{') {
      out += '$';
      continue;
    }
    auto close = text.find('}', i + 2);
    if (close == std::string_view::npos)
      return fail(errc::invalid_argument, "unterminated \"${\" in \"" + std::string(text) + "\"");
    std::string_view inner = text.substr(i + 2, close - i - 2);
    std::optional<std::string_view> fallback;
    if (auto d = inner.find(":-"); d != std::string_view::npos) {
      fallback = inner.substr(d + 2);
      inner = inner.substr(0, d);
    }
    if (inner.empty() || !std::all_of(inner.begin(), inner.end(), is_var_char))
      return fail(errc::invalid_argument, "bad variable name \"${" + std::string(inner) + "}\"");
    auto value = lookup ? lookup(inner) : std::nullopt;
    if (!value && !fallback)
      return fail(errc::not_found, "environment variable " + std::string(inner) +
                                       " is not set (set it, or write ${" + std::string(inner) +
                                       ":-default})");
    out += value ? *value : std::string(*fallback);
    i = close;
  }
  return out;
}

result<client_config> parse_client_config(const json& config, const variable_lookup& lookup) {
  if (!config.is_object())
    return fail(errc::invalid_argument, "the MCP config must be a JSON object with \"mcpServers\"");
  const char* key = config.contains("mcpServers") ? "mcpServers" : "servers";
  if (!config.contains(key))
    return fail(errc::invalid_argument, "the MCP config has no \"mcpServers\" object");
  const json& servers = config[key];
  if (!servers.is_object())
    return fail(errc::invalid_argument, std::string(key) + ": expected an object of servers, got " +
                                            tooluse::detail::got(servers));
  client_config out;
  for (auto it = servers.begin(); it != servers.end(); ++it) {
    auto s = parse_server(key, it.key(), *it, lookup);
    if (!s) return fail(s.error());
    out.servers.push_back(std::move(*s));
  }
  return out;
}

result<client_config> load_client_config(const std::filesystem::path& path,
                                         const variable_lookup& lookup) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(errc::io_error, "cannot read MCP config " + path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  auto j = parse_json(ss.str());
  if (!j) return fail(errc::parse_error, path.string() + ": " + j.error().message);
  auto config = parse_client_config(*j, lookup);
  if (!config) return fail(config.error().code, path.string() + ": " + config.error().message);
  return config;
}

}  // namespace tooluse::mcp
