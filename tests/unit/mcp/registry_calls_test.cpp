// Registry tools served over MCP (memory transport, 2025-11-25 session): the caller's
// idempotency key reaching the tool, the server's own call observer next to progress
// notifications, a deferred approval naming its reason, a tool replaced or removed in the
// registry while serving, a server tool shadowing a registry tool of the same name, and an
// admission that asks for input on a revision without multi-round-trip input.
#include <gtest/gtest.h>

#include <mutex>

#include "unit/mcp/mcp_test_util.hpp"

namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::call_context;
using tooluse::json;
using tooluse::tool_result;
namespace exec = tooluse::exec;

namespace {

json call(const std::string& name, json args = json::object(), json meta = nullptr) {
  json params = {{"name", name}, {"arguments", std::move(args)}};
  if (!meta.is_null()) params["_meta"] = std::move(meta);
  return params;
}

std::string text_of(const std::optional<json>& r) {
  if (!r || !r->contains("result")) return "<no result>";
  return (*r)["result"]["content"][0].value("text", "");
}

}  // namespace

TEST(mcp_registry_calls, the_callers_idempotency_key_reaches_the_tool_verbatim) {
  tooluse::tool_registry tools;
  tools.add({.name = "charge"}, [](const json&, call_context& ctx) {
    return tool_result::text("key=" + ctx.idempotency_key + " id=" + ctx.call_id);
  });
  mcp::server server({.name = "idem", .version = "1"}, &tools);
  mcp::memory_client c(server);
  handshake(c);
  auto keyed =
      c.request(req(1, "tools/call",
                    call("charge", json::object(), {{"io.tooluse/idempotency-key", "order-17"}})));
  EXPECT_EQ(text_of(keyed), "key=order-17 id=");
  auto plain = c.request(req(2, "tools/call", call("charge")));
  EXPECT_EQ(text_of(plain), "key= id=mcp");
  // A key that is not a string is not a key.
  auto odd = c.request(
      req(3, "tools/call", call("charge", json::object(), {{"io.tooluse/idempotency-key", 17}})));
  EXPECT_EQ(text_of(odd), "key= id=mcp");
}

TEST(mcp_registry_calls, the_servers_call_observer_sees_what_the_client_is_told) {
  tooluse::tool_registry tools;
  tools.add({.name = "steps"}, [](const json&, call_context& ctx) {
    ctx.report_progress(1, 2, "first");
    ctx.report_progress(2, 2);
    return tool_result::text("done");
  });
  std::mutex mu;
  std::vector<std::string> observed;
  mcp::server_options o;
  o.call_options.on_event = [&](const exec::call_event& e) {
    std::lock_guard lock(mu);
    observed.push_back(e.kind == exec::event_kind::start ? "start"
                       : e.kind == exec::event_kind::end ? "end"
                                                         : "progress");
  };
  mcp::server server({.name = "obs", .version = "1"}, &tools, std::move(o));
  mcp::memory_client c(server);
  handshake(c);
  std::vector<json> notes;
  auto r = c.request(req(1, "tools/call", call("steps", json::object(), {{"progressToken", 77}})),
                     &notes);
  EXPECT_EQ(text_of(r), "done");
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0]["method"], "notifications/progress");
  EXPECT_EQ(notes[0]["params"]["progressToken"], 77);
  EXPECT_EQ(notes[0]["params"]["message"], "first");
  EXPECT_EQ(notes[1]["params"]["progress"], 2);
  std::lock_guard lock(mu);
  EXPECT_EQ(observed, (std::vector<std::string>{"start", "progress", "progress", "end"}));
}

TEST(mcp_registry_calls, a_deferred_approval_is_a_tool_error_naming_the_reason) {
  tooluse::tool_registry tools;
  bool ran = false;
  tools.add({.name = "drop_table", .dangerous = true}, [&](const json&, call_context&) {
    ran = true;
    return tool_result::text("dropped");
  });
  mcp::server_options o;
  o.exec_options.approval = [](const exec::approval_request& r) {
    return exec::approval_decision::defer("ask the owner of " + r.definition.name);
  };
  mcp::server server({.name = "appr", .version = "1"}, &tools, std::move(o));
  mcp::memory_client c(server);
  handshake(c);
  auto r = c.request(req(1, "tools/call", call("drop_table")));
  ASSERT_TRUE(r && r->contains("result"));
  EXPECT_TRUE((*r)["result"]["isError"].get<bool>());
  const std::string text = text_of(r);
  EXPECT_NE(
      text.find("tool \"drop_table\" is dangerous and was not run: ask the owner of drop_table"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("--yes"), std::string::npos);  // says how to allow it
  EXPECT_FALSE(ran);
}

TEST(mcp_registry_calls, a_tool_replaced_in_the_registry_is_served_in_its_new_form) {
  tooluse::tool_registry tools;
  tools.add({.name = "v", .description = "first"},
            [](const json&, call_context&) { return tool_result::text("one"); });
  mcp::server server({.name = "repl", .version = "1"}, &tools);
  mcp::memory_client c(server);
  handshake(c);
  EXPECT_EQ(text_of(c.request(req(1, "tools/call", call("v")))), "one");
  tools.add({.name = "v", .description = "second"},
            [](const json&, call_context&) { return tool_result::text("two"); }, {.replace = true});
  std::vector<json> notes;
  auto list = c.request(req(2, "tools/list"), &notes);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0]["method"], "notifications/tools/list_changed");
  ASSERT_EQ((*list)["result"]["tools"].size(), 1u);
  EXPECT_EQ((*list)["result"]["tools"][0]["description"], "second");
  EXPECT_EQ(text_of(c.request(req(3, "tools/call", call("v")))), "two");
  ASSERT_TRUE(tools.remove("v"));
  auto gone = c.request(req(4, "tools/call", call("v")));
  EXPECT_EQ(error_code(gone), -32602);
  EXPECT_TRUE(error_mentions(gone, "Unknown tool: v"));
  auto empty = c.request(req(5, "tools/list"));
  EXPECT_TRUE((*empty)["result"]["tools"].empty());
}

TEST(mcp_registry_calls, a_server_tool_shadows_a_registry_tool_of_the_same_name) {
  tooluse::tool_registry tools;
  tools.add({.name = "both", .description = "registry"},
            [](const json&, call_context&) { return tool_result::text("from the registry"); });
  tools.add({.name = "other"},
            [](const json&, call_context&) { return tool_result::text("other"); });
  mcp::server server({.name = "shadow", .version = "1"}, &tools);
  server.add_tool({.name = "both", .description = "server"}, text_tool("from the server"));
  mcp::memory_client c(server);
  handshake(c);
  EXPECT_EQ(text_of(c.request(req(1, "tools/call", call("both")))), "from the server");
  // tools/list names each tool once, as it is called: the server's own.
  auto list = c.request(req(2, "tools/list"));
  std::vector<std::string> names;
  for (const auto& t : (*list)["result"]["tools"]) names.push_back(t["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"both", "other"}));
  EXPECT_EQ((*list)["result"]["tools"][0]["description"], "server");
}

TEST(mcp_registry_calls, an_admission_asking_for_input_needs_the_stateless_revision) {
  mcp::server server({.name = "adm", .version = "1"});
  bool ran = false;
  server.add_tool(
      {.name = "job"},
      [&](const json&, mcp::request_context&) -> mcp::tool_outcome {
        ran = true;
        return tool_result::text("ran");
      },
      mcp::task_support::optional,
      [](const json&, mcp::request_context&) -> std::optional<mcp::input_required> {
        return mcp::input_required{.input_requests = {{"who", {{"method", "elicitation/create"}}}}};
      });
  mcp::memory_client c(server);
  handshake(c);
  json params = call("job");
  params["task"] = json::object();
  auto r = c.request(req(1, "tools/call", params));
  EXPECT_EQ(error_code(r), -32603);
  EXPECT_TRUE(error_mentions(r, "asked for input, which needs protocol 2026-07-28"));
  // Without "task" the call runs directly (optional support) and never asks.
  EXPECT_EQ(text_of(c.request(req(2, "tools/call", call("job")))), "ran");
  EXPECT_TRUE(ran);
  auto list = c.request(req(3, "tasks/list"));
  EXPECT_TRUE((*list)["result"]["tasks"].empty());  // no task was created
}

TEST(mcp_registry_calls, a_cursor_at_the_end_of_a_list_is_an_empty_last_page) {
  tooluse::tool_registry tools;
  for (const char* n : {"a", "b"})
    tools.add({.name = n}, [](const json&, call_context&) { return tool_result::text("x"); });
  mcp::server server({.name = "pages", .version = "1"}, &tools, {.page_size = 2});
  mcp::memory_client c(server);
  handshake(c);
  auto first = c.request(req(1, "tools/list"));
  EXPECT_EQ((*first)["result"]["tools"].size(), 2u);
  EXPECT_FALSE((*first)["result"].contains("nextCursor"));  // exactly one full page
  auto end = c.request(req(2, "tools/list", {{"cursor", "2"}}));
  ASSERT_TRUE(end && end->contains("result")) << end->dump();
  EXPECT_TRUE((*end)["result"]["tools"].empty());
  for (const char* bad : {"3", "-1", "1x", ""}) {
    auto r = c.request(req(3, "tools/list", {{"cursor", bad}}));
    EXPECT_EQ(error_code(r), -32602) << bad;
  }
}
