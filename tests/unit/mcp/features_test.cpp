// Resources, templates, subscriptions, prompts, completion and logging over a 2025-11-25
// session (memory transport): results, not-found and handler errors, pagination, the
// resources/updated notification to subscribed sessions only.
#include <gtest/gtest.h>

#include "unit/mcp/mcp_test_util.hpp"

namespace features_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::errc;
using tooluse::json;
using tooluse::tool_result;

namespace {

using contents = std::vector<mcp::resource_contents>;

mcp::resource_handler fixed(std::string text) {
  return [text](const std::string& uri, const json&, mcp::request_context&) -> tooluse::result<contents> {
    return contents{{uri, "text/plain", text, {}}};
  };
}

mcp::prompt_handler greeting() {
  return [](const json& args, mcp::request_context&) -> tooluse::result<mcp::prompt_outcome> {
    return mcp::prompt_result{.description = "greets",
                              .messages = {{"user", tooluse::text_content{"hello " + args.value("who", std::string("?"))}},
                                           {"assistant", tooluse::text_content{"hi"}}}};
  };
}

struct fixture {
  mcp::server server{{.name = "feat", .version = "1"}, nullptr, {.page_size = 2}};
};

}  // namespace

TEST(mcp_features, resources_list_pages_and_shows_every_field) {
  fixture f;
  f.server.add_resource({.uri = "mem://a", .name = "a", .title = "A", .description = "first",
                         .mime_type = "text/plain", .meta = {{"x", 1}}},
                        fixed("A"));
  f.server.add_resource({.uri = "mem://b", .name = "b"}, fixed("B"));
  f.server.add_resource({.uri = "mem://c", .name = "c"}, fixed("C"));
  mcp::memory_client c(f.server);
  handshake(c);
  auto p1 = c.request(req(1, "resources/list"));
  ASSERT_EQ((*p1)["result"]["resources"].size(), 2u);
  const json& a = (*p1)["result"]["resources"][0];
  EXPECT_EQ(a["uri"], "mem://a");
  EXPECT_EQ(a["title"], "A");
  EXPECT_EQ(a["description"], "first");
  EXPECT_EQ(a["mimeType"], "text/plain");
  EXPECT_EQ(a["_meta"]["x"], 1);
  EXPECT_FALSE((*p1)["result"]["resources"][1].contains("title"));
  auto p2 = c.request(req(2, "resources/list", {{"cursor", (*p1)["result"]["nextCursor"]}}));
  ASSERT_EQ((*p2)["result"]["resources"].size(), 1u);
  EXPECT_EQ((*p2)["result"]["resources"][0]["uri"], "mem://c");
  auto bad = c.request(req(3, "resources/list", {{"cursor", "x"}}));
  EXPECT_EQ(error_code(bad), -32602);
}

TEST(mcp_features, templates_list_and_read_through_a_template) {
  fixture f;
  f.server.add_resource_template({.uri_template = "file:///{dir}/{name}.txt", .name = "files",
                                  .title = "Files", .description = "d", .mime_type = "text/plain"},
                                 [](const std::string& uri, const json& vars, mcp::request_context&)
                                     -> tooluse::result<contents> {
                                   return contents{{uri, "", vars.dump(), {}}};
                                 });
  mcp::memory_client c(f.server);
  handshake(c);
  auto list = c.request(req(1, "resources/templates/list"));
  ASSERT_EQ((*list)["result"]["resourceTemplates"].size(), 1u);
  const json& t = (*list)["result"]["resourceTemplates"][0];
  EXPECT_EQ(t["uriTemplate"], "file:///{dir}/{name}.txt");
  EXPECT_EQ(t["mimeType"], "text/plain");
  EXPECT_EQ(t["title"], "Files");
  auto r = c.request(req(2, "resources/read", {{"uri", "file:///docs/readme.txt"}}));
  json vars = json::parse((*r)["result"]["contents"][0]["text"].get<std::string>());
  EXPECT_EQ(vars, (json{{"dir", "docs"}, {"name", "readme"}}));
  EXPECT_FALSE((*r)["result"]["contents"][0].contains("mimeType"));
  // A variable never spans a '/', so a deeper path does not match.
  auto deeper = c.request(req(3, "resources/read", {{"uri", "file:///a/b/c.txt"}}));
  EXPECT_EQ(error_code(deeper), -32602);
  EXPECT_EQ((*deeper)["error"]["data"]["uri"], "file:///a/b/c.txt");
}

TEST(mcp_features, direct_resources_win_over_templates) {
  fixture f;
  f.server.add_resource_template({.uri_template = "mem://{id}", .name = "t"}, fixed("from template"));
  f.server.add_resource({.uri = "mem://fixed", .name = "fixed"}, fixed("direct"));
  mcp::memory_client c(f.server);
  handshake(c);
  auto d = c.request(req(1, "resources/read", {{"uri", "mem://fixed"}}));
  EXPECT_EQ((*d)["result"]["contents"][0]["text"], "direct");
  auto t = c.request(req(2, "resources/read", {{"uri", "mem://other"}}));
  EXPECT_EQ((*t)["result"]["contents"][0]["text"], "from template");
}

TEST(mcp_features, read_needs_a_string_uri) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  auto none = c.request(req(1, "resources/read"));
  EXPECT_EQ(error_code(none), -32602);
  EXPECT_TRUE(error_mentions(none, "uri"));
  auto num = c.request(req(2, "resources/read", {{"uri", 3}}));
  EXPECT_EQ(error_code(num), -32602);
  EXPECT_TRUE(error_mentions(num, "uri"));
}

TEST(mcp_features, handler_errors_map_to_json_rpc_errors) {
  fixture f;
  f.server.add_resource({.uri = "mem://missing", .name = "m"},
                        [](const std::string&, const json&, mcp::request_context&) -> tooluse::result<contents> {
                          return tooluse::fail(errc::not_found, "gone");
                        });
  f.server.add_resource({.uri = "mem://broken", .name = "b"},
                        [](const std::string&, const json&, mcp::request_context&) -> tooluse::result<contents> {
                          return tooluse::fail(errc::io_error, "disk on fire");
                        });
  f.server.add_resource({.uri = "mem://coded", .name = "c"},
                        [](const std::string&, const json&, mcp::request_context&) -> tooluse::result<contents> {
                          return tooluse::fail(errc::invalid_argument, "custom", -32099);
                        });
  f.server.add_resource({.uri = "mem://empty", .name = "e"},
                        [](const std::string&, const json&, mcp::request_context&) -> tooluse::result<contents> {
                          return contents{};
                        });
  mcp::memory_client c(f.server);
  handshake(c);
  auto missing = c.request(req(1, "resources/read", {{"uri", "mem://missing"}}));
  EXPECT_EQ(error_code(missing), -32602);
  EXPECT_EQ((*missing)["error"]["data"]["uri"], "mem://missing");
  auto broken = c.request(req(2, "resources/read", {{"uri", "mem://broken"}}));
  EXPECT_EQ(error_code(broken), -32603);
  EXPECT_TRUE(error_mentions(broken, "disk on fire"));
  auto coded = c.request(req(3, "resources/read", {{"uri", "mem://coded"}}));
  EXPECT_EQ(error_code(coded), -32099);
  auto empty = c.request(req(4, "resources/read", {{"uri", "mem://empty"}}));
  EXPECT_EQ(error_code(empty), -32602);
  EXPECT_EQ((*empty)["error"]["data"]["uri"], "mem://empty");
}

TEST(mcp_features, blob_and_text_contents_are_sent_as_given) {
  fixture f;
  f.server.add_resource({.uri = "mem://bin", .name = "bin"},
                        [](const std::string& uri, const json&, mcp::request_context&) -> tooluse::result<contents> {
                          return contents{{uri, "application/octet-stream", std::nullopt, "AAEC"},
                                          {uri + "#2", "", std::nullopt, std::nullopt}};
                        });
  mcp::memory_client c(f.server);
  handshake(c);
  auto r = c.request(req(1, "resources/read", {{"uri", "mem://bin"}}));
  const json& items = (*r)["result"]["contents"];
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0]["blob"], "AAEC");
  EXPECT_FALSE(items[0].contains("text"));
  EXPECT_EQ(items[1]["text"], "");  // neither: an empty text
}

TEST(mcp_features, add_resource_rejects_missing_parts) {
  fixture f;
  EXPECT_THROW(f.server.add_resource({.uri = "", .name = "x"}, fixed("x")), std::invalid_argument);
  EXPECT_THROW(f.server.add_resource({.uri = "mem://x"}, nullptr), std::invalid_argument);
  EXPECT_THROW(f.server.add_resource_template({.uri_template = ""}, fixed("x")), std::invalid_argument);
  EXPECT_THROW(f.server.add_resource_template({.uri_template = "a://{b}"}, nullptr), std::invalid_argument);
  EXPECT_THROW(f.server.add_prompt({.name = ""}, greeting()), std::invalid_argument);
  EXPECT_THROW(f.server.add_prompt({.name = "p"}, nullptr), std::invalid_argument);
  f.server.add_prompt({.name = "p"}, greeting());
  EXPECT_THROW(f.server.add_prompt({.name = "p"}, greeting()), std::invalid_argument);
}

TEST(mcp_features, only_subscribed_sessions_hear_about_updates) {
  fixture f;
  f.server.add_resource({.uri = "mem://watched", .name = "w"}, fixed("w"));
  mcp::memory_client sub(f.server), other(f.server);
  handshake(sub);
  handshake(other);
  auto ok = sub.request(req(1, "resources/subscribe", {{"uri", "mem://watched"}}));
  EXPECT_EQ((*ok)["result"], json::object());
  f.server.notify_resource_updated("mem://watched");
  f.server.notify_resource_updated("mem://unwatched");
  auto n = sub.receive();
  ASSERT_TRUE(n);
  EXPECT_EQ((*n)["method"], "notifications/resources/updated");
  EXPECT_EQ((*n)["params"]["uri"], "mem://watched");
  // The other session got nothing: its next message is the answer to a ping.
  auto p = other.request(req(2, "ping"));
  std::vector<json> others;
  p = other.request(req(3, "ping"), &others);
  EXPECT_TRUE(others.empty());
  // After unsubscribing, no more updates: the next message is a ping answer.
  sub.request(req(4, "resources/unsubscribe", {{"uri", "mem://watched"}}));
  f.server.notify_resource_updated("mem://watched");
  others.clear();
  sub.request(req(5, "ping"), &others);
  EXPECT_TRUE(others.empty());
}

TEST(mcp_features, subscribe_needs_a_uri) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  for (const char* m : {"resources/subscribe", "resources/unsubscribe"}) {
    auto r = c.request(req(m, m, {{"uri", json::array()}}));
    EXPECT_EQ(error_code(r), -32602) << m;
    EXPECT_TRUE(error_mentions(r, "uri")) << m;
  }
}

TEST(mcp_features, prompts_get_renders_messages_and_checks_required_arguments) {
  fixture f;
  f.server.add_prompt({.name = "greet", .title = "Greet", .description = "say hi",
                       .arguments = {{"who", "whom", true}, {"tone", "", false}}},
                      greeting());
  mcp::memory_client c(f.server);
  handshake(c);
  auto list = c.request(req(1, "prompts/list"));
  const json& p = (*list)["result"]["prompts"][0];
  EXPECT_EQ(p["title"], "Greet");
  ASSERT_EQ(p["arguments"].size(), 2u);
  EXPECT_EQ(p["arguments"][0]["required"], true);
  EXPECT_EQ(p["arguments"][0]["description"], "whom");
  EXPECT_EQ(p["arguments"][1]["required"], false);
  EXPECT_FALSE(p["arguments"][1].contains("description"));
  auto missing = c.request(req(2, "prompts/get", {{"name", "greet"}}));
  EXPECT_EQ(error_code(missing), -32602);
  EXPECT_TRUE(error_mentions(missing, "who"));
  auto got = c.request(req(3, "prompts/get", {{"name", "greet"}, {"arguments", {{"who", "Ada"}}}}));
  const json& res = (*got)["result"];
  EXPECT_EQ(res["description"], "greets");
  ASSERT_EQ(res["messages"].size(), 2u);
  EXPECT_EQ(res["messages"][0]["role"], "user");
  EXPECT_EQ(res["messages"][0]["content"]["type"], "text");
  EXPECT_EQ(res["messages"][0]["content"]["text"], "hello Ada");
  EXPECT_EQ(res["messages"][1]["role"], "assistant");
  auto unknown = c.request(req(4, "prompts/get", {{"name", "nope"}}));
  EXPECT_EQ(error_code(unknown), -32602);
  EXPECT_TRUE(error_mentions(unknown, "nope"));
}

TEST(mcp_features, prompt_handler_errors_keep_their_code_or_become_invalid_params) {
  fixture f;
  f.server.add_prompt({.name = "plain"}, [](const json&, mcp::request_context&) -> tooluse::result<mcp::prompt_outcome> {
    return tooluse::fail(errc::invalid_argument, "bad topic");
  });
  f.server.add_prompt({.name = "coded"}, [](const json&, mcp::request_context&) -> tooluse::result<mcp::prompt_outcome> {
    return tooluse::fail(errc::internal, "oops", -32603);
  });
  f.server.add_prompt({.name = "ask"}, [](const json&, mcp::request_context&) -> tooluse::result<mcp::prompt_outcome> {
    return mcp::input_required{.input_requests = {{"k", {{"method", "roots/list"}}}}};
  });
  mcp::memory_client c(f.server);
  handshake(c);
  auto plain = c.request(req(1, "prompts/get", {{"name", "plain"}}));
  EXPECT_EQ(error_code(plain), -32602);
  EXPECT_TRUE(error_mentions(plain, "bad topic"));
  auto coded = c.request(req(2, "prompts/get", {{"name", "coded"}}));
  EXPECT_EQ(error_code(coded), -32603);
  auto ask = c.request(req(3, "prompts/get", {{"name", "ask"}}));
  EXPECT_EQ(error_code(ask), -32603);
  EXPECT_TRUE(error_mentions(ask, "2026-07-28"));
}

TEST(mcp_features, removing_a_prompt_notifies_and_forgets_it) {
  fixture f;
  f.server.add_prompt({.name = "p"}, greeting());
  mcp::memory_client c(f.server);
  handshake(c);
  EXPECT_TRUE(f.server.remove_prompt("p"));
  EXPECT_FALSE(f.server.remove_prompt("p"));
  auto n = c.receive();
  ASSERT_TRUE(n);
  EXPECT_EQ((*n)["method"], "notifications/prompts/list_changed");
  auto r = c.request(req(1, "prompts/get", {{"name", "p"}}));
  EXPECT_EQ(error_code(r), -32602);
}

TEST(mcp_features, completion_without_handler_is_method_not_found) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  auto r = c.request(req(1, "completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", "p"}}},
                                                    {"argument", {{"name", "a"}, {"value", "b"}}}}));
  EXPECT_EQ(error_code(r), -32601);
}

TEST(mcp_features, completion_passes_ref_and_argument_and_caps_values_at_100) {
  fixture f;
  json seen;
  f.server.set_completion([&](const json& ref, const std::string& arg, const std::string& value,
                              mcp::request_context&) {
    seen = {{"ref", ref}, {"arg", arg}, {"value", value}};
    mcp::completion_result out{.total = 150, .has_more = true};
    for (int i = 0; i < 150; ++i) out.values.push_back(value + std::to_string(i));
    return out;
  });
  mcp::memory_client c(f.server);
  handshake(c);
  auto r = c.request(req(1, "completion/complete", {{"ref", {{"type", "ref/resource"}, {"uri", "mem://{x}"}}},
                                                    {"argument", {{"name", "x"}, {"value", "pre"}}}}));
  const json& comp = (*r)["result"]["completion"];
  EXPECT_EQ(comp["values"].size(), 100u);
  EXPECT_EQ(comp["values"][0], "pre0");
  EXPECT_EQ(comp["total"], 150);
  EXPECT_EQ(comp["hasMore"], true);
  EXPECT_EQ(seen["ref"]["uri"], "mem://{x}");
  EXPECT_EQ(seen["arg"], "x");
  // Each malformed request is refused with -32602 naming the field at fault.
  for (auto [bad, field] : {std::pair{json{{"argument", {{"name", "x"}}}}, "ref"},
                            std::pair{json{{"ref", {{"type", "ref/prompt"}}}}, "argument"},
                            std::pair{json{{"ref", "p"}, {"argument", {{"name", "x"}}}}, "ref"}}) {
    auto e = c.request(req(2, "completion/complete", bad));
    EXPECT_EQ(error_code(e), -32602) << bad.dump();
    EXPECT_TRUE(error_mentions(e, field)) << bad.dump();
  }
}

TEST(mcp_features, server_log_respects_each_sessions_level) {
  fixture f;
  mcp::memory_client quiet(f.server), loud(f.server);
  handshake(quiet);
  handshake(loud);
  quiet.request(req(1, "logging/setLevel", {{"level", "error"}}));
  f.server.log(mcp::log_level::info, {{"msg", "fyi"}}, "core");
  f.server.log(mcp::log_level::critical, "bad");
  auto l1 = loud.receive();
  ASSERT_TRUE(l1);
  EXPECT_EQ((*l1)["params"]["level"], "info");
  EXPECT_EQ((*l1)["params"]["logger"], "core");
  EXPECT_EQ((*l1)["params"]["data"]["msg"], "fyi");
  auto l2 = loud.receive();
  EXPECT_EQ((*l2)["params"]["level"], "critical");
  EXPECT_FALSE((*l2)["params"].contains("logger"));
  auto q = quiet.receive();
  ASSERT_TRUE(q);
  EXPECT_EQ((*q)["params"]["level"], "critical");  // info was filtered out
}
}  // namespace features_test
