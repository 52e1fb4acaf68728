#pragma once
// The OAuth client behind make_oauth_authorizer: discovery (oauth_client_discovery.cpp), grants
// (oauth_client_grants.cpp) and the transport-facing authorizer (oauth_client.cpp).

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tooluse/auth/jose.hpp"
#include "tooluse/auth/oauth.hpp"
#include "util.hpp"
#include "wire.hpp"

namespace tooluse::auth::detail {

struct registration {
  std::string client_id, client_secret, method;  // method: token endpoint auth method
};

struct token_set {
  std::string access_token, token_type, refresh_token, scope, issuer;
  long long expires_at = 0;  // unix seconds; 0: unknown
};

class oauth_client final : public oauth_authorizer {
 public:
  oauth_client(std::string server_url, oauth_options o);

  result<header_list> headers_for(std::string_view method, std::string_view url) override;
  result<bool> on_challenge(int status, const std::vector<http::header>& response,
                            const header_list& sent, std::string_view method,
                            std::string_view url) override;
  void on_response(const std::vector<http::header>& response) override;
  status authorize() override;
  status logout() override;
  bool has_token() const override;
  json state() const override;

 private:
  // oauth_client_discovery.cpp
  status discover_resource(const std::string& resource_metadata_url);
  status discover_authorization_server(const std::string& issuer);
  std::vector<std::string> select_scopes(const std::string& challenged);
  // oauth_client_grants.cpp
  status run_grant(const std::vector<std::string>& scopes);
  status authorization_code(const std::string& scope);
  status client_credentials_grant(const std::string& scope);
  status jwt_bearer_grant(const std::string& scope, const std::string& assertion);
  status enterprise_grant(const std::string& scope);
  status refresh();
  result<registration> client_for_issuer();
  result<registration> register_client();
  void add_client_auth(const registration& reg, form& f, std::vector<http::header>& headers);
  result<wire::token_response> token_request(form f, const registration& reg);
  status accept_tokens(const wire::token_response& body, bool keep_refresh);
  bool dpop_offered() const;
  // oauth_client.cpp
  void load_state();
  void save_state();
  void log(const std::string& line) const {
    if (o_.log) o_.log(line);
  }
  status full_authorization(const std::string& challenged_scope,
                            const std::string& resource_metadata_url);

  std::string server_url_;
  oauth_options o_;
  http::transport send_;
  mutable std::mutex mu_;
  std::optional<wire::protected_resource_metadata> prm_;
  std::string resource_;  // the resource indicator, as the metadata publishes it
  std::optional<wire::authorization_server_metadata> as_meta_;
  std::string issuer_;                                 // its issuer, checked
  std::map<std::string, registration> registrations_;  // by issuer
  token_set tokens_;
  std::set<std::string> requested_scopes_;
  std::string refreshed_token_;  // the last token a refresh produced
  signing_key dpop_key_;
  bool dpop_bound_ = false;  // tokens_ is DPoP-bound
  std::string as_nonce_, rs_nonce_;
};

}  // namespace tooluse::auth::detail
