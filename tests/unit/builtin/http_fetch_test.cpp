// http_fetch: HTML to text, limits, redirects, and the SSRF corpus.
#include <gtest/gtest.h>

#include <map>

#include "builtin/web_impl.hpp"
#include "builtin_test_util.hpp"
#include "tooluse/builtin/web.hpp"
#include "web_test_util.hpp"

namespace http_fetch_test {
namespace {
using tooluse::json;
using tooluse::testing::call_tool;
using tooluse::testing::scripted_response;

const char* page = R"(<!doctype html><html><head><title>Kipchoge &amp; records</title>
<style>body{color:red}</style><script>var secret = "do not show";</script></head>
<body><nav><a href="/">Home</a> | <a href="/news">News</a></nav>
<header>Site banner</header>
<main><h1>Marathon record</h1><p>Eliud   Kipchoge ran <b>2:01:09</b>
in Berlin.</p><ul><li>First item</li><li>Second item</li></ul><img src="x.png" alt="finish line"></main>
<footer>Copyright footer</footer></body></html>)";

scripted_response html(std::string body, int status = 200) {
  return {.status = status, .headers = {{"Content-Type", "text/html; charset=utf-8"}}, .body = std::move(body)};
}

std::string endpoint(const tooluse::testing::fake_llm_server& s) { return "127.0.0.1:" + std::to_string(s.port()); }

TEST(http_fetch, html_becomes_text_with_main_content_first) {
  tooluse::testing::fake_llm_server server;
  server.push(html(page));
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.private_address_exceptions = {endpoint(server)}});
  auto r = call_tool(registry, "http_fetch", {{"url", server.url("/article")}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  std::string text = (*r.structured_content)["text"];
  EXPECT_EQ((*r.structured_content)["title"], "Kipchoge & records");
  EXPECT_EQ(text.rfind("# Marathon record\n\nEliud Kipchoge ran 2:01:09 in Berlin.\n\n- First item\n- Second item", 0), 0u)
      << text;
  EXPECT_NE(text.find("[image: finish line]"), std::string::npos);
  EXPECT_LT(text.find("Marathon record"), text.find("Site banner"));
  EXPECT_EQ(text.find("do not show"), std::string::npos);
  EXPECT_EQ(text.find("color:red"), std::string::npos);
  EXPECT_EQ(text.find("News"), std::string::npos);  // navigation dropped
  auto reqs = server.requests();
  EXPECT_EQ(reqs[0].target, "/article");
  EXPECT_NE(reqs[0].header("User-Agent").find("tooluse"), std::string::npos);
}

TEST(http_fetch, follows_bounded_redirects_and_cuts_long_text) {
  tooluse::testing::fake_llm_server server;
  server.set_responder([](const tooluse::testing::recorded_request& req) -> scripted_response {
    if (req.target == "/loop") return {.status = 302, .headers = {{"Location", "/loop"}}};
    if (req.target == "/old") return {.status = 301, .headers = {{"Location", "/new"}}};
    return {.headers = {{"Content-Type", "text/plain"}}, .body = std::string(5000, 'a')};
  });
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.private_address_exceptions = {endpoint(server)}, .max_redirects = 3});
  auto r = call_tool(registry, "http_fetch", {{"url", server.url("/old")}, {"max_chars", 1000}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["redirects"], 1);
  EXPECT_EQ((*r.structured_content)["url"], server.url("/new"));
  EXPECT_EQ((*r.structured_content)["text"].get<std::string>().size(), 1000u);
  EXPECT_EQ((*r.structured_content)["truncated"], true);
  auto loop = call_tool(registry, "http_fetch", {{"url", server.url("/loop")}});
  EXPECT_TRUE(loop.is_error);
  EXPECT_NE(loop.all_text().find("too many redirects"), std::string::npos);
}

TEST(http_fetch, download_size_limit_and_binary_refusal) {
  tooluse::testing::fake_llm_server server;
  server.set_responder([](const tooluse::testing::recorded_request& req) -> scripted_response {
    if (req.target == "/img") return {.headers = {{"Content-Type", "image/png"}}, .body = std::string("\x89PNG\r\n\x1a\n", 8)};
    return {.headers = {{"Content-Type", "text/plain"}}, .body = std::string(100000, 'b')};
  });
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.private_address_exceptions = {endpoint(server)}, .max_fetch_bytes = 4096});
  auto r = call_tool(registry, "http_fetch", {{"url", server.url("/big")}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["download_truncated"], true);
  EXPECT_EQ((*r.structured_content)["total_chars"], 4096);
  auto img = call_tool(registry, "http_fetch", {{"url", server.url("/img")}});
  EXPECT_TRUE(img.is_error);
  EXPECT_NE(img.all_text().find("not text"), std::string::npos);
}

TEST(http_fetch, ssrf_private_loopback_and_metadata_addresses_are_refused) {
  tooluse::testing::fake_llm_server server;
  server.set_responder([](const auto&) { return html("<p>internal secret</p>"); });
  std::string port = std::to_string(server.port());
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {});  // default policy: public addresses only
  const std::vector<std::string> corpus = {
      "http://127.0.0.1:" + port + "/", "http://[::1]:" + port + "/", "http://localhost:" + port + "/",
      "http://localhost.:" + port + "/", "http://LOCALHOST:" + port + "/", "http://2130706433:" + port + "/",
      "http://0x7f.0.0.1:" + port + "/", "http://0177.0.0.1:" + port + "/", "http://127.1:" + port + "/",
      "http://0.0.0.0:" + port + "/", "http://[::ffff:127.0.0.1]:" + port + "/", "http://[::]:" + port + "/",
      "http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://10.0.0.1/", "http://10.255.255.254/",
      "http://172.16.0.1/", "http://192.168.1.1/", "http://100.64.0.1/", "http://[fd00::1]/",
      "http://user:pass@127.0.0.1:" + port + "/", "file:///etc/passwd", "gopher://127.0.0.1:" + port + "/",
      "ftp://127.0.0.1/", "127.0.0.1:" + port};
  for (const auto& url : corpus) {
    auto r = call_tool(registry, "http_fetch", {{"url", url}});
    EXPECT_TRUE(r.is_error) << url << " was fetched: " << r.all_text();
  }
  auto r = call_tool(registry, "http_fetch", {{"url", "http://169.254.169.254/latest/meta-data/"}});
  EXPECT_NE(r.all_text().find("private, loopback or link-local"), std::string::npos) << r.all_text();
  EXPECT_TRUE(server.requests().empty()) << "the loopback server was reached";
}

TEST(http_fetch, ssrf_redirects_to_private_addresses_are_refused) {
  tooluse::testing::fake_llm_server inner;  // stands for an internal service
  inner.set_responder([](const auto&) { return html("<p>internal secret</p>"); });
  tooluse::testing::fake_llm_server outer;  // the "public" site, reachable through the exception
  std::string inner_port = std::to_string(inner.port());
  outer.set_responder([&](const tooluse::testing::recorded_request& req) -> scripted_response {
    std::string to = req.target.substr(1);
    std::map<std::string, std::string> where = {
        {"a", "http://127.0.0.1:" + inner_port + "/"}, {"b", "http://localhost:" + inner_port + "/"},
        {"c", "http://169.254.169.254/latest/meta-data/"}, {"d", "http://10.1.2.3/"},
        {"e", "http://[::1]:" + inner_port + "/"}, {"f", "//127.0.0.1:" + inner_port + "/x"}};
    return {.status = 302, .headers = {{"Location", where[to]}}};
  });
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.private_address_exceptions = {endpoint(outer)}});
  for (const char* hop : {"a", "b", "c", "d", "e", "f"}) {
    auto r = call_tool(registry, "http_fetch", {{"url", outer.url(std::string("/") + hop)}});
    EXPECT_TRUE(r.is_error) << hop << ": " << r.all_text();
    EXPECT_EQ(r.all_text().find("internal secret"), std::string::npos);
  }
  EXPECT_EQ(outer.requests().size(), 6u);
  EXPECT_TRUE(inner.requests().empty()) << "a redirect reached the internal server";
}

TEST(http_fetch, domain_allowlist) {
  tooluse::testing::fake_llm_server server;
  server.set_responder([](const auto&) { return html("<p>ok</p>"); });
  tooluse::tool_registry registry;
  tooluse::builtin::register_web_tools(registry, {.allow_private_addresses = true, .allowed_domains = {"example.org"}});
  auto r = call_tool(registry, "http_fetch", {{"url", server.url("/")}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("not in the allowed domains"), std::string::npos);
  EXPECT_TRUE(server.requests().empty());
  tooluse::tool_registry allowed;
  tooluse::builtin::register_web_tools(allowed, {.allow_private_addresses = true, .allowed_domains = {"127.0.0.1"}});
  EXPECT_FALSE(call_tool(allowed, "http_fetch", {{"url", server.url("/")}}).is_error);
}

}  // namespace

namespace {
// The connect-time guard is what stops DNS rebinding: whatever the name resolved to when
// check_destination looked, the address of the actual connection must be public.
TEST(http_fetch, connect_guard_refuses_private_addresses_at_connect_time) {
  auto u = tooluse::builtin::detail::parse_url("http://example.com:8080/x");
  ASSERT_TRUE(u.has_value());
  auto guard = tooluse::builtin::detail::connect_guard(*u, {});
  ASSERT_TRUE(static_cast<bool>(guard));
  EXPECT_FALSE(guard("127.0.0.1"));
  EXPECT_FALSE(guard("10.1.2.3"));
  EXPECT_FALSE(guard("::1"));
  EXPECT_FALSE(guard("169.254.169.254"));
  EXPECT_TRUE(guard("93.184.216.34"));
  EXPECT_FALSE(static_cast<bool>(
      tooluse::builtin::detail::connect_guard(*u, {.private_address_exceptions = {"example.com:8080"}})));
  EXPECT_FALSE(static_cast<bool>(tooluse::builtin::detail::connect_guard(*u, {.allow_private_addresses = true})));
}
}  // namespace
}  // namespace http_fetch_test
