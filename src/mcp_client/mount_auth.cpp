// make_authorizer: the credentials an http server in an mcpServers config gets.

#include <fstream>
#include <sstream>

#include "tooluse/mcp/mount.hpp"

namespace tooluse::mcp {

std::shared_ptr<auth::http_authorizer> make_authorizer(const server_config& server,
                                                       const std::string& token_file) {
  const server_auth& a = server.auth;
  if (!a.enabled || server.transport != server_transport_kind::http) return nullptr;
  for (const auto& [name, value] : server.headers) {
    std::string n = name;
    for (auto& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (n == "authorization") return nullptr;  // a static header wins
  }
  if (!a.token_command.empty()) return auth::make_token_command_authorizer(a.token_command);
  auth::oauth_options o;
  o.client_name = "tooluse";
  o.store = auth::make_file_token_store(token_file);
  if (!a.client_id.empty())
    o.preregistered =
        auth::client_credentials{.client_id = a.client_id, .client_secret = a.client_secret};
  o.scope = a.scope;
  if (a.grant == "client_credentials") o.grant_type = auth::grant::client_credentials;
  if (!a.private_key_file.empty()) {
    std::ifstream in(a.private_key_file);
    std::stringstream ss;
    ss << in.rdbuf();
    o.private_key_pem = ss.str();
  }
  try {
    return auth::make_oauth_authorizer(server.url, std::move(o));
  } catch (const std::invalid_argument&) {
    return nullptr;
  }
}

}  // namespace tooluse::mcp
