// mcp::client negotiation when the server answers oddly, with the test playing the server
// (scripted_transport): a revision tooluse does not speak, malformed initialize and discover
// results, a discover listing no stateless revision, the unsupported-version error leading to
// a retry or to the newest handshake revision the server lists, a transport that cannot start,
// and calls after close.
#include <gtest/gtest.h>

#include <algorithm>

#include "client_test_support.hpp"

namespace mcp = tooluse::mcp;
using tooluse::errc;
using tooluse::json;
using namespace mcp::testing;

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

json reply(const json& request, json result) {
  return {{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", std::move(result)}};
}

json error_reply(const json& request, int code, json data = nullptr) {
  json e = {{"code", code}, {"message", "unsupported protocol version"}};
  if (!data.is_null()) e["data"] = std::move(data);
  return {{"jsonrpc", "2.0"}, {"id", request["id"]}, {"error", std::move(e)}};
}

json initialize_result(const std::string& version) {
  return {{"protocolVersion", version},
          {"capabilities", json::object()},
          {"serverInfo", {{"name", "odd"}, {"version", "0"}}}};
}

// methods_sent outlives the transport (a failed connect destroys it) and lists the methods of
// everything the client sent.
using methods_sent = std::shared_ptr<std::vector<std::string>>;

// script answers server/discover and initialize with the functions given (null: no answer).
scripted_transport::script_fn script(std::function<json(const json&)> discover,
                                     std::function<json(const json&)> initialize,
                                     methods_sent seen = nullptr) {
  return [discover, initialize, seen](const json& m, scripted_transport& t) {
    if (seen) seen->push_back(m.value("method", ""));
    if (!m.contains("id") || !m.contains("method")) return;
    json r;
    if (m["method"] == "server/discover" && discover) r = discover(m);
    if (m["method"] == "initialize" && initialize) r = initialize(m);
    if (!r.is_null()) t.deliver(r);
  };
}

int count(const std::vector<json>& sent, const std::string& method) {
  int n = 0;
  for (const auto& m : sent) n += m.value("method", "") == method;
  return n;
}

int count(const methods_sent& seen, const std::string& method) {
  return static_cast<int>(std::count(seen->begin(), seen->end(), method));
}

}  // namespace

TEST(mcp_client_handshake_errors, a_revision_tooluse_does_not_speak_is_refused) {
  auto seen = std::make_shared<std::vector<std::string>>();
  auto t = std::make_unique<scripted_transport>(script(
      nullptr, [](const json& m) { return reply(m, initialize_result("1999-01-01")); }, seen));
  auto c = mcp::client::connect(std::move(t), {.protocol_version = "2025-11-25"});
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, errc::protocol_error);
  EXPECT_TRUE(contains(c.error().message,
                       "scripted server: the server answered initialize with "
                       "protocol revision \"1999-01-01\""))
      << c.error().message;
  EXPECT_TRUE(contains(c.error().message, "2025-03-26 or later")) << c.error().message;
  EXPECT_EQ(count(seen, "initialize"), 1);
  EXPECT_EQ(count(seen, "notifications/initialized"), 0);
}

TEST(mcp_client_handshake_errors, a_malformed_initialize_result_is_a_protocol_error) {
  auto t = std::make_unique<scripted_transport>(script(nullptr, [](const json& m) {
    return reply(m, json::array({1, 2}));
  }));
  auto c = mcp::client::connect(std::move(t), {.protocol_version = "2025-06-18"});
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, errc::protocol_error);
  EXPECT_TRUE(contains(c.error().message, "initialize result is malformed")) << c.error().message;
}

TEST(mcp_client_handshake_errors, a_forced_stateless_revision_needs_discover_to_list_one) {
  auto seen = std::make_shared<std::vector<std::string>>();
  auto t = std::make_unique<scripted_transport>(script(
      [](const json& m) {
        return reply(m, {{"supportedVersions", {"2025-11-25", "2025-06-18"}},
                         {"capabilities", json::object()}});
      },
      [](const json& m) { return reply(m, initialize_result("2025-11-25")); }, seen));
  auto c = mcp::client::connect(std::move(t), {.protocol_version = "2026-07-28"});
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, errc::unsupported);
  EXPECT_TRUE(contains(c.error().message, "server/discover lists no stateless revision"))
      << c.error().message;
  EXPECT_TRUE(contains(c.error().message, "2025-06-18")) << c.error().message;
  EXPECT_EQ(count(seen, "server/discover"), 1);
  EXPECT_EQ(count(seen, "initialize"), 0);  // forced: no fallback
}

TEST(mcp_client_handshake_errors, a_malformed_discover_result_is_a_protocol_error) {
  auto t = std::make_unique<scripted_transport>(script(
      [](const json& m) {
        return reply(m, {{"supportedVersions", "2026-07-28"}});
      },
      nullptr));
  auto c = mcp::client::connect(std::move(t), {.protocol_version = "2026-07-28"});
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, errc::protocol_error);
  EXPECT_TRUE(contains(c.error().message, "server/discover result is malformed"))
      << c.error().message;
}

TEST(mcp_client_handshake_errors, auto_falls_back_to_the_newest_revision_the_error_lists) {
  auto t = std::make_unique<scripted_transport>(script(
      [](const json& m) {
        return error_reply(m, -32022, {{"supported", {"2025-03-26", "2025-06-18"}}});
      },
      [](const json& m) {
        return reply(m, initialize_result(m["params"]["protocolVersion"].get<std::string>()));
      }));
  auto* raw = t.get();
  auto c = mcp::client::connect(std::move(t), {});
  ASSERT_TRUE(c) << c.error().what();
  EXPECT_EQ((*c)->protocol_version(), "2025-06-18");
  EXPECT_FALSE((*c)->stateless());
  EXPECT_EQ((*c)->server_info().name, "odd");
  auto init =
      raw->wait_for_sent([](const json& m) { return m.value("method", "") == "initialize"; });
  ASSERT_TRUE(init);
  EXPECT_EQ((*init)["params"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(count(raw->sent(), "server/discover"), 1);  // it did not offer 2026-07-28: no retry
}

TEST(mcp_client_handshake_errors,
     an_unsupported_version_error_listing_the_stateless_one_is_retried) {
  int discovers = 0;
  auto t = std::make_unique<scripted_transport>(script(
      [&discovers](const json& m) {
        if (++discovers == 1) return error_reply(m, -32022, {{"supported", {"2026-07-28"}}});
        return reply(m, {{"supportedVersions", {"2026-07-28"}},
                         {"capabilities", {{"tools", json::object()}}},
                         {"serverInfo", {{"name", "modern"}, {"version", "2"}}},
                         {"instructions", "be nice"}});
      },
      nullptr));
  auto* raw = t.get();
  auto c = mcp::client::connect(std::move(t), {});
  ASSERT_TRUE(c) << c.error().what();
  EXPECT_EQ(discovers, 2);
  EXPECT_TRUE((*c)->stateless());
  EXPECT_EQ((*c)->protocol_version(), "2026-07-28");
  EXPECT_EQ((*c)->server_info().name, "modern");
  EXPECT_EQ((*c)->instructions(), "be nice");
  EXPECT_TRUE((*c)->capabilities().contains("tools"));
  EXPECT_EQ(count(raw->sent(), "initialize"), 0);
}

namespace {
// refuses_to_start is a transport whose start fails, as a stdio server that cannot run does.
class refuses_to_start : public scripted_transport {
 public:
  refuses_to_start() : scripted_transport([](const json&, scripted_transport&) {}) {}
  tooluse::result<mcp::connection_info> start(mcp::transport_handlers) override {
    return tooluse::fail(errc::io_error, "cannot start the scripted server: no such program");
  }
};
}  // namespace

TEST(mcp_client_handshake_errors, a_transport_that_cannot_start_fails_connect_with_its_error) {
  auto c = mcp::client::connect(std::make_unique<refuses_to_start>(), {});
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, errc::io_error);
  EXPECT_EQ(c.error().message, "cannot start the scripted server: no such program");
}

TEST(mcp_client_handshake_errors, a_null_transport_is_a_programming_error) {
  EXPECT_THROW(mcp::client::connect(nullptr, {}), std::invalid_argument);
}

TEST(mcp_client_handshake_errors, calls_after_close_fail_without_reaching_the_server) {
  auto t = std::make_unique<scripted_transport>(legacy_script());
  auto* raw = t.get();
  auto c = mcp::client::connect(std::move(t), {});
  ASSERT_TRUE(c) << c.error().what();
  (*c)->close();
  const auto before = raw->sent().size();
  auto tools = (*c)->list_tools();
  ASSERT_FALSE(tools);
  EXPECT_EQ(tools.error().code, errc::cancelled) << tools.error().message;
  EXPECT_TRUE(contains(tools.error().message, "scripted server: the client is closed"));
  EXPECT_EQ(raw->sent().size(), before);
  (*c)->close();  // twice is harmless
}
