// mcp::client calls: progress (timeout reset, hard maximum), cancellation both ways, a server
// that dies, and many calls in flight at once.

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "client_test_support.hpp"

namespace mcp = tooluse::mcp;
using tooluse::json;
using namespace mcp::testing;
using namespace std::chrono_literals;

namespace {

// stop_flag records that a server-side tool saw its cancellation.
struct stop_flag {
  std::mutex mu;
  std::condition_variable cv;
  bool stopped = false;
  void set() {
    std::lock_guard lock(mu);
    stopped = true;
    cv.notify_all();
  }
  bool wait() {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, 10s, [&] { return stopped; });
  }
};

// add_waiting_tool adds "wait": it reports progress every `every` until cancelled (or, at
// most, `rounds` times).
void add_waiting_tool(mcp::server& srv, stop_flag& flag, std::chrono::milliseconds every,
                      int rounds = 1000000) {
  srv.add_tool({.name = "wait", .description = "waits for cancellation"},
               [&flag, every, rounds](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
                 std::mutex mu;
                 std::condition_variable_any cv;
                 std::unique_lock lock(mu);
                 for (int i = 0; !ctx.stop().stop_requested(); ++i) {
                   if (i == rounds) return tooluse::tool_result::text("not cancelled");
                   ctx.progress(i);
                   cv.wait_for(lock, ctx.stop(), every, [] { return false; });
                 }
                 flag.set();
                 return tooluse::tool_result::text("stopped");
               });
}

}  // namespace

TEST(mcp_client_calls, progress_resets_the_timeout) {
  http_fixture f;
  f.srv.add_tool({.name = "slow", .description = "reports progress while working"},
                 [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
                   for (int i = 1; i <= 4; ++i) {
                     std::this_thread::sleep_for(150ms);  // the work being measured
                     ctx.progress(i, 4, "step");
                   }
                   return tooluse::tool_result::text("done");
                 });
  ASSERT_TRUE(f.start());
  for (std::string version : {"2025-11-25", "2026-07-28"}) {
    auto c = mcp::client::connect(f.transport(),
                                  {.protocol_version = version, .request_timeout = 400ms});
    ASSERT_TRUE(c) << c.error().what();
    std::atomic<int> updates{0};
    auto r =
        (*c)->call_tool("slow", json::object(), {.on_progress = [&](const mcp::progress_update& u) {
                          EXPECT_EQ(u.total, 4.0);
                          ++updates;
                        }});
    ASSERT_TRUE(r) << version << ": " << r.error().what();
    EXPECT_EQ(r->all_text(), "done");
    EXPECT_EQ(updates.load(), 4);
  }
}

TEST(mcp_client_calls, hard_maximum_ends_a_call_despite_progress_and_cancels_it) {
  stop_flag flag;  // outlives the server, which stops the tool when it stops
  http_fixture f;
  add_waiting_tool(f.srv, flag, 50ms);
  ASSERT_TRUE(f.start());
  auto c = mcp::client::connect(
      f.transport(),
      {.protocol_version = "2025-11-25", .request_timeout = 10s, .max_request_time = 300ms});
  ASSERT_TRUE(c) << c.error().what();
  auto r = (*c)->call_tool("wait", json::object(), {.on_progress = [](const auto&) {}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, tooluse::errc::timeout);
  EXPECT_NE(r.error().message.find("within 300 ms"), std::string::npos);
  EXPECT_TRUE(flag.wait());  // notifications/cancelled reached the tool
}

TEST(mcp_client_calls, stop_token_cancels_the_call_on_the_server) {
  for (std::string version : {"2025-11-25", "2026-07-28"}) {
    const bool stateless = version == "2026-07-28";
    stop_flag flag;  // outlives the server: stopping it stops the tool, which then sets the flag
    http_fixture f;
    // 2026-07-28 cancels by closing the response stream; tooluse's server does not yet stop
    // the handler when that happens, so there the tool ends by itself after 20 rounds.
    add_waiting_tool(f.srv, flag, stateless ? 50ms : 1s, stateless ? 20 : 1000000);
    ASSERT_TRUE(f.start());
    auto c = mcp::client::connect(f.transport(), {.protocol_version = version});
    ASSERT_TRUE(c) << c.error().what();
    std::stop_source source;
    auto r = (*c)->call_tool(
        "wait", json::object(),
        {.on_progress = [&](const auto&) { source.request_stop(); }, .stop = source.get_token()});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, tooluse::errc::cancelled) << version;
    if (!stateless) {
      EXPECT_TRUE(flag.wait()) << version;
    }
  }
}

TEST(mcp_client_calls, timeout_sends_notifications_cancelled) {
  auto t = std::make_unique<scripted_transport>(legacy_script());  // never answers tools/call
  auto* raw = t.get();
  auto c = mcp::client::connect(std::move(t), {.request_timeout = 100ms});
  ASSERT_TRUE(c) << c.error().what();
  auto r = (*c)->call_tool("x");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, tooluse::errc::timeout);
  auto call =
      raw->wait_for_sent([](const json& m) { return m.value("method", "") == "tools/call"; });
  auto cancel = raw->wait_for_sent(
      [](const json& m) { return m.value("method", "") == "notifications/cancelled"; });
  ASSERT_TRUE(call && cancel);
  EXPECT_EQ((*cancel)["params"]["requestId"], (*call)["id"]);
  // The envelope names the request given up on: HTTP closes its stream, stdio counts it.
  auto sent = raw->sent();
  auto envelopes = raw->envelopes();
  ASSERT_EQ(sent.size(), envelopes.size());
  for (std::size_t i = 0; i < sent.size(); ++i) {
    if (sent[i].value("method", "") != "notifications/cancelled") continue;
    EXPECT_EQ(envelopes[i].request, (*call)["id"]);
    EXPECT_EQ(envelopes[i].protocol_version, "2025-11-25");
  }
}

TEST(mcp_client_calls, crash_fails_calls_in_flight_and_reports_it) {
  auto t = std::make_unique<scripted_transport>(legacy_script());
  auto* raw = t.get();
  std::promise<std::string> closed;
  auto c = mcp::client::connect(
      std::move(t), {.on_closed = [&](const tooluse::error& e) { closed.set_value(e.message); }});
  ASSERT_TRUE(c) << c.error().what();
  auto pending = std::async(std::launch::async, [&] { return (*c)->call_tool("x"); });
  ASSERT_TRUE(
      raw->wait_for_sent([](const json& m) { return m.value("method", "") == "tools/call"; }));
  raw->crash({tooluse::errc::io_error, "server exited with status 3"});
  auto r = pending.get();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "server exited with status 3");
  EXPECT_EQ(closed.get_future().get(), "server exited with status 3");
}

TEST(mcp_client_calls, many_calls_in_flight_are_correlated_by_id) {
  http_fixture f;
  f.srv.add_tool({.name = "echo", .description = "echoes n"},
                 [](const json& args, mcp::request_context&) -> mcp::tool_outcome {
                   return tooluse::tool_result::text(args.value("n", json()).dump());
                 });
  ASSERT_TRUE(f.start());
  for (std::string version : {"2025-11-25", "2026-07-28"}) {
    auto c = mcp::client::connect(f.transport(), {.protocol_version = version});
    ASSERT_TRUE(c) << c.error().what();
    std::vector<std::future<tooluse::result<tooluse::tool_result>>> calls;
    for (int i = 0; i < 16; ++i)
      calls.push_back(std::async(std::launch::async, [&, i] {
        return (*c)->call_tool("echo", {{"n", i}});
      }));
    for (int i = 0; i < 16; ++i) {
      auto r = calls[i].get();
      ASSERT_TRUE(r) << r.error().what();
      EXPECT_EQ(r->all_text(), std::to_string(i));
    }
  }
}
