// Retries, timeouts and record/replay against a real HTTP server on loopback: which statuses
// are retried and how often, what the final error says, that a stream cut after bytes arrived
// is never retried, and that a recording replays byte for byte without a network.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>

#include "support/fake_llm_server.hpp"
#include "support/response_gate.hpp"
#include "support/test_support.hpp"
#include "tooluse/llm/anthropic_messages.hpp"
#include "tooluse/llm/openai_chat.hpp"
#include "tooluse/llm/record_replay.hpp"

namespace tooluse::llm {
namespace {

namespace t = tooluse::testing;
using namespace std::chrono_literals;

provider_options fast_retries(const t::fake_llm_server& server, int max_retries) {
  return {.base_url = server.url("/v1"),
          .api_key = "sk-live-123",
          .model = "m",
          .retry = {.max_retries = max_retries, .initial_delay = 1ms, .max_delay = 5ms}};
}

chat_request hello(bool stream = false) {
  return {.messages = {message::user("hello")}, .stream = stream};
}

// closed_port returns a loopback port nothing listens on.
int closed_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

TEST(llm_retry, retries_429_and_5xx_then_succeeds) {
  t::fake_llm_server server;
  server.push(t::error_response(429, "slow down", 0));
  server.push(t::error_response(503, "overloaded"));
  server.push(t::error_response(408, "request timeout"));
  server.push(t::openai_response({.text = "finally"}, false));
  openai_chat model(fast_retries(server, 3));
  auto r = model.complete(hello());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->reply.text(), "finally");
  EXPECT_EQ(server.requests().size(), 4u);
  // Every retry sends the same body.
  for (const auto& req : server.requests()) EXPECT_EQ(req.body, server.requests()[0].body);
}

TEST(llm_retry, gives_up_after_max_retries_naming_status_url_count_and_message) {
  t::fake_llm_server server;
  for (int i = 0; i < 3; ++i) server.push(t::error_response(503, "overloaded"));
  openai_chat model(fast_retries(server, 2));
  auto r = model.complete(hello());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::http_error);
  EXPECT_EQ(r.error().message, "openai: HTTP 503 from " + server.url("/v1/chat/completions") +
                                   " after 2 retries: overloaded");
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST(llm_retry, a_final_429_is_rate_limited) {
  t::fake_llm_server server;
  server.push(t::error_response(429, "quota", 0));
  server.push(t::error_response(429, "quota", 0));
  anthropic_messages model(
      {.base_url = server.url(), .model = "m", .retry = {.max_retries = 1, .initial_delay = 1ms}});
  auto r = model.complete(hello());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::rate_limited);
  EXPECT_EQ(r.error().message,
            "anthropic: HTTP 429 from " + server.url("/v1/messages") + " after 1 retries: quota");
}

TEST(llm_retry, client_errors_are_not_retried_and_403_hints_at_the_key) {
  t::fake_llm_server server;
  server.push(t::error_response(400, "messages: field required"));
  server.push(t::error_response(403, "forbidden"));
  openai_chat model(fast_retries(server, 3));
  auto r = model.complete(hello());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::http_error);
  EXPECT_EQ(r.error().message, "openai: HTTP 400 from " + server.url("/v1/chat/completions") +
                                   ": messages: field required");
  EXPECT_EQ(server.requests().size(), 1u);
  r = model.complete(hello());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("forbidden (check the API key)"), std::string::npos)
      << r.error().message;
}

TEST(llm_retry, a_non_json_error_body_is_quoted_shortened_and_trimmed) {
  t::fake_llm_server server;
  t::scripted_response html{.status = 502,
                            .headers = {{"Content-Type", "text/html"}},
                            .body = "<html>" + std::string(400, 'x') + "</html>\n"};
  server.push(html);
  openai_chat model(fast_retries(server, 0));
  auto r = model.complete(hello());
  ASSERT_FALSE(r);
  std::string want_tail = ": <html>" + std::string(294, 'x');  // the first 300 bytes
  EXPECT_EQ(r.error().message.substr(r.error().message.size() - want_tail.size()), want_tail);
}

TEST(llm_retry, streamed_error_status_is_read_as_an_error_body) {
  t::fake_llm_server server;
  server.push(t::error_response(500, "internal"));
  openai_chat model(fast_retries(server, 0));
  auto r = model.complete(hello(true));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "openai: HTTP 500 from " + server.url("/v1/chat/completions") + ": internal");
}

TEST(llm_retry, connection_refused_is_retried_then_a_network_error) {
  provider_options o{.base_url = "http://127.0.0.1:" + std::to_string(closed_port()) + "/v1",
                     .model = "m",
                     .retry = {.max_retries = 2, .initial_delay = 1ms}};
  openai_chat model(o);
  auto r = model.complete(hello());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::network_error);
  EXPECT_EQ(r.error().message.rfind("openai: http request to 127.0.0.1:", 0), 0u)
      << r.error().message;
}

TEST(llm_retry, a_stream_cut_after_bytes_arrived_is_not_retried) {
  t::fake_llm_server server;
  auto cut = t::openai_response({.text = "hello there"}, true);
  cut.cut_after = 2;
  server.push(cut);
  server.push(t::openai_response({.text = "never asked"}, true));
  openai_chat model(fast_retries(server, 3));
  std::string shown;
  auto r = model.complete(hello(true), {.on_text = [&](std::string_view s) { shown += s; }});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::network_error);
  EXPECT_EQ(r.error().message.rfind("openai: the stream was cut mid-answer: ", 0), 0u)
      << r.error().message;
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(llm_retry, the_idle_timeout_names_the_provider_option) {
  t::response_gate gate;  // outlives the server, whose connection thread waits on it
  t::fake_llm_server server;
  server.set_responder([&](const t::recorded_request&) {
    gate.wait();
    return t::openai_response({.text = "late"}, false);
  });
  t::gate_opener opener{gate};
  auto o = fast_retries(server, 0);
  o.read_timeout = 200ms;
  openai_chat model(o);
  auto r = model.complete(hello());
  gate.open();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::timeout);
  EXPECT_NE(r.error().message.find("llm::provider_options::read_timeout = "), std::string::npos)
      << r.error().message;
  EXPECT_EQ(r.error().message.find("http::request::"), std::string::npos) << r.error().message;
}

TEST(llm_retry, a_stop_request_during_the_backoff_cancels) {
  t::fake_llm_server server;
  server.push(t::error_response(503, "busy"));
  std::stop_source stop;
  auto inner = http::default_transport();
  openai_chat model({.base_url = server.url("/v1"),
                     .model = "m",
                     .retry = {.max_retries = 3, .initial_delay = 60s, .max_delay = 60s},
                     .transport = [&](const http::request& req, const http::send_options& so) {
                       auto res = inner(req, so);
                       stop.request_stop();  // the provider is about to wait a minute to retry
                       return res;
                     }});
  auto r = model.complete(hello(), {}, stop.get_token());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::cancelled);
  EXPECT_EQ(r.error().message, "openai: request cancelled");
  EXPECT_EQ(server.requests().size(), 1u);
}

// ---- record / replay ----

TEST(record_replay, replays_a_streamed_and_a_plain_exchange_byte_for_byte_without_the_key) {
  t::temp_dir dir;
  std::string file = (dir.path() / "run.jsonl").string();
  t::fake_llm_server server;
  server.push(t::openai_response({.text = "streamed answer"}, true));
  server.push(t::openai_response({.text = "plain answer", .input_tokens = 3}, false));
  auto rec = record_transport(file, {});
  ASSERT_TRUE(rec) << rec.error().message;
  auto o = fast_retries(server, 0);
  o.transport = *rec;
  openai_chat live(o);
  std::string live_text;
  auto a = live.complete(hello(true), {.on_text = [&](std::string_view s) { live_text += s; }});
  auto b = live.complete({.messages = {message::user("again")}});
  ASSERT_TRUE(a && b);
  EXPECT_EQ(t::read_file(file).find("sk-live-123"), std::string::npos);

  auto rep = replay_transport(file);
  ASSERT_TRUE(rep) << rep.error().message;
  o.transport = *rep;
  o.base_url = server.url("/v1");  // same URL, but the server is never asked again
  openai_chat replayed(o);
  std::string replay_text;
  auto a2 =
      replayed.complete(hello(true), {.on_text = [&](std::string_view s) { replay_text += s; }});
  auto b2 = replayed.complete({.messages = {message::user("again")}});
  ASSERT_TRUE(a2) << a2.error().message;
  ASSERT_TRUE(b2) << b2.error().message;
  EXPECT_EQ(replay_text, live_text);
  EXPECT_EQ(a2->reply.text(), "streamed answer");
  EXPECT_EQ(b2->reply.text(), "plain answer");
  EXPECT_EQ(b2->usage.input_tokens, 3);
  EXPECT_EQ(server.requests().size(), 2u);
  // A third request is beyond the recording.
  auto c = replayed.complete(hello());
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, errc::protocol_error);
  EXPECT_NE(c.error().message.find("replay: request 3 (POST " + server.url("/v1/chat/completions") +
                                   ") is not in the recording, which has 2 exchanges"),
            std::string::npos)
      << c.error().message;
}

TEST(record_replay, a_different_request_is_refused_naming_the_exchange) {
  t::temp_dir dir;
  std::string file = (dir.path() / "r.jsonl").string();
  {
    std::ofstream out(file);
    out << R"({"request":{"method":"POST","url":"http://x/v1/chat/completions","body":"{}"},)"
           R"("response":{"status":200,"headers":[],"chunks":["{}"]}})"
           "\n";
  }
  auto rep = replay_transport(file);
  ASSERT_TRUE(rep);
  auto r = (*rep)({.method = "POST", .url = "http://y/v1/chat/completions", .body = "{}"}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "replay: exchange 1 was POST http://x/v1/chat/completions, now POST "
            "http://y/v1/chat/completions; record the run again");
  rep = replay_transport(file);
  r = (*rep)({.method = "POST", .url = "http://x/v1/chat/completions", .body = "{\"a\":1}"}, {});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("replay: exchange 1: the request body differs"),
            std::string::npos);
}

TEST(record_replay, a_failed_exchange_is_recorded_and_replayed_as_the_same_error) {
  t::temp_dir dir;
  std::string file = (dir.path() / "fail.jsonl").string();
  auto rec = record_transport(file, {});
  ASSERT_TRUE(rec);
  http::request req{.method = "GET",
                    .url = "http://127.0.0.1:" + std::to_string(closed_port()) + "/"};
  auto live = (*rec)(req, {});
  ASSERT_FALSE(live);
  auto rep = replay_transport(file);
  ASSERT_TRUE(rep) << rep.error().message;
  auto again = (*rep)(req, {});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, live.error().code);
  EXPECT_EQ(again.error().message, live.error().message);
}

TEST(record_replay, unreadable_unwritable_and_malformed_files_are_named) {
  t::temp_dir dir;
  auto missing = replay_transport((dir.path() / "nope.jsonl").string());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, errc::io_error);
  EXPECT_NE(missing.error().message.find("nope.jsonl"), std::string::npos);
  auto unwritable = record_transport((dir.path() / "no" / "dir.jsonl").string(), {});
  ASSERT_FALSE(unwritable);
  EXPECT_EQ(unwritable.error().code, errc::io_error);

  struct row {
    const char* name;
    const char* second_line;
  };
  const std::string good =
      R"({"request":{"method":"GET","url":"u","body":""},"response":{"status":200,"headers":[],"chunks":[]}})";
  for (
      auto [name, bad] :
      {row{"not json", "{oops"}, row{"no response", R"({"request":{}})"},
       row{"chunk not a string",
           R"({"request":{"method":"GET","url":"u","body":""},"response":{"status":200,"headers":[],"chunks":[42]}})"},
       row{"header not a pair",
           R"({"request":{"method":"GET","url":"u","body":""},"response":{"status":200,"headers":[["only-name"]],"chunks":[]}})"},
       row{"status not a number",
           R"({"request":{"method":"GET","url":"u","body":""},"response":{"status":"200","headers":[],"chunks":[]}})"}}) {
    std::string file = (dir.path() / "bad.jsonl").string();
    {
      std::ofstream out(file, std::ios::trunc);
      out << good << "\n" << bad << "\n";
    }
    auto rep = replay_transport(file);
    ASSERT_FALSE(rep) << name;
    EXPECT_EQ(rep.error().code, errc::parse_error) << name;
    EXPECT_NE(rep.error().message.find("line 2 is not an exchange"), std::string::npos)
        << name << ": " << rep.error().message;
  }
}

}  // namespace
}  // namespace tooluse::llm
