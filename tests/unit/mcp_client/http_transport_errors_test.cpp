// The Streamable HTTP client transport against a scripted HTTP peer on loopback (the fake
// server of tests/support answers each request as the test says): answers that are not
// JSON-RPC, HTTP error statuses, a session the server forgot, nothing listening, SSE streams
// that end early, resumption that keeps failing or is refused, batches, malformed events, the
// standalone GET stream, use after close, and the envelope: each write's revision is its
// MCP-Protocol-Version (the latest one that of GET and DELETE), and a cancellation written with
// the id of its request closes that request's stream.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "support/fake_llm_server.hpp"
#include "tooluse/mcp/http_client_transport.hpp"

namespace http_transport_errors_test {
namespace mcp = tooluse::mcp;
using tooluse::errc;
using tooluse::error;
using tooluse::json;
using tooluse::testing::fake_llm_server;
using tooluse::testing::recorded_request;
using tooluse::testing::scripted_response;
using namespace std::chrono_literals;

namespace {

// sink collects what the transport hands its client; waits are bounded so a bug fails.
struct sink {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<json> messages;
  std::map<std::string, error> failed;  // request id (dumped) -> why it gets no reply

  mcp::transport_handlers handlers() {
    return {.on_message =
                [this](json m) {
                  std::lock_guard lock(mu);
                  messages.push_back(std::move(m));
                  cv.notify_all();
                },
            .on_closed = [](const error&) {},
            .on_send_failed =
                [this](const json& id, const error& e) {
                  std::lock_guard lock(mu);
                  failed.emplace(id.dump(), e);
                  cv.notify_all();
                }};
  }
  std::optional<error> wait_failure(const json& id) {
    std::unique_lock lock(mu);
    cv.wait_for(lock, 20s, [&] { return failed.count(id.dump()) > 0; });
    auto it = failed.find(id.dump());
    if (it == failed.end()) return std::nullopt;
    return it->second;
  }
  bool wait_messages(std::size_t n) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, 20s, [&] { return messages.size() >= n; });
  }
};

json request(int id, std::string method = "tools/list") {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", std::move(method)}};
}

json reply_to(int id) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", json::object()}}; }

json notification(std::string method) {
  return {{"jsonrpc", "2.0"}, {"method", std::move(method)}};
}

scripted_response json_answer(const json& body, int status = 200) {
  return {.status = status, .body = body.dump()};
}

// sse_event is one SSE event with an optional id and retry (milliseconds).
std::string sse_event(const std::string& data, const std::string& id = "", int retry = -1) {
  std::string e;
  if (!id.empty()) e += "id: " + id + "\n";
  if (retry >= 0) e += "retry: " + std::to_string(retry) + "\n";
  return e + "data: " + data + "\n\n";
}

scripted_response sse_answer(std::vector<std::string> chunks) {
  return {.chunks = std::move(chunks)};
}

struct http_peer : ::testing::Test {
  fake_llm_server peer;
  sink got;
  std::unique_ptr<mcp::client_transport> t;

  void connect(mcp::http_client_options o = {}) {
    o.url = peer.url("/mcp");
    t = mcp::make_http_client_transport(std::move(o));
    ASSERT_TRUE(t->start(got.handlers()));
  }
  std::vector<recorded_request> with_method(const std::string& m) {
    std::vector<recorded_request> out;
    for (auto& r : peer.requests())
      if (r.method == m) out.push_back(r);
    return out;
  }
};

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}


TEST_F(http_peer, a_plain_text_answer_fails_the_request_as_a_protocol_error) {
  peer.push({.headers = {{"Content-Type", "text/plain"}}, .body = "hello from a web page"});
  connect();
  ASSERT_TRUE(t->send(request(1)));
  auto e = got.wait_failure(1);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, errc::protocol_error);
  EXPECT_TRUE(contains(e->message, "HTTP 200 without a JSON-RPC response")) << e->message;
  EXPECT_TRUE(contains(e->message, "hello from a web page")) << e->message;
  EXPECT_TRUE(contains(e->message, peer.url("/mcp"))) << e->message;
}

TEST_F(http_peer, an_error_status_without_a_response_fails_as_an_http_error) {
  peer.push({.status = 503, .headers = {{"Content-Type", "text/plain"}}, .body = "overloaded"});
  connect();
  ASSERT_TRUE(t->send(request(7)));
  auto e = got.wait_failure(7);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, errc::http_error);
  EXPECT_TRUE(contains(e->message, "HTTP 503")) << e->message;
  EXPECT_TRUE(contains(e->message, "overloaded")) << e->message;
}

TEST_F(http_peer, a_json_rpc_error_sent_with_an_error_status_is_still_the_answer) {
  json err = {
      {"jsonrpc", "2.0"}, {"id", 2}, {"error", {{"code", -32602}, {"message", "bad params"}}}};
  peer.push(json_answer(err, 400));
  connect();
  ASSERT_TRUE(t->send(request(2)));
  ASSERT_TRUE(got.wait_messages(1));
  EXPECT_EQ(got.messages[0], err);
  std::lock_guard lock(got.mu);
  EXPECT_TRUE(got.failed.empty());
}

TEST_F(http_peer, a_json_error_body_that_is_not_json_rpc_fails_the_request_unseen) {
  // An OAuth-style error from a gateway, and one that even carries our id: neither is a
  // JSON-RPC response, so neither reaches on_message; each fails its own request.
  peer.push(json_answer({{"error", "invalid_token"}}, 401));
  peer.push(json_answer({{"id", 12}, {"error", "forbidden"}}, 403));
  connect();
  ASSERT_TRUE(t->send(request(11)));
  auto e = got.wait_failure(11);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, errc::http_error);
  EXPECT_TRUE(contains(e->message, "HTTP 401 without a JSON-RPC response to our request: "
                                   "{\"error\":\"invalid_token\"}"))
      << e->message;
  ASSERT_TRUE(t->send(request(12)));
  auto f = got.wait_failure(12);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->code, errc::http_error);
  EXPECT_TRUE(contains(f->message, "HTTP 403")) << f->message;
  std::lock_guard lock(got.mu);
  EXPECT_TRUE(got.messages.empty());
}

TEST_F(http_peer, a_json_rpc_error_without_an_id_is_named_by_code_and_message) {
  json err = {{"jsonrpc", "2.0"},
              {"id", nullptr},
              {"error", {{"code", -32600}, {"message", "Bad Request: no session"}}}};
  peer.push(json_answer(err, 400));
  connect();
  ASSERT_TRUE(t->send(request(13)));
  auto e = got.wait_failure(13);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, errc::http_error);
  EXPECT_TRUE(contains(e->message, "HTTP 400 without a JSON-RPC response to our request: "
                                   "JSON-RPC error -32600: Bad Request: no session"))
      << e->message;
}

TEST_F(http_peer, a_json_batch_is_delivered_message_by_message) {
  peer.push(json_answer(json::array({notification("notifications/message"), reply_to(3)})));
  connect();
  ASSERT_TRUE(t->send(request(3)));
  ASSERT_TRUE(got.wait_messages(2));
  EXPECT_EQ(got.messages[0]["method"], "notifications/message");
  EXPECT_EQ(got.messages[1]["id"], 3);
  std::lock_guard lock(got.mu);
  EXPECT_TRUE(got.failed.empty());
}

TEST_F(http_peer, a_forgotten_session_fails_the_request_and_is_dropped) {
  peer.push({.headers = {{"Mcp-Session-Id", "s-1"}}, .body = reply_to(1).dump()});
  peer.push({.status = 404, .body = "{}"});
  peer.push(json_answer(reply_to(3)));
  connect();
  ASSERT_TRUE(t->send(request(1)));
  ASSERT_TRUE(got.wait_messages(1));
  ASSERT_TRUE(t->send(request(2)));
  auto e = got.wait_failure(2);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, errc::not_found);
  EXPECT_EQ(e->jsonrpc_code, mcp::session_not_found_code);
  ASSERT_TRUE(t->send(request(3)));
  ASSERT_TRUE(got.wait_messages(2));
  auto posts = with_method("POST");
  ASSERT_EQ(posts.size(), 3u);
  EXPECT_EQ(posts[0].header("Mcp-Session-Id"), "");
  EXPECT_EQ(posts[1].header("Mcp-Session-Id"), "s-1");
  EXPECT_EQ(posts[2].header("Mcp-Session-Id"), "");  // forgotten with the server's 404
}

TEST_F(http_peer, a_404_without_a_session_is_an_http_error_not_a_lost_session) {
  peer.push({.status = 404, .headers = {{"Content-Type", "text/plain"}}, .body = "no such path"});
  connect();
  ASSERT_TRUE(t->send(request(1)));
  auto e = got.wait_failure(1);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, errc::http_error);
  EXPECT_NE(e->jsonrpc_code, mcp::session_not_found_code);
}

TEST_F(http_peer, a_refused_notification_fails_its_send_with_the_status_and_body) {
  peer.push({.status = 500, .headers = {{"Content-Type", "text/plain"}}, .body = "boom"});
  connect();
  auto sent = t->send(notification("notifications/initialized"));
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, errc::http_error);
  EXPECT_TRUE(contains(sent.error().message, "POST of notifications/initialized got HTTP 500"))
      << sent.error().message;
  EXPECT_TRUE(contains(sent.error().message, "boom")) << sent.error().message;
}

TEST_F(http_peer, a_response_posted_back_names_itself_when_refused) {
  peer.push({.status = 400, .headers = {{"Content-Type", "text/plain"}}, .body = "unknown id"});
  connect();
  auto sent = t->send(reply_to(9));  // our answer to a request the server made
  ASSERT_FALSE(sent);
  EXPECT_TRUE(contains(sent.error().message, "POST of a response got HTTP 400"))
      << sent.error().message;
}

TEST_F(http_peer, a_notification_to_a_forgotten_session_reports_the_lost_session) {
  peer.push({.headers = {{"Mcp-Session-Id", "s-9"}}, .body = reply_to(1).dump()});
  peer.push({.status = 404, .body = ""});
  connect();
  ASSERT_TRUE(t->send(request(1)));
  ASSERT_TRUE(got.wait_messages(1));
  auto sent = t->send(notification("notifications/initialized"));
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, errc::not_found);
  EXPECT_EQ(sent.error().jsonrpc_code, mcp::session_not_found_code);
}

TEST(mcp_http_transport_errors, nothing_listening_says_to_check_the_server_and_the_url) {
  // A bound socket that does not listen: connecting to it is refused.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  socklen_t len = sizeof a;
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/mcp";
  sink got;
  auto t = mcp::make_http_client_transport({.url = url, .connect_timeout = 5s});
  ASSERT_TRUE(t->start(got.handlers()));
  auto sent = t->send(notification("notifications/initialized"));
  ASSERT_FALSE(sent);
  EXPECT_TRUE(contains(sent.error().message, url + ": POST failed")) << sent.error().message;
  EXPECT_TRUE(contains(sent.error().message, "check that the MCP server is running"));
  ASSERT_TRUE(t->send(request(4)));  // a request fails through on_send_failed instead
  auto e = got.wait_failure(4);
  ASSERT_TRUE(e);
  EXPECT_TRUE(contains(e->message, "check that the MCP server is running")) << e->message;
  t->close();
  ::close(fd);
}

TEST_F(http_peer, a_stream_that_ends_early_without_an_event_id_cannot_be_resumed) {
  peer.push(sse_answer({sse_event(notification("notifications/progress").dump())}));
  connect();
  ASSERT_TRUE(t->send(request(5)));
  auto e = got.wait_failure(5);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, errc::protocol_error);
  EXPECT_TRUE(contains(e->message, "carried no event id to resume")) << e->message;
  std::lock_guard lock(got.mu);
  ASSERT_EQ(got.messages.size(), 1u);  // what did arrive was delivered
  EXPECT_EQ(got.messages[0]["method"], "notifications/progress");
  EXPECT_TRUE(with_method("GET").empty());
}

TEST_F(http_peer, a_stream_that_keeps_breaking_gives_up_after_max_reconnects) {
  peer.set_responder([](const recorded_request& r) -> scripted_response {
    if (r.method == "POST")
      return sse_answer({sse_event(notification("notifications/progress").dump(), "e1", 0)});
    return sse_answer({": still here\n\n"});  // a comment: no event, no progress
  });
  connect({.max_reconnects = 2});
  ASSERT_TRUE(t->send(request(6)));
  auto e = got.wait_failure(6);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, errc::network_error);
  EXPECT_TRUE(contains(e->message, "broke 2 times in a row")) << e->message;
  auto gets = with_method("GET");
  ASSERT_EQ(gets.size(), 2u);
  for (const auto& g : gets) {
    EXPECT_EQ(g.header("Last-Event-ID"), "e1");
    EXPECT_EQ(g.header("Accept"), "text/event-stream");
  }
}

TEST_F(http_peer, a_resumption_refused_with_an_error_status_fails_the_request) {
  peer.set_responder([](const recorded_request& r) -> scripted_response {
    if (r.method == "POST") return sse_answer({sse_event("{}", "e7", 0)});
    return {.status = 410, .headers = {{"Content-Type", "text/plain"}}, .body = "stream expired"};
  });
  connect();
  ASSERT_TRUE(t->send(request(8)));
  auto e = got.wait_failure(8);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, errc::http_error);
  EXPECT_TRUE(contains(e->message, "resuming the stream got HTTP 410: stream expired"))
      << e->message;
}

TEST_F(http_peer, a_resumed_stream_that_makes_progress_is_not_counted_as_broken) {
  // Two resumptions each bring one event and end; the third brings the response. With
  // max_reconnects = 1 this succeeds only because an event resets the count. The `{}` events
  // count as progress but are not JSON-RPC, so only the response reaches on_message.
  peer.set_responder([](const recorded_request& r) -> scripted_response {
    if (r.method == "POST") return sse_answer({sse_event("{}", "e1", 0)});
    const std::string last = r.header("Last-Event-ID");
    if (last == "e1") return sse_answer({sse_event("{}", "e2")});
    if (last == "e2") return sse_answer({sse_event("{}", "e3")});
    return sse_answer({sse_event(reply_to(11).dump(), "e4")});
  });
  connect({.max_reconnects = 1});
  ASSERT_TRUE(t->send(request(11)));
  ASSERT_TRUE(got.wait_messages(1));
  EXPECT_EQ(with_method("GET").size(), 3u);
  std::lock_guard lock(got.mu);
  ASSERT_EQ(got.messages.size(), 1u);
  EXPECT_EQ(got.messages.back()["id"], 11);
  EXPECT_TRUE(got.failed.empty());
}

TEST_F(http_peer, a_malformed_event_is_skipped_and_the_response_after_it_delivered) {
  peer.push(sse_answer({sse_event("{not json"), sse_event(reply_to(12).dump())}));
  connect();
  ASSERT_TRUE(t->send(request(12)));
  ASSERT_TRUE(got.wait_messages(1));
  EXPECT_EQ(got.messages[0]["id"], 12);
  std::lock_guard lock(got.mu);
  EXPECT_EQ(got.messages.size(), 1u);
  EXPECT_TRUE(got.failed.empty());
}

TEST_F(http_peer, the_get_stream_brings_server_messages_and_resumes_until_refused) {
  std::mutex mu;
  std::condition_variable cv;
  bool refused = false;
  peer.set_responder([&](const recorded_request& r) -> scripted_response {
    if (r.method == "POST")
      return {.headers = {{"Mcp-Session-Id", "s-g"}}, .body = reply_to(1).dump()};
    if (r.method == "GET" && r.header("Last-Event-ID").empty())
      return sse_answer(
          {sse_event(notification("notifications/tools/list_changed").dump(), "g1", 0)});
    if (r.method == "GET") {
      std::lock_guard lock(mu);
      refused = true;
      cv.notify_all();
      return {.status = 405, .body = ""};  // no more: the client does without
    }
    return {.status = 200, .body = ""};  // the DELETE on close
  });
  connect();
  ASSERT_TRUE(t->send(request(1)));  // initialize: no revision yet
  ASSERT_TRUE(got.wait_messages(1));
  // The first write under a handshake revision, with a session, opens the GET stream.
  const json initialized = notification("notifications/initialized");
  ASSERT_TRUE(t->write({.message = initialized, .protocol_version = "2025-06-18"}));
  ASSERT_TRUE(got.wait_messages(2));
  EXPECT_EQ(got.messages[1]["method"], "notifications/tools/list_changed");
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 20s, [&] { return refused; }));
  }
  t->close();
  auto gets = with_method("GET");
  ASSERT_EQ(gets.size(), 2u);
  EXPECT_EQ(gets[0].header("Mcp-Session-Id"), "s-g");
  EXPECT_EQ(gets[0].header("MCP-Protocol-Version"), "2025-06-18");
  EXPECT_EQ(gets[1].header("Last-Event-ID"), "g1");
  auto deletes = with_method("DELETE");
  ASSERT_EQ(deletes.size(), 1u);
  EXPECT_EQ(deletes[0].header("Mcp-Session-Id"), "s-g");
}

TEST_F(http_peer, no_get_stream_is_opened_without_a_session_or_when_turned_off) {
  peer.set_responder([](const recorded_request& r) -> scripted_response {
    if (r.method == "POST") return {.body = reply_to(1).dump()};
    return {.status = 405, .body = ""};
  });
  connect();
  ASSERT_TRUE(t->send(request(1)));
  ASSERT_TRUE(got.wait_messages(1));
  const json initialized = notification("notifications/initialized");
  // No session: nothing to attach a GET stream to.
  ASSERT_TRUE(t->write({.message = initialized, .protocol_version = "2025-06-18"}));
  t->close();
  EXPECT_TRUE(with_method("GET").empty());
  EXPECT_TRUE(with_method("DELETE").empty());  // and no session to delete
}

TEST_F(http_peer, sending_after_close_is_refused_as_cancelled) {
  connect();
  t->close();
  auto sent = t->send(request(1));
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, errc::cancelled);
  EXPECT_TRUE(contains(sent.error().message, "the connection is closed")) << sent.error().message;
  EXPECT_TRUE(peer.requests().empty());
}

TEST(mcp_http_transport_errors, a_url_that_is_not_http_is_refused_when_made) {
  EXPECT_THROW(mcp::make_http_client_transport({.url = "ftp://example.test/mcp"}),
               std::invalid_argument);
  EXPECT_THROW(mcp::make_http_client_transport({.url = "127.0.0.1:3000/mcp"}),
               std::invalid_argument);
  auto ok = mcp::make_http_client_transport({.url = "https://example.test/mcp"});
  EXPECT_EQ(ok->describe(), "https://example.test/mcp");
  auto info = ok->start({});  // sends nothing
  ASSERT_TRUE(info);
  EXPECT_TRUE(info->carries_headers);
}

TEST_F(http_peer, each_write_states_its_revision_and_the_latest_serves_the_delete) {
  peer.set_responder([](const recorded_request& r) -> scripted_response {
    json m = r.json_body();
    if (r.method == "POST" && m.contains("id"))
      return {.headers = {{"Mcp-Session-Id", "s-v"}},
              .body = reply_to(m["id"].get<int>()).dump()};
    return {.status = 200, .body = ""};  // a notification, and the DELETE on close
  });
  connect({.open_get_stream = false});
  ASSERT_TRUE(t->send(request(1, "initialize")));
  ASSERT_TRUE(got.wait_messages(1));
  const json initialized = notification("notifications/initialized");
  ASSERT_TRUE(t->write({.message = initialized, .protocol_version = "2025-11-25"}));
  const json list = request(2);
  ASSERT_TRUE(t->write({.message = list, .protocol_version = "2025-11-25"}));
  ASSERT_TRUE(got.wait_messages(2));
  t->close();
  auto posts = with_method("POST");
  ASSERT_EQ(posts.size(), 3u);
  EXPECT_EQ(posts[0].header("MCP-Protocol-Version"), "");  // initialize carries none
  EXPECT_EQ(posts[1].header("MCP-Protocol-Version"), "2025-11-25");
  EXPECT_EQ(posts[2].header("MCP-Protocol-Version"), "2025-11-25");
  EXPECT_EQ(posts[2].header("Mcp-Method"), "");  // a handshake revision: no 2026-07-28 headers
  auto deletes = with_method("DELETE");
  ASSERT_EQ(deletes.size(), 1u);
  EXPECT_EQ(deletes[0].header("MCP-Protocol-Version"), "2025-11-25");
}

// stalled_post stands in for the network for one request, "slow", whose POST it holds until
// the transport stops it; everything else goes to the peer.
struct stalled_post {
  std::mutex mu;
  std::condition_variable_any cv;
  bool started = false, stopped = false;

  tooluse::http::transport sender() {
    return [this](const tooluse::http::request& req, const tooluse::http::send_options& so)
               -> tooluse::result<tooluse::http::response> {
      if (req.body.find("\"slow\"") == std::string::npos) return tooluse::http::send(req, so);
      std::unique_lock lock(mu);
      started = true;
      cv.notify_all();
      cv.wait_for(lock, so.stop, 20s, [] { return false; });
      stopped = so.stop.stop_requested();
      cv.notify_all();
      return tooluse::fail(errc::cancelled, "stopped");
    };
  }
  bool wait(bool stalled_post::*flag) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, 20s, [&] { return this->*flag; });
  }
};

json cancellation(const json& id) {
  return {{"jsonrpc", "2.0"},
          {"method", "notifications/cancelled"},
          {"params", {{"requestId", id}, {"reason", "timed out"}}}};
}

bool eventually(const std::function<bool()>& done) {
  for (int i = 0; i < 2000 && !done(); ++i) std::this_thread::sleep_for(10ms);
  return done();
}

TEST_F(http_peer, giving_up_on_a_request_closes_its_stream_and_posts_the_cancellation) {
  stalled_post net;
  connect({.open_get_stream = false, .sender = net.sender()});
  const json id = 5, slow = request(5, "slow");
  ASSERT_TRUE(t->write({.message = slow, .protocol_version = "2025-11-25"}));
  ASSERT_TRUE(net.wait(&stalled_post::started));
  // A cancellation that names no request in its envelope (a user's notify) is only posted.
  const json plain = cancellation(id);
  ASSERT_TRUE(t->write({.message = plain, .protocol_version = "2025-11-25"}));
  ASSERT_TRUE(eventually([&] { return with_method("POST").size() == 1; }));
  {
    std::lock_guard lock(net.mu);
    EXPECT_FALSE(net.stopped);
  }
  ASSERT_TRUE(t->write({.message = plain, .request = &id, .protocol_version = "2025-11-25"}));
  EXPECT_TRUE(net.wait(&stalled_post::stopped)) << "the request's POST was not stopped";
  ASSERT_TRUE(eventually([&] { return with_method("POST").size() == 2; }));
  EXPECT_EQ(with_method("POST")[1].header("MCP-Protocol-Version"), "2025-11-25");
  t->close();
  std::lock_guard lock(got.mu);
  EXPECT_TRUE(got.failed.empty());  // given up: its end is not reported as a failure
}

TEST_F(http_peer, under_2026_07_28_closing_the_stream_is_the_cancellation) {
  stalled_post net;
  connect({.sender = net.sender()});
  const json id = 6, slow = request(6, "slow");
  ASSERT_TRUE(t->write({.message = slow, .protocol_version = "2026-07-28"}));
  ASSERT_TRUE(net.wait(&stalled_post::started));
  const json cancel = cancellation(id);
  ASSERT_TRUE(t->write({.message = cancel, .request = &id, .protocol_version = "2026-07-28"}));
  EXPECT_TRUE(net.wait(&stalled_post::stopped)) << "the request's POST was not stopped";
  t->close();  // joins every thread of the transport: a cancellation would have been posted
  EXPECT_TRUE(peer.requests().empty());
}

}  // namespace

}  // namespace http_transport_errors_test
