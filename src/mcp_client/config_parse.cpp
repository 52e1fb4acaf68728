// client_config: the `mcpServers` JSON shape, with ${VAR} expansion.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tooluse/mcp/client_config.hpp"

namespace tooluse::mcp {
namespace {

bool is_var_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// A field error: `server "NAME": "FIELD" ...`.
tl::unexpected<error> field_error(const std::string& server, const std::string& field,
                                  const std::string& what) {
  return fail(errc::invalid_argument, "server \"" + server + "\": \"" + field + "\" " + what);
}

result<std::string> expand_field(const json& v, const std::string& server, const std::string& field,
                                 const variable_lookup& lookup) {
  if (!v.is_string()) return field_error(server, field, "must be a string");
  auto out = expand_variables(v.get<std::string>(), lookup);
  if (!out)
    return fail(out.error().code,
                "server \"" + server + "\": \"" + field + "\": " + out.error().message);
  return out;
}

result<std::map<std::string, std::string>> string_map(const json& obj, const std::string& server,
                                                      const std::string& field,
                                                      const variable_lookup& lookup) {
  if (!obj.is_object()) return field_error(server, field, "must be an object of strings");
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : obj.items()) {
    if (!v.is_string()) return field_error(server, field + "." + k, "must be a string");
    auto value = expand_field(v, server, field + "." + k, lookup);
    if (!value) return fail(value.error());
    out[k] = std::move(*value);
  }
  return out;
}

status parse_stdio(const json& j, server_config& s, const variable_lookup& lookup) {
  if (!j.contains("command"))
    return field_error(s.name, "command", "is missing (stdio servers need one)");
  auto command = expand_field(j["command"], s.name, "command", lookup);
  if (!command) return fail(command.error());
  if (command->empty()) return field_error(s.name, "command", "is empty");
  s.command.push_back(*command);
  if (j.contains("args")) {
    if (!j["args"].is_array()) return field_error(s.name, "args", "must be an array of strings");
    for (const auto& a : j["args"]) {
      if (!a.is_string()) return field_error(s.name, "args", "must be an array of strings");
      auto arg = expand_field(a, s.name, "args", lookup);
      if (!arg) return fail(arg.error());
      s.command.push_back(*arg);
    }
  }
  if (j.contains("env")) {
    auto env = string_map(j["env"], s.name, "env", lookup);
    if (!env) return fail(env.error());
    s.env = std::move(*env);
  }
  if (j.contains("cwd")) {
    auto cwd = expand_field(j["cwd"], s.name, "cwd", lookup);
    if (!cwd) return fail(cwd.error());
    s.cwd = *cwd;
  }
  return {};
}

status parse_http(const json& j, server_config& s, const variable_lookup& lookup) {
  if (!j.contains("url")) return field_error(s.name, "url", "is missing (http servers need one)");
  auto url = expand_field(j["url"], s.name, "url", lookup);
  if (!url) return fail(url.error());
  if (url->rfind("http://", 0) != 0 && url->rfind("https://", 0) != 0)
    return field_error(s.name, "url", "must start with http:// or https://");
  s.url = *url;
  if (j.contains("headers")) {
    auto headers = string_map(j["headers"], s.name, "headers", lookup);
    if (!headers) return fail(headers.error());
    s.headers = std::move(*headers);
  }
  if (j.contains("auth")) {
    const json& a = j["auth"];
    if (a.is_boolean()) {
      s.auth.enabled = a.get<bool>();
      return {};
    }
    if (!a.is_object()) return field_error(s.name, "auth", "must be an object or false");
    std::pair<const char*, std::string*> fields[] = {{"grant", &s.auth.grant},
                                                     {"clientId", &s.auth.client_id},
                                                     {"clientSecret", &s.auth.client_secret},
                                                     {"scope", &s.auth.scope},
                                                     {"privateKeyFile", &s.auth.private_key_file},
                                                     {"tokenCommand", &s.auth.token_command}};
    for (auto& [key, out] : fields) {
      if (!a.contains(key)) continue;
      auto v = expand_field(a[key], s.name, std::string("auth.") + key, lookup);
      if (!v) return fail(v.error());
      *out = *v;
    }
    if (!s.auth.grant.empty() && s.auth.grant != "authorization_code" &&
        s.auth.grant != "client_credentials")
      return field_error(s.name, "auth.grant",
                         "must be \"authorization_code\" or \"client_credentials\"");
  }
  return {};
}

result<server_config> parse_server(const std::string& name, const json& j,
                                   const variable_lookup& lookup) {
  server_config s{.name = name};
  if (name.empty()) return fail(errc::invalid_argument, "a server in mcpServers has an empty name");
  if (!j.is_object())
    return fail(errc::invalid_argument, "server \"" + name + "\" must be an object");
  if (j.contains("disabled")) {
    if (!j["disabled"].is_boolean()) return field_error(name, "disabled", "must be true or false");
    s.disabled = j["disabled"].get<bool>();
  }
  std::string type;
  if (j.contains("type")) {
    if (!j["type"].is_string()) return field_error(name, "type", "must be a string");
    type = j["type"].get<std::string>();
  }
  if (type == "sse")
    return fail(errc::unsupported, "server \"" + name +
                                       "\": \"type\": \"sse\" (the old HTTP+SSE "
                                       "transport) is not supported; use its Streamable HTTP url");
  if (!type.empty() && type != "stdio" && type != "http" && type != "streamable-http" &&
      type != "streamableHttp")
    return field_error(name, "type",
                       "must be \"stdio\", \"http\" or \"streamable-http\", not \"" + type + "\"");
  if (type.empty()) {
    if (j.contains("command") && j.contains("url"))
      return fail(errc::invalid_argument, "server \"" + name +
                                              "\" has both \"command\" and "
                                              "\"url\"; keep one (or set \"type\")");
    if (!j.contains("command") && !j.contains("url"))
      return fail(errc::invalid_argument, "server \"" + name +
                                              "\" needs \"command\" (stdio) or "
                                              "\"url\" (Streamable HTTP)");
    type = j.contains("url") ? "http" : "stdio";
  }
  s.transport = type == "stdio" ? server_transport_kind::stdio : server_transport_kind::http;
  auto ok = s.transport == server_transport_kind::stdio ? parse_stdio(j, s, lookup)
                                                        : parse_http(j, s, lookup);
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
    return fail(errc::invalid_argument,
                std::string("\"") + key + "\" must be an object of servers");
  client_config out;
  for (const auto& [name, entry] : servers.items()) {
    auto s = parse_server(name, entry, lookup);
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
