// http::send's deadlines and caps against a real server on loopback: each timeout fails with
// errc::timeout naming the option that fired, header and body caps name theirs, redirects are
// returned rather than followed, and the request goes out as given (method, body, headers).
#include <gtest/gtest.h>

#include "support/fake_llm_server.hpp"
#include "support/response_gate.hpp"
#include "tooluse/http/client.hpp"

namespace {
using namespace std::chrono_literals;
using tooluse::errc;
using tooluse::testing::fake_llm_server;
using tooluse::testing::gate_opener;
using tooluse::testing::recorded_request;
using tooluse::testing::response_gate;
using tooluse::testing::scripted_response;
namespace http = tooluse::http;

// held_server answers only once the test opens its gate, so a deadline fires first.
struct held_server {
  response_gate gate;  // outlives the server, whose connection thread waits on it
  fake_llm_server server;
  gate_opener opener{gate};  // opens before the server joins its connection threads
  explicit held_server(scripted_response answer = {.body = "late"}) {
    server.set_responder([this, answer](const recorded_request&) {
      gate.wait();
      return answer;
    });
  }
};

TEST(http_deadlines, a_silent_peer_trips_read_timeout_and_the_message_names_it) {
  held_server s;
  auto r = http::send({.url = s.server.url("/slow"), .read_timeout = 150ms});
  s.gate.open();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::timeout);
  EXPECT_NE(r.error().message.find("http request to 127.0.0.1:" + std::to_string(s.server.port()) +
                                   " was idle longer than http::request::read_timeout = 150 ms"),
            std::string::npos)
      << r.error().message;
}

TEST(http_deadlines, first_byte_timeout_fires_before_the_response_begins) {
  held_server s;
  auto r = http::send({.url = s.server.url("/"), .first_byte_timeout = 150ms, .read_timeout = 0ms});
  s.gate.open();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::timeout);
  EXPECT_NE(r.error().message.find("http::request::first_byte_timeout = 150 ms"), std::string::npos)
      << r.error().message;
}

TEST(http_deadlines, total_timeout_bounds_the_whole_exchange) {
  held_server s;
  auto r = http::send({.url = s.server.url("/"), .read_timeout = 0ms, .total_timeout = 150ms});
  s.gate.open();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::timeout);
  EXPECT_NE(r.error().message.find("took longer than http::request::total_timeout = 150 ms; raise "
                                   "total_timeout if the peer is slow"),
            std::string::npos)
      << r.error().message;
}

TEST(http_deadlines, a_stop_request_while_waiting_cancels_promptly) {
  held_server s;
  std::stop_source stop;
  std::thread stopper([&] {
    s.gate.wait_arrival();  // the request is at the server now
    stop.request_stop();
  });
  auto r = http::send({.url = s.server.url("/")}, {.stop = stop.get_token()});
  stopper.join();
  s.gate.open();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::cancelled);
  EXPECT_EQ(r.error().message,
            "http request to 127.0.0.1:" + std::to_string(s.server.port()) + " was cancelled");
}

TEST(http_caps, response_headers_over_max_header_bytes_are_refused) {
  fake_llm_server server;
  server.push({.headers = {{"X-Big", std::string(2000, 'h')}}, .body = "x"});
  auto r = http::send({.url = server.url("/"), .max_header_bytes = 1024});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::limit_exceeded);
  EXPECT_NE(r.error().message.find("http::request::max_header_bytes"), std::string::npos)
      << r.error().message;
}

TEST(http_caps, a_streamed_body_over_the_cap_stops_as_the_bytes_arrive) {
  fake_llm_server server;
  scripted_response chunks;
  for (int i = 0; i < 10; ++i) chunks.chunks.push_back(std::string(1000, 'a' + i));
  server.push(chunks);
  std::size_t seen = 0;
  auto r = http::send({.url = server.url("/"), .max_response_bytes = 2500},
                      {.on_body = [&](std::string_view c) {
                        seen += c.size();
                        return true;
                      }});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::limit_exceeded);
  EXPECT_NE(r.error().message.find("http::request::max_response_bytes"), std::string::npos)
      << r.error().message;
  EXPECT_LE(seen, 2500u);  // nothing past the cap reached the callback
}

TEST(http_caps, a_body_exactly_at_the_cap_passes_and_zero_means_unbounded) {
  fake_llm_server server;
  server.push({.body = std::string(4096, 'z')});
  server.push({.body = std::string(1 << 20, 'y')});
  auto at = http::send({.url = server.url("/"), .max_response_bytes = 4096});
  ASSERT_TRUE(at) << at.error().message;
  EXPECT_EQ(at->body.size(), 4096u);
  auto big = http::send({.url = server.url("/"), .max_response_bytes = 0});
  ASSERT_TRUE(big) << big.error().message;
  EXPECT_EQ(big->body, std::string(1 << 20, 'y'));
}

TEST(http_send_more, redirects_are_returned_not_followed) {
  fake_llm_server server;
  server.push({.status = 302, .headers = {{"Location", server.url("/elsewhere")}}, .body = ""});
  auto r = http::send({.url = server.url("/start")});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->status, 302);
  EXPECT_EQ(r->header_value("location"), server.url("/elsewhere"));
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(http_send_more, methods_and_bodies_go_out_as_given) {
  fake_llm_server server;
  for (int i = 0; i < 3; ++i) server.push({.status = 204});
  std::string binary("a\0b\xff", 4);
  ASSERT_TRUE(http::send({.method = "PUT", .url = server.url("/p"), .body = binary}));
  ASSERT_TRUE(http::send({.method = "DELETE", .url = server.url("/d")}));
  auto r = http::send({.method = "PATCH",
                       .url = server.url("/x"),
                       .headers = {{"A", "1"}, {"B", ""}},
                       .body = "{}"});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 204);
  EXPECT_TRUE(r->body.empty());
  auto got = server.requests();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].method, "PUT");
  EXPECT_EQ(got[0].body, binary);
  EXPECT_EQ(got[1].method, "DELETE");
  EXPECT_EQ(got[2].method, "PATCH");
  EXPECT_EQ(got[2].header("a"), "1");
}

TEST(http_send_more, on_headers_sees_the_status_before_the_body) {
  fake_llm_server server;
  server.push({.status = 207, .headers = {{"X-One", "1"}}, .chunks = {"ab", "cd"}});
  std::vector<std::string> order;
  auto r = http::send({.url = server.url("/")},
                      {.on_body =
                           [&](std::string_view c) {
                             order.push_back("body:" + std::string(c));
                             return true;
                           },
                       .on_headers =
                           [&](int status, const std::vector<http::header>& h) {
                             order.push_back("headers:" + std::to_string(status) + ":" +
                                             http::find_header(h, "x-one").value_or("?"));
                           }});
  ASSERT_TRUE(r);
  ASSERT_GE(order.size(), 2u);
  EXPECT_EQ(order[0], "headers:207:1");
  std::string body;
  for (size_t i = 1; i < order.size(); ++i) body += order[i].substr(5);
  EXPECT_EQ(body, "abcd");
  EXPECT_TRUE(r->body.empty());  // streamed, not buffered
}

TEST(http_send_more, urls_that_are_not_http_are_refused_before_any_connection) {
  for (const char* url : {"", "ftp://127.0.0.1/x", "file:///etc/passwd", "127.0.0.1:1/no-scheme",
                          "gopher://127.0.0.1/"}) {
    auto r = http::send({.url = url});
    ASSERT_FALSE(r) << url;
    EXPECT_EQ(r.error().code, errc::invalid_argument) << url << ": " << r.error().message;
    EXPECT_NE(r.error().message.find("only absolute http:// and https:// URLs are supported"),
              std::string::npos)
        << r.error().message;
  }
  // The scheme is case-insensitive.
  fake_llm_server server;
  server.push({.body = "ok"});
  auto upper = http::send({.url = "HTTP://127.0.0.1:" + std::to_string(server.port()) + "/"});
  ASSERT_TRUE(upper) << upper.error().message;
  EXPECT_EQ(upper->body, "ok");
}

}  // namespace
