// The auth module's private helpers (src/auth/util.cpp): percent coding and forms as OAuth
// sends them, query parameters of a redirect (whole URL or bare query), URL splitting for
// origin checks, and the JSON exchanges' errors (a transport failure, a 2xx without JSON).
#include "auth/util.hpp"

#include <gtest/gtest.h>

namespace tooluse::auth::detail {
namespace {

TEST(auth_percent, encodes_all_but_unreserved_and_decodes_plus_as_space) {
  EXPECT_EQ(percent_encode("a-b_c.d~e"), "a-b_c.d~e");
  EXPECT_EQ(percent_encode("a b&c=d/é"), "a%20b%26c%3Dd%2F%C3%A9");
  EXPECT_EQ(percent_decode("a%20b+c%2Fd"), "a b c/d");
  EXPECT_EQ(percent_decode("%C3%A9"), "é");
  // Malformed escapes are kept as text, not dropped or misread.
  EXPECT_EQ(percent_decode("100%"), "100%");
  EXPECT_EQ(percent_decode("%zz"), "%zz");
  EXPECT_EQ(percent_decode("%4"), "%4");
  EXPECT_EQ(percent_decode("%41%"), "A%");
  for (std::string s : {std::string("redirect_uri=http://127.0.0.1:8/cb?x=1"),
                        std::string("scope=a b+c"), std::string("\x01\xff")})
    EXPECT_EQ(percent_decode(percent_encode(s)), s);
}

TEST(auth_form, encodes_pairs_in_order_with_escaped_keys_and_values) {
  EXPECT_EQ(form_encode({}), "");
  EXPECT_EQ(form_encode({{"grant_type", "authorization_code"},
                         {"redirect_uri", "http://127.0.0.1:9/cb"},
                         {"scope", "read write"},
                         {"a&b", ""}}),
            "grant_type=authorization_code&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&scope="
            "read%20write&a%26b=");
}

TEST(auth_query, reads_the_query_of_a_url_or_a_bare_query) {
  auto whole = query_params("http://127.0.0.1:5/cb?code=a%2Fb&state=s+1&iss=https%3A%2F%2Fas#frag");
  ASSERT_EQ(whole.size(), 3u);
  EXPECT_EQ(find_param(whole, "code"), "a/b");
  EXPECT_EQ(find_param(whole, "state"), "s 1");
  EXPECT_EQ(find_param(whole, "iss"), "https://as");
  EXPECT_EQ(find_param(whole, "missing"), "");

  auto bare = query_params("code=x&flag&&empty=");
  ASSERT_EQ(bare.size(), 3u);
  EXPECT_EQ(bare[0], (std::pair<std::string, std::string>{"code", "x"}));
  EXPECT_EQ(bare[1], (std::pair<std::string, std::string>{"flag", ""}));
  EXPECT_EQ(bare[2], (std::pair<std::string, std::string>{"empty", ""}));

  EXPECT_TRUE(query_params("http://127.0.0.1:5/cb").empty());
  EXPECT_TRUE(query_params("").empty());
  auto path_then_query = query_params("/cb?error=access_denied&error_description=no+way");
  EXPECT_EQ(find_param(path_then_query, "error"), "access_denied");
  EXPECT_EQ(find_param(path_then_query, "error_description"), "no way");
  // The first of repeated names wins.
  EXPECT_EQ(find_param(query_params("a=1&a=2"), "a"), "1");
}

TEST(auth_url, splits_scheme_authority_path_and_query_lowercasing_the_origin) {
  auto p = split_url("HTTPS://Auth.Example.COM:8443/Tenant/Path?x=1#f");
  ASSERT_TRUE(p.ok);
  EXPECT_TRUE(p.http());
  EXPECT_EQ(p.scheme, "https");
  EXPECT_EQ(p.authority, "auth.example.com:8443");
  EXPECT_EQ(p.path, "/Tenant/Path");  // paths are case-sensitive
  EXPECT_EQ(p.query, "x=1");
  EXPECT_EQ(p.origin(), "https://auth.example.com:8443");

  auto bare = split_url("http://127.0.0.1");
  ASSERT_TRUE(bare.ok);
  EXPECT_EQ(bare.path, "");
  EXPECT_EQ(bare.query, "");

  EXPECT_FALSE(split_url("mailto:someone@example.com").ok);  // no authority
  EXPECT_FALSE(split_url("/relative/path").ok);
  EXPECT_FALSE(split_url("not a url").ok);
  auto ftp = split_url("ftp://files.example.com/x");
  EXPECT_TRUE(ftp.ok);
  EXPECT_FALSE(ftp.http());

  EXPECT_EQ(strip_query("https://rs.example/mcp?x=1#f"), "https://rs.example/mcp");
  EXPECT_EQ(strip_query("https://rs.example/mcp#f?x"), "https://rs.example/mcp");
  EXPECT_EQ(strip_query("https://rs.example/mcp"), "https://rs.example/mcp");
  EXPECT_EQ(ascii_lower("MiXeD-Case"), "mixed-case");
}

// answering returns a transport that records the request and answers with `status` and `body`.
http::transport answering(int status, std::string body, http::request* seen) {
  return [=](const http::request& req, const http::send_options&) -> result<http::response> {
    *seen = req;
    return http::response{.status = status, .body = body};
  };
}

TEST(auth_exchange, post_form_sends_a_form_asking_for_json) {
  http::request seen;
  auto r = post_form(answering(200, R"({"access_token":"t"})", &seen), "https://as/token",
                     {{"grant_type", "client_credentials"}, {"scope", "a b"}},
                     {{"Authorization", "Basic eDp5"}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body["access_token"], "t");
  EXPECT_EQ(seen.method, "POST");
  EXPECT_EQ(seen.url, "https://as/token");
  EXPECT_EQ(seen.body, "grant_type=client_credentials&scope=a%20b");
  EXPECT_EQ(http::find_header(seen.headers, "content-type"), "application/x-www-form-urlencoded");
  EXPECT_EQ(http::find_header(seen.headers, "accept"), "application/json");
  EXPECT_EQ(http::find_header(seen.headers, "authorization"), "Basic eDp5");
  EXPECT_GT(seen.total_timeout.count(), 0);
}

TEST(auth_exchange, get_json_keeps_an_error_status_with_or_without_json) {
  http::request seen;
  auto refused = get_json(answering(400, R"({"error":"invalid_request"})", &seen), "https://as/x");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400);
  EXPECT_EQ(refused->body["error"], "invalid_request");
  EXPECT_EQ(seen.method, "GET");
  auto html = get_json(answering(404, "<html>not found</html>", &seen), "https://as/y");
  ASSERT_TRUE(html);
  EXPECT_EQ(html->status, 404);
  EXPECT_TRUE(html->body.is_null());
}

TEST(auth_exchange, a_success_without_json_or_a_failed_transport_is_an_error_naming_the_url) {
  http::request seen;
  auto html = get_json(answering(200, "<html>login</html>", &seen), "https://as/.well-known/x");
  ASSERT_FALSE(html);
  EXPECT_EQ(html.error().code, errc::protocol_error);
  EXPECT_EQ(html.error().message,
            "GET https://as/.well-known/x answered HTTP 200 without a JSON body");
  http::transport down = [](const http::request&, const http::send_options&) -> result<http::response> {
    return fail(errc::network_error, "connection refused");
  };
  auto r = post_form(down, "https://as/token", {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::network_error);
  EXPECT_EQ(r.error().message, "POST https://as/token failed: connection refused");
}

}  // namespace
}  // namespace tooluse::auth::detail
