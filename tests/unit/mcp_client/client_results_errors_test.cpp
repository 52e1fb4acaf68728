// mcp::client reading results a server got wrong, with the test playing a 2025 server
// (scripted_transport): a list without its array, a cursor that is not text, a list that never
// ends, a tool answering with a task to a client that has tasks off, a malformed tool result,
// and a malformed completion. Each error names the server and the method.
#include <gtest/gtest.h>

#include <atomic>

#include "client_test_support.hpp"

namespace client_results_errors_test {
namespace mcp = tooluse::mcp;
using tooluse::errc;
using tooluse::json;
using namespace mcp::testing;

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// server connects a client to a scripted 2025 server answering with `rest`.
std::shared_ptr<mcp::client> server(std::function<json(const json&)> rest,
                                    mcp::client_options o = {}) {
  o.protocol_version = "2025-11-25";
  auto c = mcp::client::connect(std::make_unique<scripted_transport>(legacy_script(rest)), o);
  if (!c) throw std::runtime_error(c.error().message);
  return *c;
}

}  // namespace

TEST(mcp_client_results, a_list_without_its_array_names_the_field) {
  auto c = server([](const json& m) -> json {
    if (m["method"] == "tools/list") return {{"items", json::array()}};
    if (m["method"] == "prompts/list") return {{"prompts", "none"}};
    return nullptr;
  });
  auto tools = c->list_tools();
  ASSERT_FALSE(tools);
  EXPECT_EQ(tools.error().code, errc::protocol_error);
  EXPECT_EQ(tools.error().message, "scripted server: tools/list result has no \"tools\" array");
  auto prompts = c->list_prompts();
  ASSERT_FALSE(prompts);
  EXPECT_EQ(prompts.error().message,
            "scripted server: prompts/list result has no \"prompts\" array");
}

TEST(mcp_client_results, a_cursor_that_is_not_text_is_a_malformed_page) {
  auto c = server([](const json& m) -> json {
    if (m["method"] == "tools/list") return {{"tools", json::array()}, {"nextCursor", 7}};
    return nullptr;
  });
  auto tools = c->list_tools();
  ASSERT_FALSE(tools);
  EXPECT_EQ(tools.error().code, errc::protocol_error);
  EXPECT_TRUE(contains(tools.error().message, "scripted server: tools/list result is malformed"))
      << tools.error().message;
}

TEST(mcp_client_results, a_list_that_never_ends_stops_at_max_list_pages) {
  std::atomic<int> pages{0};
  auto c = server(
      [&pages](const json& m) -> json {
        if (m["method"] != "resources/list") return nullptr;
        int n = ++pages;
        json r = {{"name", "r" + std::to_string(n)}, {"uri", "file:///r" + std::to_string(n)}};
        return {{"resources", {r}}, {"nextCursor", "page-" + std::to_string(n)}};
      },
      {.max_list_pages = 3});
  auto all = c->list_resources();
  ASSERT_FALSE(all);
  EXPECT_EQ(all.error().code, errc::protocol_error);
  EXPECT_EQ(all.error().message, "scripted server: resources/list returned more than 3 pages");
  EXPECT_EQ(pages.load(), 3);
}

TEST(mcp_client_results, a_task_answer_to_a_client_with_tasks_off_is_refused) {
  auto c = server(
      [](const json& m) -> json {
        if (m["method"] == "tools/call")
          return {{"task", {{"taskId", "t-1"}, {"status", "working"}}}};
        return nullptr;
      },
      {.tasks = false});
  auto r = c->call_tool("slow_job");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_EQ(r.error().message,
            "scripted server: tools/call \"slow_job\" answered with a task, but this client has "
            "tasks off");
}

TEST(mcp_client_results, a_malformed_tool_result_names_the_tool) {
  auto c = server([](const json& m) -> json {
    if (m["method"] == "tools/call") return {{"content", "just text"}};
    return nullptr;
  });
  auto r = c->call_tool("echo", {{"text", "hi"}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_TRUE(contains(r.error().message,
                       "scripted server: tools/call \"echo\" returned a malformed result"))
      << r.error().message;
}

TEST(mcp_client_results, a_malformed_completion_is_a_protocol_error) {
  auto c = server([](const json& m) -> json {
    if (m["method"] == "completion/complete") return {{"completion", 5}};
    return nullptr;
  });
  auto r = c->complete({{"type", "ref/prompt"}, {"name", "greet"}}, "name", "Al");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::protocol_error);
  EXPECT_TRUE(
      contains(r.error().message, "scripted server: completion/complete result is malformed"))
      << r.error().message;
}
}  // namespace client_results_errors_test
