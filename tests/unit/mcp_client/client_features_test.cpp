// mcp::client features: tools (pagination, the repeated-cursor guard, list-changed
// invalidation, error results), resources, prompts, completion and logging.

#include <gtest/gtest.h>

#include <future>

#include <atomic>

#include "client_test_support.hpp"

namespace mcp = tooluse::mcp;
using tooluse::json;
using namespace mcp::testing;

TEST(mcp_client_tools, list_follows_every_page_and_keeps_tools_verbatim) {
  http_fixture f({.page_size = 2});
  for (int i = 0; i < 5; ++i) add_text_tool(f.srv, "t" + std::to_string(i), "x");
  json schema = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                 {"type", "object"},
                 {"properties", {{"a", {{"type", "integer"}, {"minimum", 1}}}}},
                 {"additionalProperties", false}};
  f.srv.add_tool({.name = "typed", .description = "d", .input_schema = schema},
                 [](const json&, mcp::request_context&) -> mcp::tool_outcome {
                   return tooluse::tool_result::text("ok");
                 });
  ASSERT_TRUE(f.start());
  for (std::string version : {"2025-11-25", "2026-07-28"}) {
    auto c = mcp::client::connect(f.transport(), {.protocol_version = version});
    ASSERT_TRUE(c) << c.error().what();
    auto tools = (*c)->list_tools();
    ASSERT_TRUE(tools) << tools.error().what();
    ASSERT_EQ(tools->size(), 6u) << version;
    EXPECT_EQ(tools->back()["inputSchema"], schema);
  }
}

TEST(mcp_client_tools, repeated_cursor_is_refused) {
  std::atomic<int> pages{0};
  auto c = mcp::client::connect(
      std::make_unique<scripted_transport>(legacy_script([&](const json& m) -> json {
        if (m["method"] != "tools/list") return nullptr;
        ++pages;
        return {{"tools", json::array({{{"name", "t"}, {"inputSchema", {{"type", "object"}}}}})},
                {"nextCursor", pages == 1 ? "a" : "b"}};
      })),
      {});
  ASSERT_TRUE(c) << c.error().what();
  auto tools = (*c)->list_tools();
  ASSERT_FALSE(tools);
  EXPECT_EQ(tools.error().code, tooluse::errc::protocol_error);
  EXPECT_NE(tools.error().message.find("repeated the cursor \"b\""), std::string::npos);
  EXPECT_EQ(pages.load(), 3);
}

TEST(mcp_client_tools, list_changed_drops_the_cache_and_calls_the_handler) {
  std::atomic<int> lists{0};
  std::atomic<int> changed{0};
  auto t = std::make_unique<scripted_transport>(legacy_script([&](const json& m) -> json {
    if (m["method"] != "tools/list") return nullptr;
    ++lists;
    return {{"tools", json::array()}};
  }));
  auto* raw = t.get();
  // The handler runs on a client worker and may call the client: it lists the tools again.
  std::promise<bool> relisted;
  std::shared_ptr<mcp::client> client;
  auto c = mcp::client::connect(std::move(t), {.on_tools_changed = [&] {
                                  ++changed;
                                  relisted.set_value(client->list_tools().has_value());
                                }});
  ASSERT_TRUE(c) << c.error().what();
  client = *c;
  ASSERT_TRUE((*c)->list_tools());
  ASSERT_TRUE((*c)->list_tools());
  EXPECT_EQ(lists.load(), 1);  // the second came from the cache
  auto done = relisted.get_future();
  raw->deliver({{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}});
  ASSERT_EQ(done.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_TRUE(done.get());
  EXPECT_EQ(changed.load(), 1);
  EXPECT_EQ(lists.load(), 2);  // the cache was dropped, so the handler's list asked the server
  ASSERT_TRUE((*c)->list_tools());
  EXPECT_EQ(lists.load(), 2);
  ASSERT_TRUE((*c)->list_tools({.refresh = true}));
  EXPECT_EQ(lists.load(), 3);
}

TEST(mcp_client_tools, tool_error_is_a_result_and_unknown_tool_an_error) {
  mcp::server srv({.name = "s", .version = "1"});
  srv.add_tool({.name = "fails", .description = "d"},
               [](const json&, mcp::request_context&) -> mcp::tool_outcome {
                 return tooluse::tool_result::error("it broke");
               });
  auto c = mcp::client::connect(memory_connection(srv), {});
  ASSERT_TRUE(c) << c.error().what();
  auto r = (*c)->call_tool("fails");
  ASSERT_TRUE(r) << r.error().what();
  EXPECT_TRUE(r->is_error);
  EXPECT_EQ(r->all_text(), "it broke");
  auto raw = (*c)->call_tool_raw("fails");
  ASSERT_TRUE(raw);
  EXPECT_EQ((*raw)["isError"], true);
  auto unknown = (*c)->call_tool("nope");
  if (unknown) {
    EXPECT_TRUE(unknown->is_error);  // some servers report unknown tools as tool errors
  } else {
    EXPECT_NE(unknown.error().jsonrpc_code, 0);
    EXPECT_NE(unknown.error().message.find("tools/call failed"), std::string::npos);
  }
}

TEST(mcp_client_features, resources_prompts_completion_and_logging) {
  mcp::server srv({.name = "s", .version = "1"});
  srv.add_resource(
      {.uri = "test://a", .name = "a", .mime_type = "text/plain"},
      [](const std::string& uri, const json&,
         mcp::request_context&) -> tooluse::result<std::vector<mcp::resource_contents>> {
        return std::vector<mcp::resource_contents>{
            {.uri = uri, .mime_type = "text/plain", .text = "content of a"}};
      });
  srv.add_resource_template(
      {.uri_template = "test://t/{id}", .name = "t"},
      [](const std::string& uri, const json& vars,
         mcp::request_context&) -> tooluse::result<std::vector<mcp::resource_contents>> {
        return std::vector<mcp::resource_contents>{
            {.uri = uri, .text = "id " + vars.value("id", "")}};
      });
  srv.add_prompt(
      {.name = "greet", .arguments = {{.name = "who", .required = true}}},
      [](const json& args, mcp::request_context&) -> tooluse::result<mcp::prompt_outcome> {
        return mcp::prompt_result{
            .messages = {{.content = tooluse::text_content{"hello " + args.value("who", "")}}}};
      });
  srv.set_completion([](const json&, const std::string&, const std::string& value, auto&) {
    return mcp::completion_result{.values = {value + "1", value + "2"}, .total = 2};
  });
  srv.add_tool({.name = "logs", .description = "d"},
               [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
                 ctx.log(mcp::log_level::warning, "careful");
                 return tooluse::tool_result::text("done");
               });
  std::vector<mcp::log_entry> logs;
  std::mutex mu;
  auto c = mcp::client::connect(
      memory_connection(srv),
      {.protocol_version = "2025-11-25", .on_log = [&](const mcp::log_entry& e) {
         std::lock_guard lock(mu);
         logs.push_back(e);
       }});
  ASSERT_TRUE(c) << c.error().what();
  auto& cl = **c;
  auto rs = cl.list_resources();
  ASSERT_TRUE(rs) << rs.error().what();
  ASSERT_EQ(rs->size(), 1u);
  auto read = cl.read_resource("test://a");
  ASSERT_TRUE(read) << read.error().what();
  EXPECT_EQ((*read)["contents"][0]["text"], "content of a");
  auto templates = cl.list_resource_templates();
  ASSERT_TRUE(templates);
  EXPECT_EQ((*templates)[0]["uriTemplate"], "test://t/{id}");
  EXPECT_EQ((*cl.read_resource("test://t/7"))["contents"][0]["text"], "id 7");
  auto prompts = cl.list_prompts();
  ASSERT_TRUE(prompts);
  EXPECT_EQ((*prompts)[0]["name"], "greet");
  auto p = cl.get_prompt("greet", {{"who", "ann"}});
  ASSERT_TRUE(p) << p.error().what();
  EXPECT_EQ((*p)["messages"][0]["content"]["text"], "hello ann");
  auto comp = cl.complete({{"type", "ref/prompt"}, {"name", "greet"}}, "who", "a");
  ASSERT_TRUE(comp) << comp.error().what();
  EXPECT_EQ(comp->values, (std::vector<std::string>{"a1", "a2"}));
  ASSERT_TRUE(cl.set_logging_level(mcp::log_level::debug));
  ASSERT_TRUE(cl.call_tool("logs"));  // the log notification precedes the response
  std::lock_guard lock(mu);
  ASSERT_EQ(logs.size(), 1u);
  EXPECT_EQ(logs[0].level, mcp::log_level::warning);
  EXPECT_EQ(logs[0].data, "careful");
}
