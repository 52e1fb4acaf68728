#pragma once
// session_server: an mcp::server behind a real loopback http_server, with the 2025-11-25
// handshake (open_session) and POSTs within a session, for the HTTP session tests.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "tooluse/mcp/http_server.hpp"
#include "unit/mcp/http_test_util.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace tooluse::mcp::test {

struct session_server {
  mcp::server server;
  mcp::http_server http;
  unsigned short port = 0;
  explicit session_server(const std::string& name, mcp::http_options ho = {})
      : server({.name = name, .version = "1"}), http(server, std::move(ho)) {}
  void start() {
    EXPECT_TRUE(http.start());
    port = http.port();
  }
  /// open_session runs initialize and returns the session id.
  std::string open_session() {
    auto r = exchange(port, "POST", json_post(), req(1, "initialize", {{"protocolVersion", "2025-11-25"}}).dump());
    EXPECT_EQ(r.status, 200) << r.body;
    return r.header("mcp-session-id");
  }
  http_reply post(const std::string& sid, const json& body) {
    return exchange(port, "POST", json_post({{"Mcp-Session-Id", sid}}), body.dump());
  }
};

}  // namespace tooluse::mcp::test
