// Hostile HTTP peers against the outbound client and the model adapters: real loopback
// sockets that trickle, stall, never end a body, an SSE event or a stream. Each test asserts
// the call fails naming the limit, memory stayed bounded, and another peer was served meanwhile.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "hostile_support.hpp"
#include "tooluse/http/client.hpp"
#include "tooluse/llm/openai_chat.hpp"

namespace tooluse::hostile {
namespace {

using namespace std::chrono_literals;

bool contains(const std::string& s, std::string_view what) { return s.find(what) != std::string::npos; }

// A well-behaved peer: answers every request with a small body.
tcp_peer good_peer() {
  return tcp_peer([](int fd, const std::atomic<bool>&) {
    read_request(fd);
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
  });
}

// Asserts the good peer answers while a hostile exchange is in progress.
void expect_served(const tcp_peer& good) {
  auto r = http::send({.url = good.url(), .total_timeout = 10s});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->body, "ok");
}

TEST(HostileHttp, HeadersTrickledOneByteAtATimeEndAtTheTotalDeadline) {
  tcp_peer trickle([](int fd, const std::atomic<bool>& stopping) {
    read_request(fd);
    send_all(fd, "HTTP/1.1 200 OK\r\n");
    // The slow-loris peer: a byte every 50 ms, never finishing a header.
    while (!stopping && send_all(fd, "X")) std::this_thread::sleep_for(50ms);
  });
  tcp_peer good = good_peer();
  auto pending = std::async(std::launch::async, [&] {
    return http::send({.url = trickle.url(), .read_timeout = 10s, .total_timeout = 1500ms});
  });
  expect_served(good);
  auto r = pending.get();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::timeout);
  EXPECT_TRUE(contains(r.error().message, "http::request::total_timeout")) << r.error().message;
}

TEST(HostileHttp, APeerThatNeverAnswersEndsAtTheFirstByteDeadline) {
  tcp_peer silent([](int fd, const std::atomic<bool>& stopping) {
    read_request(fd);
    char c;
    while (!stopping && ::recv(fd, &c, 1, 0) > 0) {
    }
  });
  auto r = http::send({.url = silent.url(), .first_byte_timeout = 500ms, .read_timeout = 60s});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::timeout);
  EXPECT_TRUE(contains(r.error().message, "http::request::first_byte_timeout")) << r.error().message;
}

TEST(HostileHttp, AnEndlessBodyIsCutAtMaxResponseBytesWithBoundedMemory) {
  tcp_peer endless([](int fd, const std::atomic<bool>& stopping) {
    read_request(fd);
    send_all(fd, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n");
    const std::string chunk(64 * 1024, 'a');
    while (!stopping && send_all(fd, chunk)) {
    }
  });
  tcp_peer good = good_peer();
  const long before = peak_rss_kb();
  auto pending = std::async(std::launch::async, [&] {
    http::request req{.url = endless.url()};
    req.max_response_bytes = 8u << 20;
    return http::send(req);
  });
  expect_served(good);
  auto r = pending.get();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::limit_exceeded);
  EXPECT_TRUE(contains(r.error().message, "http::request::max_response_bytes = 8388608"))
      << r.error().message;
  EXPECT_LT(peak_rss_kb() - before, 64 * 1024) << "peak memory grew by more than 64 MiB";
}

TEST(HostileHttp, AnEndlessHeaderBlockIsRefusedAtMaxHeaderBytes) {
  tcp_peer endless([](int fd, const std::atomic<bool>& stopping) {
    read_request(fd);
    send_all(fd, "HTTP/1.1 200 OK\r\n");
    const std::string line = "X-Flood: " + std::string(1000, 'h') + "\r\n";
    while (!stopping && send_all(fd, line)) {
    }
  });
  auto r = http::send({.url = endless.url()});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::limit_exceeded);
  EXPECT_TRUE(contains(r.error().message, "http::request::max_header_bytes")) << r.error().message;
}

llm::provider_options model_at(const tcp_peer& peer) {
  llm::provider_options o{.base_url = peer.url("/v1"), .model = "m"};
  o.retry.max_retries = 0;
  return o;
}

const char* sse_head =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";

TEST(HostileModel, AnSseEventThatNeverEndsIsRefusedAtMaxEventBytes) {
  tcp_peer endless([](int fd, const std::atomic<bool>& stopping) {
    read_request(fd);
    send_all(fd, sse_head);
    send_all(fd, "data: ");
    const std::string chunk(64 * 1024, 'a');
    while (!stopping && send_all(fd, chunk)) {
    }
  });
  tcp_peer good = good_peer();
  auto o = model_at(endless);
  o.max_event_bytes = 1u << 20;
  o.max_response_bytes = 1u << 30;  // the event limit, not the body limit, must fire
  llm::openai_chat model(o);
  const long before = peak_rss_kb();
  auto pending = std::async(std::launch::async, [&] {
    return model.complete({.messages = {llm::message::user("hi")}, .stream = true});
  });
  expect_served(good);
  auto r = pending.get();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::limit_exceeded);
  EXPECT_TRUE(contains(r.error().message, "llm::provider_options::max_event_bytes"))
      << r.error().message;
  EXPECT_LT(peak_rss_kb() - before, 64 * 1024);
}

TEST(HostileModel, AStreamThatNeverFinishesEndsAtTheTotalDeadline) {
  tcp_peer forever([](int fd, const std::atomic<bool>& stopping) {
    read_request(fd);
    send_all(fd, sse_head);
    // Keep-alive comments and empty deltas forever: never idle, never done.
    while (!stopping && send_all(fd, ": ping\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{}}]}\n\n"))
      std::this_thread::sleep_for(20ms);
  });
  auto o = model_at(forever);
  o.total_timeout = 1500ms;
  llm::openai_chat model(o);
  auto r = model.complete({.messages = {llm::message::user("hi")}, .stream = true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::timeout);
  EXPECT_TRUE(contains(r.error().message, "llm::provider_options::total_timeout")) << r.error().message;
}

TEST(HostileModel, AHugeNonStreamedAnswerIsRefusedAtMaxResponseBytes) {
  tcp_peer huge([](int fd, const std::atomic<bool>& stopping) {
    read_request(fd);
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n");
    send_all(fd, "{\"choices\":[{\"message\":{\"content\":\"");
    const std::string chunk(64 * 1024, 'a');
    while (!stopping && send_all(fd, chunk)) {
    }
  });
  auto o = model_at(huge);
  o.max_response_bytes = 4u << 20;
  llm::openai_chat model(o);
  auto r = model.complete({.messages = {llm::message::user("hi")}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::limit_exceeded);
  EXPECT_TRUE(contains(r.error().message, "llm::provider_options::max_response_bytes"))
      << r.error().message;
}

TEST(HostileModel, ADeeplyNestedAnswerIsRefusedNamingTheDepthLimit) {
  tcp_peer deep([](int fd, const std::atomic<bool>&) {
    read_request(fd);
    std::string body = std::string(200000, '[') + std::string(200000, ']');
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                     std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
  });
  llm::openai_chat model(model_at(deep));
  auto r = model.complete({.messages = {llm::message::user("hi")}});
  ASSERT_FALSE(r);
  EXPECT_TRUE(contains(r.error().message, "json_limits::max_depth")) << r.error().message;
}

}  // namespace
}  // namespace tooluse::hostile
