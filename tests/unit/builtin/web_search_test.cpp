#include <gtest/gtest.h>

#include <cstdlib>

#include "builtin_test_util.hpp"
#include "tooluse/builtin/web.hpp"
#include "web_test_util.hpp"

namespace {
using tooluse::json;
using tooluse::testing::call_tool;
using tooluse::testing::fixture;
using tooluse::testing::json_reply;

const std::string key = "tvly-SECRET-0123456789";

TEST(web_search, tavily_request_and_normalised_results) {
  tooluse::testing::fake_llm_server server;
  server.push(json_reply(fixture("tavily_search.json")));
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.search_provider = "tavily", .tavily_api_key = key,
                                                  .tavily_url = server.url()});
  auto r = call_tool(registry, "web_search", {{"query", "Eliud Kipchoge marathon world record"}, {"max_results", 2}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  auto results = (*r.structured_content)["results"];
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0]["title"], "Eliud Kipchoge - Wikipedia");
  EXPECT_EQ(results[0]["url"], "https://en.wikipedia.org/wiki/Eliud_Kipchoge");
  EXPECT_NE(results[0]["snippet"].get<std::string>().find("2:01:09"), std::string::npos);
  EXPECT_DOUBLE_EQ(results[0]["score"].get<double>(), 0.9812);
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].target, "/search");
  EXPECT_EQ(reqs[0].header("Authorization"), "Bearer " + key);
  auto body = reqs[0].json_body();
  EXPECT_EQ(body["query"], "Eliud Kipchoge marathon world record");
  EXPECT_EQ(body["max_results"], 2);
}

TEST(web_search, brave_request_and_tags_stripped) {
  tooluse::testing::fake_llm_server server;
  server.push(json_reply(fixture("brave_search.json")));
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.search_provider = "brave", .brave_api_key = "BSA-secret-key",
                                                  .brave_url = server.url()});
  auto r = call_tool(registry, "web_search", {{"query", "Kipchoge record & time"}, {"max_results", 4}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  auto results = (*r.structured_content)["results"];
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0]["title"], "Eliud Kipchoge - Wikipedia");
  EXPECT_EQ(results[0]["snippet"], "Eliud Kipchoge is a Kenyan long-distance runner & Olympic champion.");
  EXPECT_GT(results[0]["score"].get<double>(), results[1]["score"].get<double>());
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "GET");
  EXPECT_EQ(reqs[0].target, "/res/v1/web/search?q=Kipchoge%20record%20%26%20time&count=4");
  EXPECT_EQ(reqs[0].header("X-Subscription-Token"), "BSA-secret-key");
}

TEST(web_search, searxng_without_key_and_max_results) {
  tooluse::testing::fake_llm_server server;
  server.push(json_reply(fixture("searxng_search.json")));
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.search_provider = "searxng", .searxng_url = server.url()});
  auto r = call_tool(registry, "web_search", {{"query", "kipchoge"}, {"max_results", 2}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["results"].size(), 2u);
  EXPECT_EQ((*r.structured_content)["provider"], "searxng");
  auto reqs = server.requests();
  EXPECT_EQ(reqs[0].target, "/search?q=kipchoge&format=json");
  EXPECT_EQ(reqs[0].header("Authorization"), "");
}

TEST(web_search, rejected_key_is_a_clear_error_without_the_key) {
  tooluse::testing::fake_llm_server server;
  server.push(json_reply(R"({"detail":{"error":"Unauthorized: missing or invalid API key )" + key + R"("}})", 401));
  server.push(json_reply("internal error for key " + key, 500));
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.search_provider = "tavily", .tavily_api_key = key,
                                                  .tavily_url = server.url()});
  auto r = call_tool(registry, "web_search", {{"query", "x"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("TAVILY_API_KEY"), std::string::npos) << r.all_text();
  EXPECT_NE(r.all_text().find("401"), std::string::npos);
  EXPECT_EQ(r.all_text().find(key), std::string::npos);
  auto r500 = call_tool(registry, "web_search", {{"query", "x"}});
  EXPECT_TRUE(r500.is_error);
  EXPECT_NE(r500.all_text().find("HTTP 500"), std::string::npos);
  EXPECT_EQ(r500.all_text().find(key), std::string::npos) << r500.all_text();
}

TEST(web_search, no_provider_configured_says_what_to_set) {
  ::unsetenv("TAVILY_API_KEY");
  ::unsetenv("BRAVE_API_KEY");
  ::unsetenv("SEARXNG_URL");
  ::unsetenv("TOOLUSE_SEARCH_PROVIDER");
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {});
  auto r = call_tool(registry, "web_search", {{"query", "x"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("TAVILY_API_KEY, BRAVE_API_KEY or SEARXNG_URL"), std::string::npos);
}

TEST(web_search, metadata_is_honest) {
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {});
  for (const char* n : {"web_search", "wikipedia_search", "wikipedia_page", "http_fetch", "weather"}) {
    auto e = registry.find(n);
    ASSERT_TRUE(e) << n;
    EXPECT_EQ(e->definition.annotations.open_world, true) << n;
    EXPECT_EQ(e->definition.annotations.read_only, true) << n;
    EXPECT_GT(e->definition.timeout.count(), 0) << n;
    EXPECT_GT(e->definition.rate.calls, 0) << n;
    EXPECT_EQ(e->definition.category, "web") << n;
  }
  EXPECT_TRUE(registry.find("web_search")->definition.requires_auth);
  EXPECT_GT(registry.find("web_search")->definition.cost_per_call, 0);
}

}  // namespace
