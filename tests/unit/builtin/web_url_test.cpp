// parse_url and resolve_reference (Boost.URL underneath): what the network tools accept as a
// destination and how they follow a redirect's Location.
#include <gtest/gtest.h>

#include "builtin/web_impl.hpp"

namespace {
using tooluse::builtin::detail::parse_url;
using tooluse::builtin::detail::resolve_reference;

TEST(parse_url, takes_an_http_url_apart) {
  auto u = parse_url("HTTPS://User:pw@Example.COM.:8443/a/b?q=1#frag");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->scheme, "https");
  EXPECT_EQ(u->host, "example.com");  // lowercased, trailing dot dropped, user info dropped
  EXPECT_EQ(u->port, 8443);
  EXPECT_EQ(u->target, "/a/b?q=1");  // the fragment never goes on the wire
}

TEST(parse_url, fills_in_default_ports_and_the_root_path) {
  auto plain = parse_url("http://example.com");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->port, 80);
  EXPECT_EQ(plain->target, "/");
  auto tls = parse_url("https://example.com?x=1");
  ASSERT_TRUE(tls);
  EXPECT_EQ(tls->port, 443);
  EXPECT_EQ(tls->target, "/?x=1");
  auto empty_port = parse_url("http://example.com:/x");
  ASSERT_TRUE(empty_port);
  EXPECT_EQ(empty_port->port, 80);
}

TEST(parse_url, reads_ip_literals) {
  auto v6 = parse_url("http://[::1]:8080/");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 8080);
  auto v4 = parse_url("http://127.0.0.1/");
  ASSERT_TRUE(v4);
  EXPECT_EQ(v4->host, "127.0.0.1");
}

TEST(parse_url, refuses_what_the_tools_must_not_fetch) {
  auto relative = parse_url("example.com/page");
  ASSERT_FALSE(relative);
  EXPECT_NE(relative.error().message.find("not absolute"), std::string::npos);
  auto ftp = parse_url("ftp://example.com/file");
  ASSERT_FALSE(ftp);
  EXPECT_NE(ftp.error().message.find("only http and https"), std::string::npos);
  auto port = parse_url("http://example.com:99999/");
  ASSERT_FALSE(port);
  EXPECT_NE(port.error().message.find("invalid port"), std::string::npos);
  EXPECT_FALSE(parse_url("http:///path"));
  EXPECT_FALSE(parse_url("http://exa mple.com/"));
  EXPECT_FALSE(parse_url("http://[::1/"));
}

TEST(resolve_reference, follows_absolute_and_relative_locations) {
  auto base = parse_url("https://example.com/docs/page?x=1");
  ASSERT_TRUE(base);
  EXPECT_EQ(resolve_reference(*base, "https://other.org/a"), "https://other.org/a");
  EXPECT_EQ(resolve_reference(*base, "//cdn.example.com/x"), "https://cdn.example.com/x");
  EXPECT_EQ(resolve_reference(*base, "/root"), "https://example.com:443/root");
  EXPECT_EQ(resolve_reference(*base, "next"), "https://example.com:443/docs/next");
  EXPECT_EQ(resolve_reference(*base, "../up?y=2"), "https://example.com:443/up?y=2");
  auto v6 = parse_url("http://[::1]:8080/a/b");
  ASSERT_TRUE(v6);
  EXPECT_EQ(resolve_reference(*v6, "c"), "http://[::1]:8080/a/c");
}

TEST(url_encode, percent_encodes_all_but_unreserved_characters) {
  EXPECT_EQ(tooluse::builtin::detail::url_encode("a b&c=d/é~-._"), "a%20b%26c%3Dd%2F%C3%A9~-._");
}

}  // namespace
