// request_context and the server's message handling driven directly (a server_session over a
// test connection, messages handed in, emitted messages collected): progress notifications, log
// filtering, server-to-client requests (answer, error, timeout, cancellation, a closed session),
// the notifications/cancelled path, and responses that match no pending request.
#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <thread>

#include "tooluse/jsonrpc/framing.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace context_test {
namespace mcp = tooluse::mcp;
namespace jsonrpc = tooluse::jsonrpc;
using namespace tooluse::mcp::test;
using namespace std::chrono_literals;
using tooluse::errc;
using tooluse::json;
using tooluse::tool_result;

namespace {

// sink collects what a request emits (with whether it is the last message: the response),
// and wakes a waiter. `conn` is the connection to hand to server_session::handle.
struct sink {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::pair<json, bool>> got;
  fn_connection conn{[this](const json& j, const json*) {
    std::lock_guard lock(mu);
    got.emplace_back(j, !j.contains("method"));
    cv.notify_all();
  }};
  // wait_for_method waits (10 s bound) until a message with `method` arrived; returns it.
  std::optional<json> wait_for_method(const std::string& method) {
    std::unique_lock lock(mu);
    std::optional<json> found;
    cv.wait_for(lock, 10s, [&] {
      for (auto& [j, last] : got)
        if (j.value("method", "") == method) found = j;
      return found.has_value();
    });
    return found;
  }
};

jsonrpc::message parse(const json& j) {
  auto p = jsonrpc::parse_value(j);
  EXPECT_EQ(p.messages.size(), 1u);
  return p.messages.at(0);
}

struct fixture {
  mcp::server server{{.name = "ctx", .version = "1"}};
  fn_connection none;  ///< messages not tied to a request: dropped
  std::unique_ptr<mcp::server_session> s = server.connect(none);
  void init(json caps = json::object()) {
    sink out;
    s->handle(parse(req(0, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", caps}})),
              out.conn);
  }
  // handle runs one message and returns what was emitted.
  std::vector<std::pair<json, bool>> handle(const json& m, bool* answered = nullptr) {
    sink out;
    bool a = s->handle(parse(m), out.conn);
    if (answered) *answered = a;
    return out.got;
  }
};

}  // namespace

TEST(mcp_context, progress_is_sent_only_with_a_usable_token) {
  fixture f;
  f.server.add_tool({.name = "p"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    ctx.progress(1, 4, "quarter");
    ctx.progress(2);
    return tool_result::text("ok");
  });
  f.init();
  auto with_string = f.handle(req(1, "tools/call", {{"name", "p"}, {"_meta", {{"progressToken", "tok"}}}}));
  ASSERT_EQ(with_string.size(), 3u);
  EXPECT_EQ(with_string[0].first["params"], (json{{"progressToken", "tok"}, {"progress", 1.0}, {"total", 4.0}, {"message", "quarter"}}));
  EXPECT_FALSE(with_string[0].second);
  EXPECT_EQ(with_string[1].first["params"], (json{{"progressToken", "tok"}, {"progress", 2.0}}));
  EXPECT_TRUE(with_string[2].second);
  EXPECT_EQ(with_string[2].first["id"], 1);
  auto with_int = f.handle(req(2, "tools/call", {{"name", "p"}, {"_meta", {{"progressToken", 42}}}}));
  ASSERT_EQ(with_int.size(), 3u);
  EXPECT_EQ(with_int[0].first["params"]["progressToken"], 42);
  for (json bad : {json(1.5), json::object(), json(nullptr)}) {
    auto none = f.handle(req(3, "tools/call", {{"name", "p"}, {"_meta", {{"progressToken", bad}}}}));
    EXPECT_EQ(none.size(), 1u) << bad.dump();
  }
  auto meta_not_object = f.handle(req(4, "tools/call", {{"name", "p"}, {"_meta", "tok"}}));
  EXPECT_EQ(meta_not_object.size(), 1u);
}

TEST(mcp_context, request_context_exposes_params_meta_and_version) {
  fixture f;
  json seen;
  f.server.add_tool({.name = "look"}, [&](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    seen = {{"params", ctx.params()}, {"meta", ctx.meta()}, {"version", ctx.protocol_version()},
            {"task", ctx.task_id()}, {"responses", ctx.input_responses()}, {"state", ctx.request_state().has_value()}};
    return tool_result::text("ok");
  });
  f.init();
  f.handle(req(1, "tools/call", {{"name", "look"}, {"_meta", {{"k", "v"}}}}));
  EXPECT_EQ(seen["meta"]["k"], "v");
  EXPECT_EQ(seen["params"]["name"], "look");
  EXPECT_EQ(seen["version"], "2025-11-25");
  EXPECT_EQ(seen["task"], "");
  EXPECT_EQ(seen["responses"], json::object());
  EXPECT_EQ(seen["state"], false);
}

TEST(mcp_context, a_client_answer_reaches_the_waiting_handler) {
  fixture f;
  f.server.add_tool({.name = "ask"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    auto r = ctx.request_client("roots/list", nullptr);
    if (!r) return tool_result::error(r.error().message);
    return tool_result::text((*r)["roots"].dump());
  });
  f.init({{"roots", json::object()}});
  sink out;
  auto done = std::async(std::launch::async, [&] {
    return f.s->handle(parse(req(1, "tools/call", {{"name", "ask"}})), out.conn);
  });
  auto ask = out.wait_for_method("roots/list");
  ASSERT_TRUE(ask);
  EXPECT_FALSE(ask->contains("params"));  // null params are left out
  // A response for an id nobody waits for is ignored.
  f.handle({{"jsonrpc", "2.0"}, {"id", 999}, {"result", json::object()}});
  f.handle({{"jsonrpc", "2.0"}, {"id", (*ask)["id"]}, {"result", {{"roots", {{{"uri", "file:///x"}}}}}}});
  EXPECT_TRUE(done.get());
  std::lock_guard lock(out.mu);
  EXPECT_EQ(out.got.back().first["result"]["content"][0]["text"], R"([{"uri":"file:///x"}])");
}

TEST(mcp_context, a_client_error_is_a_protocol_error_with_its_code) {
  fixture f;
  f.server.add_tool({.name = "ask"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    auto r = ctx.request_client("sampling/createMessage", json::object());
    if (r) return tool_result::text("answered");
    return tool_result::text(std::to_string(static_cast<int>(r.error().code == errc::protocol_error)) + " " +
                             std::to_string(r.error().jsonrpc_code) + " " + r.error().message);
  });
  f.init();
  sink out;
  auto done = std::async(std::launch::async, [&] {
    return f.s->handle(parse(req(1, "tools/call", {{"name", "ask"}})), out.conn);
  });
  auto ask = out.wait_for_method("sampling/createMessage");
  ASSERT_TRUE(ask);
  f.handle({{"jsonrpc", "2.0"}, {"id", (*ask)["id"]}, {"error", {{"code", -1}, {"message", "user declined"}}}});
  done.get();
  std::lock_guard lock(out.mu);
  EXPECT_EQ(out.got.back().first["result"]["content"][0]["text"], "1 -1 user declined");
}

TEST(mcp_context, an_unanswered_request_times_out_and_is_cancelled_at_the_client) {
  fixture f;
  f.server.add_tool({.name = "ask"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    auto r = ctx.request_client("elicitation/create", json::object(), 1ms);
    return tool_result::text(r ? "answered" : r.error().code == errc::timeout ? "timeout" : r.error().message);
  });
  f.init();
  auto got = f.handle(req(1, "tools/call", {{"name", "ask"}}));
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].first["method"], "elicitation/create");
  EXPECT_EQ(got[1].first["method"], "notifications/cancelled");
  EXPECT_EQ(got[1].first["params"]["requestId"], got[0].first["id"]);
  EXPECT_EQ(got[1].first["params"]["reason"], "timeout");
  EXPECT_EQ(got[2].first["result"]["content"][0]["text"], "timeout");
  // A late answer finds nothing waiting and changes nothing.
  f.handle({{"jsonrpc", "2.0"}, {"id", got[0].first["id"]}, {"result", json::object()}});
}

TEST(mcp_context, cancelling_the_request_wakes_a_handler_waiting_for_the_client) {
  fixture f;
  std::promise<std::string> outcome;
  f.server.add_tool({.name = "ask"}, [&](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    auto r = ctx.request_client("elicitation/create", json::object(), 30s);
    outcome.set_value(r ? "answered" : r.error().code == errc::cancelled ? "cancelled" : r.error().message);
    return tool_result::text("late");
  });
  f.init();
  sink out;
  auto done = std::async(std::launch::async, [&] {
    return f.s->handle(parse(req(7, "tools/call", {{"name", "ask"}})), out.conn);
  });
  ASSERT_TRUE(out.wait_for_method("elicitation/create"));
  f.handle(notif("notifications/cancelled", {{"requestId", 7}, {"reason", "user"}}));
  EXPECT_EQ(outcome.get_future().get(), "cancelled");
  EXPECT_FALSE(done.get());  // a cancelled request gets no response
  auto cancel_note = out.wait_for_method("notifications/cancelled");
  ASSERT_TRUE(cancel_note);
  EXPECT_EQ(cancel_note->at("params")["reason"], "cancelled");
  std::lock_guard lock(out.mu);
  for (auto& [j, last] : out.got) EXPECT_FALSE(j.contains("result"));
}

TEST(mcp_context, closing_the_session_fails_pending_client_requests) {
  mcp::server server({.name = "ctx", .version = "1"});
  fn_connection none;
  auto s = server.connect(none);
  std::promise<std::string> outcome;
  server.add_tool({.name = "ask"}, [&](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    auto r = ctx.request_client("roots/list", json::object(), 30s);
    outcome.set_value(r ? "answered" : r.error().code == errc::cancelled ? "cancelled" : r.error().message);
    auto again = ctx.request_client("roots/list", json::object(), 30s);
    return tool_result::text(again ? "again answered" : again.error().message);
  });
  sink out;
  s->handle(parse(req(0, "initialize", {{"protocolVersion", "2025-11-25"}})), out.conn);
  auto done = std::async(std::launch::async, [&] {
    return s->handle(parse(req(1, "tools/call", {{"name", "ask"}})), out.conn);
  });
  ASSERT_TRUE(out.wait_for_method("roots/list"));
  s->close();
  EXPECT_EQ(outcome.get_future().get(), "cancelled");
  // The tool saw its stop requested (close stops running calls): no response.
  EXPECT_FALSE(done.get());
}

TEST(mcp_context, cancelled_notifications_that_match_nothing_are_ignored) {
  fixture f;
  f.init();
  for (json params : {json{{"requestId", 12345}}, json{{"requestId", json::array()}}, json::object()}) {
    auto got = f.handle(notif("notifications/cancelled", params));
    EXPECT_TRUE(got.empty());
  }
  auto other = f.handle(notif("notifications/roots/list_changed"));
  EXPECT_TRUE(other.empty());
  auto ping = f.handle(req(1, "ping"));
  ASSERT_EQ(ping.size(), 1u);
  EXPECT_EQ(ping[0].first["result"], json::object());
}

TEST(mcp_context, a_stateless_request_on_a_fresh_session_is_checked_first) {
  fixture f;
  json meta = stateless_meta();
  meta["io.modelcontextprotocol/protocolVersion"] = "2099-01-01";
  bool answered = false;
  auto got = f.handle(req(1, "tools/list", {{"_meta", meta}}), &answered);
  EXPECT_TRUE(answered);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].second);
  EXPECT_EQ(got[0].first["error"]["code"], -32022);
}

TEST(mcp_context, log_on_a_session_without_a_level_passes_everything) {
  fixture f;
  f.server.add_tool({.name = "l"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    ctx.log(mcp::log_level::debug, {{"n", 1}}, "dbg");
    return tool_result::text("ok");
  });
  f.init();
  auto got = f.handle(req(1, "tools/call", {{"name", "l"}}));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first["method"], "notifications/message");
  EXPECT_EQ(got[0].first["params"]["logger"], "dbg");
  EXPECT_EQ(got[0].first["params"]["data"]["n"], 1);
}

TEST(mcp_context, outbound_messages_stop_after_close) {
  mcp::server server({.name = "o", .version = "1"});
  std::vector<json> got;
  fn_connection conn([&](const json& j, const json* request) {
    if (!request) got.push_back(j);  // the initialize response is related: left out
  });
  auto s = server.connect(conn);
  s->handle(parse(req(0, "initialize", {{"protocolVersion", "2025-11-25"}})));
  server.notify_list_changed("resources");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]["method"], "notifications/resources/list_changed");
  s->close();
  server.notify_list_changed("resources");
  server.log(mcp::log_level::emergency, "x");
  EXPECT_EQ(got.size(), 1u);
}
}  // namespace context_test
