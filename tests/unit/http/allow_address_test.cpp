// http::request::allow_address: the connect-time address check that closes the DNS
// rebinding window of resolve-then-check policies.
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "support/fake_llm_server.hpp"
#include "tooluse/http/client.hpp"

namespace {

TEST(http_allow_address, refused_address_fails_with_permission_denied_before_any_byte_is_sent) {
  tooluse::testing::fake_llm_server server;
  server.set_responder([](const auto&) { return tooluse::testing::scripted_response{.body = "hello"}; });
  std::vector<std::string> asked;
  tooluse::http::request req{.url = "http://localhost:" + std::to_string(server.port()) + "/",
                             .allow_address = [&](std::string_view ip) {
                               asked.emplace_back(ip);
                               return false;
                             }};
  auto res = tooluse::http::send(req);
  ASSERT_FALSE(res.has_value());
  EXPECT_EQ(res.error().code, tooluse::errc::permission_denied);
  EXPECT_NE(res.error().message.find("refused"), std::string::npos) << res.error().message;
  ASSERT_FALSE(asked.empty());
  EXPECT_TRUE(server.requests().empty()) << "the server was reached despite the refusal";
}

TEST(http_allow_address, allowed_address_connects_and_the_check_sees_the_numeric_ip) {
  tooluse::testing::fake_llm_server server;
  server.set_responder([](const auto&) { return tooluse::testing::scripted_response{.body = "hello"}; });
  std::vector<std::string> asked;
  tooluse::http::request req{.url = "http://127.0.0.1:" + std::to_string(server.port()) + "/",
                             .allow_address = [&](std::string_view ip) {
                               asked.emplace_back(ip);
                               return true;
                             }};
  auto res = tooluse::http::send(req);
  ASSERT_TRUE(res.has_value()) << res.error().message;
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->body, "hello");
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0], "127.0.0.1");
}

}  // namespace
