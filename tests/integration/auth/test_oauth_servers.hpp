#pragma once
// A local OAuth authorization server and a protected MCP server for the auth tests: real HTTP
// on 127.0.0.1 (fake_llm_server with a responder). The authorization server supports dynamic
// registration, authorization code with PKCE S256 (checked), refresh tokens and the iss
// parameter; the MCP server answers 401 with resource_metadata until it sees a token the
// authorization server issued, then speaks enough MCP (2025-11-25, JSON responses) for
// `tooluse mcp call`.

#include <map>
#include <mutex>
#include <set>
#include <string>

#include "support/fake_llm_server.hpp"
#include "tooluse/auth/jose.hpp"

namespace tooluse::testing {

class test_oauth_servers {
 public:
  test_oauth_servers() {
    as_.set_responder([this](const recorded_request& r) { return authorization(r); });
    mcp_.set_responder([this](const recorded_request& r) { return resource(r); });
  }
  std::string mcp_url() const { return mcp_.url("/mcp"); }
  std::string issuer() const { return as_.url(); }
  /// first_expires_in is the lifetime of the token the code grant issues (refresh tests).
  void set_first_expires_in(int seconds) { first_expires_in_ = seconds; }

  std::vector<std::string> grants() const {
    std::lock_guard lock(mu_);
    return grants_;
  }
  std::vector<std::string> tokens_seen() const {
    std::lock_guard lock(mu_);
    return seen_;
  }

 private:
  static std::string param(const std::string& text, const std::string& name) {
    auto q = text.find('?');
    std::string s = q == std::string::npos ? text : text.substr(q + 1);
    for (std::size_t i = 0; i <= s.size();) {
      auto amp = s.find('&', i);
      if (amp == std::string::npos) amp = s.size();
      auto kv = s.substr(i, amp - i);
      auto eq = kv.find('=');
      if (eq != std::string::npos && kv.substr(0, eq) == name) return decode(kv.substr(eq + 1));
      i = amp + 1;
    }
    return "";
  }
  static std::string decode(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '+')
        out += ' ';
      else if (s[i] == '%' && i + 2 < s.size()) {
        out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else
        out += s[i];
    }
    return out;
  }
  static scripted_response json_response(int status, const json& body) {
    return {
        .status = status, .headers = {{"Content-Type", "application/json"}}, .body = body.dump()};
  }

  scripted_response authorization(const recorded_request& r) {
    std::lock_guard lock(mu_);
    std::string path = r.target.substr(0, r.target.find('?'));
    if (r.method == "GET" && path == "/.well-known/oauth-authorization-server")
      return json_response(200, {{"issuer", as_.url()},
                                 {"authorization_endpoint", as_.url("/authorize")},
                                 {"token_endpoint", as_.url("/token")},
                                 {"registration_endpoint", as_.url("/register")},
                                 {"response_types_supported", {"code"}},
                                 {"grant_types_supported", {"authorization_code", "refresh_token"}},
                                 {"code_challenge_methods_supported", {"S256"}},
                                 {"token_endpoint_auth_methods_supported", {"none"}},
                                 {"authorization_response_iss_parameter_supported", true}});
    if (r.method == "POST" && path == "/register") {
      json b = r.json_body();
      redirect_uris_ = b.value("redirect_uris", json::array());
      return json_response(201, {{"client_id", "test-cli-client"},
                                 {"redirect_uris", redirect_uris_},
                                 {"token_endpoint_auth_method", "none"}});
    }
    if (r.method == "GET" && path == "/authorize") {
      std::string redirect = param(r.target, "redirect_uri");
      bool registered = false;
      for (const auto& u : redirect_uris_) registered |= u == redirect;
      if (!registered || param(r.target, "code_challenge_method") != "S256" ||
          param(r.target, "resource") != mcp_url())
        return json_response(400, {{"error", "invalid_request"}});
      challenge_ = param(r.target, "code_challenge");
      std::string loc =
          redirect + "?code=code-1&state=" + param(r.target, "state") + "&iss=" + as_.url();
      return {.status = 302, .headers = {{"Location", loc}}, .body = ""};
    }
    if (r.method == "POST" && path == "/token") {
      std::string grant = param(r.body, "grant_type");
      grants_.push_back(grant);
      if (grant == "authorization_code") {
        std::string verifier = param(r.body, "code_verifier");
        if (param(r.body, "code") != "code-1" ||
            auth::base64url_encode(auth::sha256(verifier)) != challenge_)
          return json_response(400, {{"error", "invalid_grant"}});
        issued_.insert("at-1");
        return json_response(200, {{"access_token", "at-1"},
                                   {"token_type", "Bearer"},
                                   {"expires_in", first_expires_in_},
                                   {"refresh_token", "rt-1"}});
      }
      if (grant == "refresh_token" && param(r.body, "refresh_token") == "rt-1") {
        issued_.insert("at-2");
        return json_response(200, {{"access_token", "at-2"},
                                   {"token_type", "Bearer"},
                                   {"expires_in", 3600},
                                   {"refresh_token", "rt-2"}});
      }
      return json_response(400, {{"error", "invalid_grant"}});
    }
    return json_response(404, {{"error", "not_found"}});
  }

  scripted_response resource(const recorded_request& r) {
    std::lock_guard lock(mu_);
    if (r.method == "GET" && r.target == "/.well-known/oauth-protected-resource/mcp")
      return json_response(200, {{"resource", mcp_url()},
                                 {"authorization_servers", {as_.url()}},
                                 {"scopes_supported", {"mcp:tools"}}});
    if (r.target != "/mcp") return json_response(404, {{"error", "not_found"}});
    std::string authz = r.header("authorization");
    std::string token = authz.starts_with("Bearer ") ? authz.substr(7) : "";
    seen_.push_back(token);
    if (!issued_.contains(token))
      return {.status = 401,
              .headers = {{"WWW-Authenticate",
                           "Bearer error=\"invalid_token\", resource_metadata=\"" +
                               mcp_.url("/.well-known/oauth-protected-resource/mcp") + "\""},
                          {"Content-Type", "application/json"}},
              .body = R"({"error":"invalid_token"})"};
    if (r.method != "POST") return {.status = 405, .headers = {}, .body = ""};
    json m = r.json_body();
    if (!m.contains("id")) return {.status = 202, .headers = {}, .body = ""};
    std::string method = m.value("method", "");
    json result;
    if (method == "initialize")
      result = {{"protocolVersion", "2025-11-25"},
                {"capabilities", {{"tools", json::object()}}},
                {"serverInfo", {{"name", "protected"}, {"version", "1.0.0"}}}};
    else if (method == "tools/list")
      result = {{"tools",
                 {{{"name", "echo"},
                   {"inputSchema",
                    {{"type", "object"}, {"properties", {{"message", {{"type", "string"}}}}}}}}}}};
    else if (method == "tools/call")
      result = {{"content",
                 {{{"type", "text"},
                   {"text", "echo: " + m["params"]["arguments"].value("message", "")}}}}};
    else
      return json_response(200, {{"jsonrpc", "2.0"},
                                 {"id", m["id"]},
                                 {"error", {{"code", -32601}, {"message", "no such method"}}}});
    return json_response(200, {{"jsonrpc", "2.0"}, {"id", m["id"]}, {"result", result}});
  }

  fake_llm_server as_, mcp_;
  mutable std::mutex mu_;
  json redirect_uris_ = json::array();
  std::string challenge_;
  std::set<std::string> issued_;
  std::vector<std::string> grants_, seen_;
  int first_expires_in_ = 3600;
};

}  // namespace tooluse::testing
