// Adding a resource template changes what resources/templates/list answers, so an initialized
// session hears notifications/resources/list_changed, as it does for a resource.
#include <gtest/gtest.h>

#include "unit/mcp/mcp_test_util.hpp"

namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::json;

TEST(mcp_resource_templates, adding_one_tells_initialized_sessions_the_list_changed) {
  mcp::server server({.name = "templates", .version = "1"});
  mcp::memory_client c(server);
  handshake(c);
  server.add_resource_template({.uri_template = "notes://{name}", .name = "notes"},
                               [](const std::string& uri, const json&, mcp::request_context&)
                                   -> tooluse::result<std::vector<mcp::resource_contents>> {
                                 return std::vector<mcp::resource_contents>{{.uri = uri, .text = "n"}};
                               });
  auto n = c.receive();
  ASSERT_TRUE(n);
  EXPECT_EQ((*n)["method"], "notifications/resources/list_changed");
  auto listed = c.request(req(1, "resources/templates/list"));
  ASSERT_TRUE(listed && listed->contains("result")) << (listed ? listed->dump() : "");
  ASSERT_EQ((*listed)["result"]["resourceTemplates"].size(), 1u);
  EXPECT_EQ((*listed)["result"]["resourceTemplates"][0]["uriTemplate"], "notes://{name}");
}
