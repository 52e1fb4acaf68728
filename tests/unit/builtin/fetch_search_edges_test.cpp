// http_fetch and web_search paths the main tests do not take: error statuses with their data,
// raw HTML, JSON and sniffed content types, continuing a cut text, the search provider picked
// from the configured keys, Tavily's request body, Brave's rank scores, empty result lists and
// rate limits. All against a loopback server.
#include <gtest/gtest.h>

#include "builtin_test_util.hpp"
#include "tooluse/builtin/web.hpp"
#include "web_test_util.hpp"

namespace {
using tooluse::json;
using tooluse::testing::call_tool;
using tooluse::testing::fake_llm_server;
using tooluse::testing::json_reply;
using tooluse::testing::scripted_response;

std::string endpoint(const fake_llm_server& s) { return "127.0.0.1:" + std::to_string(s.port()); }

struct fetch_edges : ::testing::Test {
  fake_llm_server server;
  tooluse::tool_registry registry;
  void SetUp() override {
    tooluse::builtin::register_web_tools(registry, {.private_address_exceptions = {endpoint(server)}});
  }
  tooluse::tool_result fetch(const std::string& path, json extra = json::object()) {
    extra["url"] = server.url(path);
    return call_tool(registry, "http_fetch", extra);
  }
};

TEST_F(fetch_edges, a_missing_page_is_an_error_that_keeps_the_response_data) {
  server.push({.status = 404, .headers = {{"Content-Type", "text/html"}}, .body = "<p>gone</p>"});
  auto r = fetch("/gone");
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text(), "HTTP 404 from " + server.url("/gone") + ": the page does not exist");
  ASSERT_TRUE(r.structured_content.has_value());
  EXPECT_EQ((*r.structured_content)["status"], 404);
  EXPECT_EQ((*r.structured_content)["content_type"], "text/html");
  EXPECT_EQ((*r.structured_content)["redirects"], 0);
  server.push({.status = 503, .body = "busy"});
  auto busy = fetch("/busy");
  EXPECT_TRUE(busy.is_error);
  EXPECT_EQ(busy.all_text(), "HTTP 503 from " + server.url("/busy"));
}

TEST_F(fetch_edges, raw_returns_the_html_source) {
  const std::string source = "<html><head><title>T</title></head><body><p>Hi</p></body></html>";
  server.push({.headers = {{"Content-Type", "TEXT/HTML"}}, .body = source});
  auto r = fetch("/page", {{"raw", true}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["text"], source);
  EXPECT_EQ((*r.structured_content)["title"], "");
  EXPECT_EQ((*r.structured_content)["content_type"], "text/html");  // lower-cased
}

TEST_F(fetch_edges, json_is_returned_as_it_is) {
  server.push(json_reply(R"({"a": [1, 2]})"));
  auto r = fetch("/api");
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["text"], R"({"a": [1, 2]})");
  EXPECT_EQ(r.all_text(), server.url("/api") + "\n\n" + R"({"a": [1, 2]})");
}

TEST_F(fetch_edges, html_with_an_empty_content_type_is_recognised_and_other_bodies_are_not_text) {
  server.push({.headers = {{"Content-Type", ""}}, .body = "<html><body><p>Sniffed</p></body></html>"});
  auto sniffed = fetch("/a");
  ASSERT_FALSE(sniffed.is_error) << sniffed.all_text();
  EXPECT_EQ((*sniffed.structured_content)["text"], "Sniffed");
  server.push({.headers = {{"Content-Type", ""}}, .body = "plain words"});
  auto unknown = fetch("/b");
  EXPECT_TRUE(unknown.is_error);
  EXPECT_EQ(unknown.all_text(), "the content at " + server.url("/b") +
                                    " is not text (unknown type); http_fetch only returns text and HTML pages");
}

TEST_F(fetch_edges, binary_bytes_behind_a_text_type_are_refused) {
  server.push({.headers = {{"Content-Type", "text/plain"}}, .body = std::string("ab\0\0\0\x01\x02", 7)});
  auto r = fetch("/bin");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("is not text (text/plain)"), std::string::npos) << r.all_text();
}

TEST_F(fetch_edges, start_char_continues_and_past_the_end_is_empty) {
  std::string body;
  for (int i = 0; i < 50; ++i) body += "line " + std::to_string(i) + "\n";
  server.set_responder([&](const auto&) -> scripted_response {
    return {.headers = {{"Content-Type", "text/plain"}}, .body = body};
  });
  auto second = fetch("/t", {{"max_chars", 100}, {"start_char", 100}});
  ASSERT_FALSE(second.is_error) << second.all_text();
  EXPECT_EQ((*second.structured_content)["text"], body.substr(100, 100));
  EXPECT_EQ((*second.structured_content)["truncated"], true);
  EXPECT_EQ((*second.structured_content)["total_chars"], body.size());
  EXPECT_NE(second.all_text().find("more with start_char=200]"), std::string::npos);
  auto past = fetch("/t", {{"start_char", 100000}});
  ASSERT_FALSE(past.is_error);
  EXPECT_EQ((*past.structured_content)["text"], "");
  EXPECT_EQ((*past.structured_content)["truncated"], false);
}

TEST_F(fetch_edges, arguments_out_of_range_and_bad_urls_are_refused) {
  EXPECT_TRUE(fetch("/x", {{"max_chars", 99}}).is_error);
  EXPECT_TRUE(fetch("/x", {{"max_chars", 200001}}).is_error);
  EXPECT_TRUE(fetch("/x", {{"start_char", -5}}).is_error);
  auto relative = call_tool(registry, "http_fetch", {{"url", "/just/a/path"}});
  EXPECT_TRUE(relative.is_error);
  EXPECT_NE(relative.all_text().find("is not absolute; use http:// or https://"), std::string::npos)
      << relative.all_text();
  auto ftp = call_tool(registry, "http_fetch", {{"url", "ftp://example.org/file"}});
  EXPECT_TRUE(ftp.is_error);
  EXPECT_NE(ftp.all_text().find("uses scheme \"ftp\""), std::string::npos) << ftp.all_text();
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(fetch_edges, a_relative_redirect_is_followed_and_counted) {
  server.set_responder([](const tooluse::testing::recorded_request& req) -> scripted_response {
    if (req.target == "/dir/old") return {.status = 307, .headers = {{"Location", "../new?x=1"}}};
    return {.headers = {{"Content-Type", "text/plain"}}, .body = "moved here: " + req.target};
  });
  auto r = fetch("/dir/old");
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["text"], "moved here: /new?x=1");
  EXPECT_EQ((*r.structured_content)["redirects"], 1);
  EXPECT_EQ((*r.structured_content)["url"], server.url("/new?x=1"));
}

TEST(search_edges, the_provider_is_picked_from_the_first_configured_key) {
  fake_llm_server server;
  server.set_responder([](const auto&) { return json_reply(R"({"results":[]})"); });
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.tavily_api_key = "tvly-key-1234",
                                                  .brave_api_key = "brave-key-5678",
                                                  .tavily_url = server.url("/tavily"),
                                                  .brave_url = server.url("/brave")});
  auto r = call_tool(registry, "web_search", {{"query", "x"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["provider"], "tavily");
  EXPECT_EQ(r.all_text(), "no results for \"x\"\n");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].target, "/tavily/search");
  EXPECT_EQ(reqs[0].header("Authorization"), "Bearer tvly-key-1234");
  EXPECT_EQ(json::parse(reqs[0].body),
            json::parse(R"({"query":"x","max_results":5,"search_depth":"basic","topic":"general","include_answer":false})"));
}

TEST(search_edges, brave_is_used_when_it_has_the_only_key_and_ranks_become_scores) {
  fake_llm_server server;
  server.push(json_reply(R"({"web":{"results":[
      {"title":"<b>One</b>","url":"https://a.example","description":"first &amp; best"},
      {"title":"Two","url":"https://b.example","description":"second"},
      {"title":"Three","url":"https://c.example"},
      {"title":"Four","url":"https://d.example","description":"last"}]}})"));
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.brave_api_key = "brave-key-5678", .brave_url = server.url()});
  auto r = call_tool(registry, "web_search", {{"query", "a b"}, {"max_results", 4}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  const auto& res = (*r.structured_content)["results"];
  ASSERT_EQ(res.size(), 4u);
  EXPECT_EQ((*r.structured_content)["provider"], "brave");
  EXPECT_EQ(res[0]["title"], "One");
  EXPECT_EQ(res[0]["snippet"], "first & best");
  EXPECT_DOUBLE_EQ(res[0]["score"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(res[1]["score"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(res[3]["score"].get<double>(), 0.25);
  EXPECT_EQ(res[2]["snippet"], "");
  EXPECT_EQ(r.all_text().substr(0, 40), "1. One\n   https://a.example\n   first & b");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].target, "/res/v1/web/search?q=a%20b&count=4");
  EXPECT_EQ(reqs[0].header("X-Subscription-Token"), "brave-key-5678");
}

TEST(search_edges, brave_without_web_results_has_none) {
  fake_llm_server server;
  server.push(json_reply(R"({"type":"search","query":{"original":"zz"}})"));
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.brave_api_key = "brave-key-5678", .brave_url = server.url()});
  auto r = call_tool(registry, "web_search", {{"query", "zz"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["results"], json::array());
}

TEST(search_edges, a_chosen_provider_without_its_setting_is_named) {
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.search_provider = "brave", .tavily_api_key = "tvly-key-1234"});
  auto r = call_tool(registry, "web_search", {{"query", "x"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("web search is not configured for provider \"brave\""), std::string::npos)
      << r.all_text();
}

TEST(search_edges, rate_limits_and_refusals_say_what_to_do) {
  fake_llm_server server;
  server.push(json_reply("{}", 429));
  server.push(json_reply("{}", 403));
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.search_provider = "searxng", .searxng_url = server.url()});
  auto limited = call_tool(registry, "web_search", {{"query", "x"}});
  EXPECT_TRUE(limited.is_error);
  EXPECT_NE(limited.all_text().find("SearXNG is rate limiting requests (HTTP 429); wait and try again later"),
            std::string::npos)
      << limited.all_text();
  auto refused = call_tool(registry, "web_search", {{"query", "x"}});
  EXPECT_TRUE(refused.is_error);
  EXPECT_NE(refused.all_text().find("SearXNG rejected the request (HTTP 403); check SEARXNG_URL"),
            std::string::npos)
      << refused.all_text();
}

TEST(search_edges, searxng_cuts_to_max_results_and_keeps_scores) {
  fake_llm_server server;
  server.push(json_reply(R"({"results":[{"title":"A","url":"u1","content":"c1","score":2.5},
                                         {"title":"B","url":"u2"},{"title":"C","url":"u3"}]})"));
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.searxng_url = server.url()});
  auto r = call_tool(registry, "web_search", {{"query", "x"}, {"max_results", 1}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["provider"], "searxng");
  const auto& res = (*r.structured_content)["results"];
  ASSERT_EQ(res.size(), 1u);
  EXPECT_EQ(res[0], json::parse(R"({"title":"A","url":"u1","snippet":"c1","score":2.5})"));
  EXPECT_TRUE(call_tool(registry, "web_search", {{"query", ""}}).is_error);
  EXPECT_TRUE(call_tool(registry, "web_search", {{"query", "x"}, {"max_results", 0}}).is_error);
}

}  // namespace
