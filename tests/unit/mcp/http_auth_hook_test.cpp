// The HTTP server's authorization hook over real loopback sockets: it sees the method, the
// target without its query, the headers and the body; status 0 lets a request through, any
// other status is the answer (with its headers, body and content type); other paths are
// offered to it (a well-known metadata URL) and get 404 when it lets them through; the Host
// check still runs first.
#include <gtest/gtest.h>

#include <mutex>

#include "tooluse/mcp/http_server.hpp"
#include "unit/mcp/http_test_util.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;

namespace {

struct seen_request {
  std::string method, target, body, auth;
  bool is_endpoint = false;
};

// guarded serves a server whose hook lets through requests carrying "Authorization: ok",
// answers the well-known path itself and refuses everything else with 401.
struct guarded {
  std::mutex mu;
  std::vector<seen_request> seen;
  mcp::server server{{.name = "auth", .version = "1"}};
  mcp::http_server http;
  unsigned short port = 0;
  guarded()
      : http(server, {.authorize = [this](const mcp::http_auth_request& r) -> mcp::http_auth_decision {
          seen_request s{std::string(r.method), std::string(r.target), std::string(r.body), "", r.is_endpoint};
          for (const auto& [k, v] : r.headers)
            if (k == "Authorization") s.auth = v;
          {
            std::lock_guard lock(mu);
            seen.push_back(s);
          }
          if (r.target == "/.well-known/oauth-protected-resource")
            return {.status = 200, .body = R"({"resource":"http://127.0.0.1/mcp"})"};
          if (s.auth == "ok") return {};
          return {.status = 401,
                  .headers = {{"WWW-Authenticate", R"(Bearer resource_metadata="x")"}},
                  .body = "no entry",
                  .content_type = "text/plain"};
        }}) {
    EXPECT_TRUE(http.start());
    port = http.port();
  }
  seen_request last() {
    std::lock_guard lock(mu);
    return seen.empty() ? seen_request{} : seen.back();
  }
};

json init_body() { return req(1, "initialize", {{"protocolVersion", "2025-11-25"}}); }

}  // namespace

TEST(mcp_http_auth_hook, a_refusal_is_the_answer_with_its_headers_and_body) {
  guarded g;
  auto r = exchange(g.port, "POST", json_post(), init_body().dump());
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(r.header("www-authenticate"), R"(Bearer resource_metadata="x")");
  EXPECT_EQ(r.body, "no entry");
  EXPECT_NE(r.header("content-type").find("text/plain"), std::string::npos);
  EXPECT_EQ(g.http.stats().sessions, 0u);  // refused before any session existed
}

TEST(mcp_http_auth_hook, a_request_let_through_is_served_and_the_hook_saw_it_whole) {
  guarded g;
  auto r = exchange(g.port, "POST", json_post({{"Authorization", "ok"}}), init_body().dump(), "/mcp?trace=1");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_FALSE(r.header("mcp-session-id").empty());
  seen_request s = g.last();
  EXPECT_EQ(s.method, "POST");
  EXPECT_EQ(s.target, "/mcp");  // without the query
  EXPECT_TRUE(s.is_endpoint);
  EXPECT_EQ(s.auth, "ok");
  EXPECT_EQ(json::parse(s.body)["method"], "initialize");
}

TEST(mcp_http_auth_hook, other_paths_are_offered_to_the_hook) {
  guarded g;
  auto meta = exchange(g.port, "GET", {}, "", "/.well-known/oauth-protected-resource");
  EXPECT_EQ(meta.status, 200);
  EXPECT_EQ(json::parse(meta.body)["resource"], "http://127.0.0.1/mcp");
  EXPECT_FALSE(g.last().is_endpoint);
  // Let through on a path that is not the endpoint: 404.
  auto other = exchange(g.port, "GET", {{"Authorization", "ok"}}, "", "/elsewhere");
  EXPECT_EQ(other.status, 404);
  // Refused on another path: the hook's answer.
  auto refused = exchange(g.port, "GET", {}, "", "/elsewhere");
  EXPECT_EQ(refused.status, 401);
}

TEST(mcp_http_auth_hook, the_host_check_runs_before_the_hook) {
  guarded g;
  auto r = exchange(g.port, "POST", json_post({{"Host", "evil.example"}, {"Authorization", "ok"}}), init_body().dump());
  EXPECT_EQ(r.status, 403);
  std::lock_guard lock(g.mu);
  EXPECT_TRUE(g.seen.empty());
}

TEST(mcp_http_auth_hook, every_request_of_a_session_is_asked) {
  guarded g;
  auto init = exchange(g.port, "POST", json_post({{"Authorization", "ok"}}), init_body().dump());
  std::string sid = init.header("mcp-session-id");
  auto without = exchange(g.port, "POST", json_post({{"Mcp-Session-Id", sid}}), req(2, "ping").dump());
  EXPECT_EQ(without.status, 401);  // a session is no substitute for credentials
  auto with = exchange(g.port, "POST", json_post({{"Mcp-Session-Id", sid}, {"Authorization", "ok"}}), req(3, "ping").dump());
  EXPECT_EQ(with.status, 200);
  auto del = exchange(g.port, "DELETE", {{"Mcp-Session-Id", sid}});
  EXPECT_EQ(del.status, 401);
  EXPECT_EQ(g.http.stats().sessions, 1u);
}
