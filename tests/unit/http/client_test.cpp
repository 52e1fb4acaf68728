// http::send against a real HTTP server on loopback (tests/support/fake_llm_server): buffered
// and streamed bodies, headers, statuses, caps, cancellation, and what error messages reveal.
#include "tooluse/http/client.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "support/fake_llm_server.hpp"

namespace {
using tooluse::errc;
using tooluse::testing::fake_llm_server;
using tooluse::testing::scripted_response;
namespace http = tooluse::http;

TEST(http_send, returns_status_headers_and_body_and_sends_method_headers_and_body) {
  fake_llm_server server;
  server.push({.status = 201, .headers = {{"X-Reply", "yes"}}, .body = "created"});
  auto res = http::send({.method = "POST",
                         .url = server.url("/items?x=1"),
                         .headers = {{"X-Test", "42"}, {"Content-Type", "application/json"}},
                         .body = R"({"a":1})"});
  ASSERT_TRUE(res) << res.error().message;
  EXPECT_EQ(res->status, 201);
  EXPECT_EQ(res->body, "created");
  EXPECT_EQ(res->header_value("x-reply"), "yes");  // names compare case-insensitively
  auto received = server.requests();
  ASSERT_EQ(received.size(), 1u);
  const auto& got = received[0];
  EXPECT_EQ(got.method, "POST");
  EXPECT_EQ(got.target, "/items?x=1");
  EXPECT_EQ(got.header("x-test"), "42");
  EXPECT_EQ(got.body, R"({"a":1})");
}

TEST(http_send, an_error_status_is_a_response_not_an_error) {
  fake_llm_server server;
  server.push({.status = 503, .body = "busy"});
  auto res = http::send({.url = server.url("/")});
  ASSERT_TRUE(res) << res.error().message;
  EXPECT_EQ(res->status, 503);
  EXPECT_EQ(res->body, "busy");
}

TEST(http_send, streams_a_chunked_body_to_the_callback_after_the_headers) {
  fake_llm_server server;
  server.push({.headers = {{"Content-Type", "text/event-stream"}},
               .chunks = {"one\n", "two\n", "three\n"}});
  std::string streamed;
  int status_seen = 0;
  bool body_before_headers = false;
  auto res = http::send(
      {.url = server.url("/stream")},
      {.on_body =
           [&](std::string_view bytes) {
             if (status_seen == 0) body_before_headers = true;
             streamed.append(bytes);
             return true;
           },
       .on_headers = [&](int status, const std::vector<http::header>&) { status_seen = status; }});
  ASSERT_TRUE(res) << res.error().message;
  EXPECT_EQ(status_seen, 200);
  EXPECT_FALSE(body_before_headers);
  EXPECT_EQ(streamed, "one\ntwo\nthree\n");
  EXPECT_TRUE(res->body.empty()) << "a streamed body is not also buffered";
}

TEST(http_send, a_body_callback_returning_false_cancels_the_transfer) {
  fake_llm_server server;
  server.push({.chunks = {"a", "b", "c"}});
  int calls = 0;
  auto res = http::send({.url = server.url("/")}, {.on_body = [&](std::string_view) {
                          ++calls;
                          return false;
                        }});
  ASSERT_FALSE(res);
  EXPECT_EQ(res.error().code, errc::cancelled);
  EXPECT_EQ(calls, 1);
}

TEST(http_send, a_stop_request_made_before_sending_cancels_at_once) {
  fake_llm_server server;
  server.push({.body = "never read"});
  std::stop_source stop;
  stop.request_stop();
  auto res = http::send({.url = server.url("/")}, {.stop = stop.get_token()});
  ASSERT_FALSE(res);
  EXPECT_EQ(res.error().code, errc::cancelled);
  EXPECT_NE(res.error().message.find("127.0.0.1"), std::string::npos) << res.error().message;
}

TEST(http_send, a_body_over_max_response_bytes_fails_with_limit_exceeded) {
  fake_llm_server server;
  server.push({.body = std::string(10000, 'x')});
  auto res = http::send({.url = server.url("/"), .max_response_bytes = 100});
  ASSERT_FALSE(res);
  EXPECT_EQ(res.error().code, errc::limit_exceeded);
}

TEST(http_send, a_malformed_url_is_invalid_argument) {
  auto res = http::send({.url = "not a url"});
  ASSERT_FALSE(res);
  EXPECT_EQ(res.error().code, errc::invalid_argument);
}

TEST(http_send, a_refused_connection_is_a_network_error_naming_the_host_but_not_credentials) {
  int port = 0;
  {
    fake_llm_server closed;
    port = closed.port();
  }
  auto res = http::send(
      {.url = "http://user:secret@127.0.0.1:" + std::to_string(port) + "/private/path?token=t"});
  ASSERT_FALSE(res);
  EXPECT_EQ(res.error().code, errc::network_error);
  EXPECT_NE(res.error().message.find("127.0.0.1:" + std::to_string(port)), std::string::npos)
      << res.error().message;
  EXPECT_EQ(res.error().message.find("secret"), std::string::npos) << res.error().message;
  EXPECT_EQ(res.error().message.find("token=t"), std::string::npos) << res.error().message;
}

TEST(http_find_header, matches_names_case_insensitively_and_returns_the_first) {
  std::vector<http::header> hs{
      {"Set-Cookie", "a"}, {"set-cookie", "b"}, {"Content-Type", "text/plain"}};
  EXPECT_EQ(http::find_header(hs, "SET-COOKIE"), "a");
  EXPECT_EQ(http::find_header(hs, "content-type"), "text/plain");
  EXPECT_FALSE(http::find_header(hs, "missing").has_value());
}

}  // namespace
