// Every MCP method over a 2025-11-25 session (memory transport): the results' shapes, invalid
// params (-32602 naming the field), unknown methods (-32601), pagination cursors, handler
// failures turned into tool errors or JSON-RPC errors.
#include <gtest/gtest.h>

#include <stdexcept>

#include "unit/mcp/mcp_test_util.hpp"

namespace dispatch_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;
using tooluse::tool_result;

namespace {

struct fixture {
  mcp::server server{{.name = "disp", .version = "2.0", .title = "Dispatch"},
                     nullptr,
                     {.instructions = "be nice", .page_size = 2}};
};

tooluse::tool plain(const std::string& name) {
  return {.name = name, .description = name + " tool"};
}

}  // namespace

TEST(mcp_dispatch, initialize_echoes_a_known_version_and_reports_server_info) {
  fixture f;
  mcp::memory_client c(f.server);
  auto r = c.request(req(1, "initialize", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()}}));
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ((*r)["result"]["serverInfo"]["name"], "disp");
  EXPECT_EQ((*r)["result"]["serverInfo"]["title"], "Dispatch");
  EXPECT_EQ((*r)["result"]["instructions"], "be nice");
  // Experimental tasks are advertised only under 2025-11-25.
  EXPECT_FALSE((*r)["result"]["capabilities"].contains("tasks"));
}

TEST(mcp_dispatch, initialize_2025_11_25_advertises_tasks_and_every_capability) {
  fixture f;
  mcp::memory_client c(f.server);
  json result = handshake(c);
  EXPECT_TRUE(result["capabilities"]["tasks"]["requests"]["tools"].contains("call"));
  EXPECT_TRUE(result["capabilities"].contains("logging"));
  EXPECT_EQ(result["capabilities"]["resources"]["subscribe"], true);
  EXPECT_EQ(result["capabilities"]["prompts"]["listChanged"], true);
  EXPECT_FALSE(result["capabilities"].contains("completions"));
}

TEST(mcp_dispatch, initialize_with_non_object_capabilities_keeps_an_empty_object) {
  fixture f;
  f.server.add_tool({.name = "caps"}, [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
    return tool_result::text(ctx.client_capabilities().dump() + (ctx.has_client_capability("sampling") ? " yes" : " no"));
  });
  mcp::memory_client c(f.server);
  auto r = c.request(req(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", "bogus"}}));
  ASSERT_TRUE(r);
  auto call = c.request(req(2, "tools/call", {{"name", "caps"}}));
  EXPECT_EQ((*call)["result"]["content"][0]["text"], "{} no");
}

TEST(mcp_dispatch, completions_capability_appears_with_a_handler) {
  fixture f;
  f.server.set_completion([](const json&, const std::string&, const std::string&, mcp::request_context&) {
    return mcp::completion_result{};
  });
  EXPECT_TRUE(f.server.capabilities().contains("completions"));
}

TEST(mcp_dispatch, params_that_are_not_an_object_are_invalid) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  auto r = c.request(req(1, "tools/list", json::array({1, 2})));
  EXPECT_EQ(error_code(r), -32602);
  EXPECT_TRUE(error_mentions(r, "params"));
  // Absent params are fine.
  auto ok = c.request(req(2, "tools/list", nullptr));
  EXPECT_TRUE((*ok)["result"]["tools"].is_array());
}

TEST(mcp_dispatch, unknown_and_client_side_methods_are_not_found) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  for (const char* m : {"sampling/createMessage", "roots/list", "tools/delete", ""}) {
    auto r = c.request(req(m, m));
    EXPECT_EQ(error_code(r), -32601) << m;
  }
}

TEST(mcp_dispatch, string_ids_are_echoed_verbatim) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  auto r = c.request(req("abc-1", "ping"));
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["id"], "abc-1");
  EXPECT_EQ((*r)["result"], json::object());
}

TEST(mcp_dispatch, set_level_rejects_unknown_levels_and_accepts_every_known_one) {
  fixture f;
  mcp::memory_client c(f.server);
  handshake(c);
  auto bad = c.request(req(1, "logging/setLevel", {{"level", "verbose"}}));
  EXPECT_EQ(error_code(bad), -32602);
  EXPECT_TRUE(error_mentions(bad, "level"));
  auto missing = c.request(req(2, "logging/setLevel"));
  EXPECT_EQ(error_code(missing), -32602);
  int id = 3;
  for (const char* l : {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}) {
    auto ok = c.request(req(id++, "logging/setLevel", {{"level", l}}));
    EXPECT_EQ((*ok)["result"], json::object()) << l;
  }
}

TEST(mcp_dispatch, tools_list_pages_through_every_tool_in_order) {
  fixture f;
  for (const char* n : {"a", "b", "c", "d", "e"}) f.server.add_tool(plain(n), text_tool(n));
  mcp::memory_client c(f.server);
  handshake(c);
  std::vector<std::string> names;
  json params = json::object();
  for (int page = 0; page < 10; ++page) {
    auto r = c.request(req(page + 1, "tools/list", params));
    ASSERT_TRUE(r && r->contains("result"));
    for (const auto& t : (*r)["result"]["tools"]) names.push_back(t["name"]);
    if (!(*r)["result"].contains("nextCursor")) break;
    params = {{"cursor", (*r)["result"]["nextCursor"]}};
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c", "d", "e"}));
}

TEST(mcp_dispatch, cursors_must_be_what_the_server_sent) {
  fixture f;
  for (const char* n : {"a", "b", "c"}) f.server.add_tool(plain(n), text_tool(n));
  mcp::memory_client c(f.server);
  handshake(c);
  int id = 1;
  for (json cursor : {json("2x"), json("-1"), json("99"), json(""), json(5)}) {
    auto r = c.request(req(id++, "tools/list", {{"cursor", cursor}}));
    EXPECT_EQ(error_code(r), -32602) << cursor.dump();
    EXPECT_TRUE(error_mentions(r, "cursor")) << cursor.dump();
  }
  // A null cursor is the first page; the cursor at the end is an empty last page.
  auto first = c.request(req(id++, "tools/list", {{"cursor", nullptr}}));
  EXPECT_EQ((*first)["result"]["tools"].size(), 2u);
  auto end = c.request(req(id++, "tools/list", {{"cursor", "3"}}));
  EXPECT_EQ((*end)["result"]["tools"].size(), 0u);
  EXPECT_FALSE((*end)["result"].contains("nextCursor"));
}

TEST(mcp_dispatch, tools_list_shows_schema_annotations_meta_and_task_support) {
  fixture f;
  tooluse::tool t{.name = "rich", .title = "Rich", .description = "d"};
  t.annotations.read_only = true;
  t.annotations.destructive = false;
  t.annotations.idempotent = true;
  t.annotations.open_world = false;
  t.output_schema = json{{"type", "object"}};
  t.meta = {{"k", "v"}};
  f.server.add_tool(t, text_tool("x"), mcp::task_support::optional);
  mcp::memory_client c(f.server);
  handshake(c);
  auto r = c.request(req(1, "tools/list"));
  const json& tool = (*r)["result"]["tools"][0];
  EXPECT_EQ(tool["title"], "Rich");
  EXPECT_EQ(tool["annotations"]["title"], "Rich");
  EXPECT_EQ(tool["annotations"]["readOnlyHint"], true);
  EXPECT_EQ(tool["annotations"]["destructiveHint"], false);
  EXPECT_EQ(tool["annotations"]["idempotentHint"], true);
  EXPECT_EQ(tool["annotations"]["openWorldHint"], false);
  EXPECT_EQ(tool["outputSchema"]["type"], "object");
  EXPECT_EQ(tool["_meta"]["k"], "v");
  EXPECT_EQ(tool["inputSchema"]["type"], "object");
  EXPECT_EQ(tool["execution"]["taskSupport"], "optional");
}

TEST(mcp_dispatch, tools_call_checks_name_and_arguments) {
  fixture f;
  f.server.add_tool(plain("echo"), [](const json& a, mcp::request_context&) -> mcp::tool_outcome {
    return tool_result::text(a.dump());
  });
  mcp::memory_client c(f.server);
  handshake(c);
  auto no_name = c.request(req(1, "tools/call"));
  EXPECT_EQ(error_code(no_name), -32602);
  EXPECT_TRUE(error_mentions(no_name, "name"));
  auto num_name = c.request(req(2, "tools/call", {{"name", 7}}));
  EXPECT_EQ(error_code(num_name), -32602);
  auto unknown = c.request(req(3, "tools/call", {{"name", "nope"}}));
  EXPECT_EQ(error_code(unknown), -32602);
  EXPECT_TRUE(error_mentions(unknown, "nope"));
  auto bad_args = c.request(req(4, "tools/call", {{"name", "echo"}, {"arguments", json::array()}}));
  EXPECT_EQ(error_code(bad_args), -32602);
  EXPECT_TRUE(error_mentions(bad_args, "arguments"));
  auto null_args = c.request(req(5, "tools/call", {{"name", "echo"}, {"arguments", nullptr}}));
  EXPECT_EQ((*null_args)["result"]["content"][0]["text"], "{}");
}

TEST(mcp_dispatch, tools_call_validates_against_the_input_schema_as_a_tool_error) {
  fixture f;
  bool ran = false;
  f.server.add_tool({.name = "typed",
                     .input_schema = json::parse(R"({"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]})")},
                    [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
                      ran = true;
                      return tool_result::text("ok");
                    });
  mcp::memory_client c(f.server);
  handshake(c);
  auto r = c.request(req(1, "tools/call", {{"name", "typed"}, {"arguments", {{"n", "seven"}}}}));
  EXPECT_EQ((*r)["result"]["isError"], true);
  EXPECT_NE((*r)["result"]["content"][0]["text"].get<std::string>().find("typed"), std::string::npos);
  EXPECT_FALSE(ran);
  auto ok = c.request(req(2, "tools/call", {{"name", "typed"}, {"arguments", {{"n", 7}}}}));
  EXPECT_EQ((*ok)["result"]["content"][0]["text"], "ok");
  EXPECT_TRUE(ran);
}

TEST(mcp_dispatch, validation_can_be_switched_off) {
  mcp::server s({.name = "s", .version = "1"}, nullptr, {.validate_arguments = false});
  s.add_tool({.name = "typed", .input_schema = json::parse(R"({"type":"object","required":["n"]})")},
             text_tool("ran"));
  mcp::memory_client c(s);
  handshake(c);
  auto r = c.request(req(1, "tools/call", {{"name", "typed"}}));
  EXPECT_EQ((*r)["result"]["content"][0]["text"], "ran");
}

TEST(mcp_dispatch, a_throwing_tool_is_a_tool_error_naming_the_tool) {
  fixture f;
  f.server.add_tool(plain("boom"), [](const json&, mcp::request_context&) -> mcp::tool_outcome {
    throw std::runtime_error("kaput");
  });
  mcp::memory_client c(f.server);
  handshake(c);
  auto r = c.request(req(1, "tools/call", {{"name", "boom"}}));
  EXPECT_EQ((*r)["result"]["isError"], true);
  auto text = (*r)["result"]["content"][0]["text"].get<std::string>();
  EXPECT_NE(text.find("boom"), std::string::npos);
  EXPECT_NE(text.find("kaput"), std::string::npos);
}

TEST(mcp_dispatch, a_tool_may_answer_with_a_protocol_error) {
  fixture f;
  f.server.add_tool(plain("needs"), [](const json&, mcp::request_context&) -> mcp::tool_outcome {
    return mcp::missing_capability({{"sampling", json::object()}});
  });
  mcp::memory_client c(f.server);
  handshake(c);
  auto r = c.request(req(1, "tools/call", {{"name", "needs"}}));
  EXPECT_EQ(error_code(r), -32021);
  EXPECT_TRUE((*r)["error"]["data"]["requiredCapabilities"].contains("sampling"));
}

TEST(mcp_dispatch, input_required_needs_the_stateless_revision) {
  fixture f;
  f.server.add_tool(plain("ask"), [](const json&, mcp::request_context&) -> mcp::tool_outcome {
    return mcp::input_required{.input_requests = {{"q", {{"method", "roots/list"}}}}};
  });
  mcp::memory_client c(f.server);
  handshake(c);
  auto r = c.request(req(1, "tools/call", {{"name", "ask"}}));
  EXPECT_EQ(error_code(r), -32603);
  EXPECT_TRUE(error_mentions(r, "2026-07-28"));
}

TEST(mcp_dispatch, add_tool_rejects_bad_definitions) {
  fixture f;
  EXPECT_THROW(f.server.add_tool(plain(""), text_tool("x")), std::invalid_argument);
  EXPECT_THROW(f.server.add_tool(plain("has space"), text_tool("x")), std::invalid_argument);
  EXPECT_THROW(f.server.add_tool(plain(std::string(129, 'a')), text_tool("x")), std::invalid_argument);
  EXPECT_THROW(f.server.add_tool(plain("empty"), nullptr), std::invalid_argument);
  EXPECT_THROW(f.server.add_tool({.name = "arr", .input_schema = json{{"type", "array"}}}, text_tool("x")),
               std::invalid_argument);
  // The characters MCP names (2025-11-25, "Tool Names"), as for every registry tool.
  EXPECT_THROW(f.server.add_tool(plain("ns/slash"), text_tool("x")), std::invalid_argument);
  f.server.add_tool(plain("ns.ok.name-1_x"), text_tool("x"));
  EXPECT_THROW(f.server.add_tool(plain("ns.ok.name-1_x"), text_tool("y")), std::invalid_argument);
  EXPECT_TRUE(f.server.remove_tool("ns.ok.name-1_x"));
  EXPECT_FALSE(f.server.remove_tool("ns.ok.name-1_x"));
}

TEST(mcp_dispatch, removing_a_tool_notifies_and_makes_it_unknown) {
  fixture f;
  f.server.add_tool(plain("gone"), text_tool("x"));
  mcp::memory_client c(f.server);
  handshake(c);
  ASSERT_TRUE(f.server.remove_tool("gone"));
  auto n = c.receive();
  ASSERT_TRUE(n);
  EXPECT_EQ((*n)["method"], "notifications/tools/list_changed");
  auto r = c.request(req(1, "tools/call", {{"name", "gone"}}));
  EXPECT_EQ(error_code(r), -32602);
}

TEST(mcp_dispatch, notifications_before_initialized_are_not_sent) {
  fixture f;
  mcp::memory_client c(f.server);
  // No handshake: the session is not initialized, so no list_changed.
  f.server.add_tool(plain("t"), text_tool("x"));
  auto r = c.request(req(1, "initialize", {{"protocolVersion", "2025-11-25"}}));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->contains("result"));
  f.server.add_prompt({.name = "p"}, [](const json&, mcp::request_context&) -> tooluse::result<mcp::prompt_outcome> {
    return mcp::prompt_result{};
  });
  auto n = c.receive();
  ASSERT_TRUE(n);
  EXPECT_EQ((*n)["method"], "notifications/prompts/list_changed");
}
}  // namespace dispatch_test
