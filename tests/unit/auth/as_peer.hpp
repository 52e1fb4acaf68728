#pragma once
// as_peer: an OAuth world on one loopback port for the auth tests. The scripted HTTP server of
// tests/support serves the MCP server's protected resource metadata (for <url>/mcp), the
// authorization server's metadata (issuer <url>) and whatever routes a test adds.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <map>

#include "auth/util.hpp"
#include "support/fake_llm_server.hpp"
#include "tooluse/auth/oauth.hpp"

namespace tooluse::auth::testing {

using detail::find_param;
using detail::form;
using tooluse::testing::fake_llm_server;
using tooluse::testing::recorded_request;
using tooluse::testing::scripted_response;
using route = std::function<scripted_response(const recorded_request&)>;

inline constexpr const char* jwt_bearer = "urn:ietf:params:oauth:grant-type:jwt-bearer";

inline scripted_response json_reply(const json& body, int status = 200) {
  return {.status = status, .body = body.dump()};
}

inline bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// as_peer serves, on one loopback port, the MCP server's protected resource metadata (for
// <url>/mcp), the authorization server's metadata (issuer <url>) and whatever routes a test
// adds ("METHOD /path"); anything else is a 404.
struct as_peer : ::testing::Test {
  fake_llm_server peer;
  std::string server, issuer;
  json prm, as_meta;
  std::map<std::string, route> routes;
  std::atomic<int> token_calls{0};

  void SetUp() override {
    server = peer.url("/mcp");
    issuer = peer.url("");
    prm = {{"resource", server}, {"authorization_servers", {issuer}}};
    as_meta = {{"issuer", issuer}, {"token_endpoint", issuer + "/token"}};
    routes["GET /.well-known/oauth-protected-resource/mcp"] = [this](const recorded_request&) {
      return json_reply(prm);
    };
    routes["GET /.well-known/oauth-authorization-server"] = [this](const recorded_request&) {
      return json_reply(as_meta);
    };
    peer.set_responder([this](const recorded_request& r) -> scripted_response {
      std::string path = r.target.substr(0, r.target.find('?'));
      auto it = routes.find(r.method + " " + path);
      if (it == routes.end()) return {.status = 404, .body = R"({"error":"not_found"})"};
      return it->second(r);
    });
  }
  // token_answer makes POST /token answer `body` (counting the calls).
  void token_answer(json body, int status = 200) {
    routes["POST /token"] = [this, body, status](const recorded_request&) {
      ++token_calls;
      return json_reply(body, status);
    };
  }
  std::vector<recorded_request> to(const std::string& path) {
    std::vector<recorded_request> out;
    for (auto& r : peer.requests())
      if (r.target == path) out.push_back(r);
    return out;
  }
  static form form_of(const recorded_request& r) { return detail::query_params(r.body); }
  oauth_options machine(grant g) {
    oauth_options o;
    o.grant_type = g;
    o.preregistered = client_credentials{.client_id = "agent-1", .client_secret = "s3cret"};
    return o;
  }
};

}  // namespace tooluse::auth::testing
