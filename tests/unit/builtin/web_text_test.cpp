// The network tools' pure helpers: HTML to readable text (structure kept as plain-text marks,
// hidden and interactive parts dropped, main content first, over-deep pages flattened), tag
// stripping with entities, the public-address policy for IPv4/IPv6, the domain allowlist, and
// secret redaction.
#include <gtest/gtest.h>

#include <string>

#include "builtin/web_impl.hpp"

namespace {

using namespace tooluse::builtin::detail;

TEST(html_text, headings_paragraphs_and_lists_become_plain_text_marks) {
  auto doc = html_to_text(
      "<html><head><title> A &amp; B </title></head><body><h1>Head</h1><p>One   two</p>"
      "<ul><li>x</li><li>y</li></ul><h3>Small</h3></body></html>");
  EXPECT_EQ(doc.title, "A & B");
  EXPECT_EQ(doc.text, "# Head\n\nOne two\n\n- x\n- y\n\n### Small");
}

TEST(html_text, tables_pre_and_images) {
  auto table = html_to_text("<table><tr><td>a</td><td>b</td></tr><tr><th>c</th></tr></table>");
  EXPECT_EQ(table.text, "| a | b\n| c");
  auto pre = html_to_text("<p>before</p><pre>a\n  b</pre>");
  EXPECT_EQ(pre.text, "before\n\na\n  b");
  auto image = html_to_text(R"(<p>See <img src="x.png" alt="a cat"> and <img src="y.png"></p>)");
  EXPECT_EQ(image.text, "See [image: a cat] and");
}

TEST(html_text, hidden_interactive_and_script_parts_are_dropped) {
  auto doc = html_to_text(
      R"(<body><script>var x = 1;</script><style>p {}</style><nav>Menu</nav>)"
      R"(<form><input value="q"><button>Go</button></form><div hidden>secret</div>)"
      R"(<span aria-hidden="true">icon</span><span aria-hidden="false">shown</span>)"
      R"(<noscript>enable js</noscript><p>Body text</p></body>)");
  EXPECT_EQ(doc.text, "shown\n\nBody text");
  EXPECT_EQ(doc.title, "");
}

TEST(html_text, main_content_comes_first_and_the_rest_follows_a_rule) {
  auto doc = html_to_text(
      "<body><nav>Menu</nav><header>Site</header><main><p>Story</p></main>"
      "<footer>Foot</footer></body>");
  EXPECT_EQ(doc.text, "Story\n\n---\n(other page content)\nSite\n\nFoot");
  auto role = html_to_text(R"(<body><div>Intro</div><div role="main">Core</div></body>)");
  EXPECT_EQ(role.text, "Core\n\n---\n(other page content)\nIntro");
  auto article = html_to_text("<body><aside>Side</aside><article>Piece</article></body>");
  EXPECT_EQ(article.text, "Piece\n\n---\n(other page content)\nSide");
  auto only_main = html_to_text("<body><main>All</main></body>");
  EXPECT_EQ(only_main.text, "All");
}

TEST(html_text, fragments_and_empty_documents) {
  EXPECT_EQ(html_to_text("just text").text, "just text");
  EXPECT_EQ(html_to_text("").text, "");
  EXPECT_EQ(html_to_text("<title>T</title>").title, "T");
  EXPECT_EQ(html_to_text("a<br>b").text, "a\nb");
  EXPECT_EQ(html_to_text("caf&eacute; &lt;3").text, "caf\xc3\xa9 <3");
}

TEST(html_text, pages_nested_beyond_the_limit_are_flattened_with_a_note) {
  auto doc = html_to_text("<title>x</title><div><div><div>deep <b>text</b></div></div></div>", 2);
  EXPECT_EQ(doc.title, "");
  EXPECT_EQ(doc.text,
            "xdeep text\n\n(the page nests elements deeper than 2 levels, "
            "builtin::web_options::max_html_depth; its tags were stripped instead of parsed)");
  // Tags HTML closes implicitly, void elements, self-closed tags and comments do not count.
  auto flat = html_to_text("<p>a<p>b<li>c<br><img/><div/><!-- x --><?pi?>", 1);
  EXPECT_EQ(flat.text.find("stripped"), std::string::npos) << flat.text;
  auto closed = html_to_text("<div>a</div><div>b</div><div>c</div>", 1);
  EXPECT_EQ(closed.text, "a\n\nb\n\nc");
}

TEST(html_text, a_very_deep_page_does_not_exhaust_the_stack) {
  std::string html;
  for (int i = 0; i < 200000; ++i) html += "<div>";
  html += "bottom";
  auto doc = html_to_text(html);
  EXPECT_EQ(doc.text.rfind("bottom", 0), 0u);
  EXPECT_NE(doc.text.find("deeper than 512 levels"), std::string::npos);
}

TEST(strip_tags, removes_tags_and_decodes_each_entity_once) {
  EXPECT_EQ(strip_tags(R"(<b>Tom &amp; Jerry</b> &lt;3 &quot;hi&quot; it&#39;s&nbsp;ok &amp;lt; &#039;q&apos;)"),
            "Tom & Jerry <3 \"hi\" it's ok &lt; 'q'");
  EXPECT_EQ(strip_tags("no tags"), "no tags");
  EXPECT_EQ(strip_tags("<a href='x'>link</a><br/>"), "link");
  EXPECT_EQ(strip_tags("a <unclosed"), "a ");
}

TEST(public_address, ipv4_private_reserved_and_documentation_ranges) {
  for (const char* ip : {"0.0.0.0", "10.1.2.3", "100.64.0.1", "100.127.255.255", "127.0.0.1",
                         "169.254.169.254", "172.16.0.1", "172.31.255.255", "192.0.0.8", "192.0.2.1",
                         "192.168.1.1", "198.18.0.1", "198.19.255.255", "198.51.100.7", "203.0.113.9",
                         "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255"})
    EXPECT_FALSE(is_public_address(ip)) << ip;
  for (const char* ip : {"1.1.1.1", "8.8.8.8", "100.63.255.255", "100.128.0.0", "172.15.255.255",
                         "172.32.0.0", "192.169.0.1", "198.17.255.255", "198.20.0.0", "223.255.255.255"})
    EXPECT_TRUE(is_public_address(ip)) << ip;
}

TEST(public_address, ipv6_and_embedded_ipv4_forms) {
  for (const char* ip : {"::", "::1", "::127.0.0.1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
                         "fc00::1", "fd12:3456::1", "fe80::1", "febf::1", "fec0::1", "ff02::1",
                         "64:ff9b::10.0.0.1", "2002:c0a8:0101::1", "2001:db8::1"})
    EXPECT_FALSE(is_public_address(ip)) << ip;
  for (const char* ip : {"2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8",
                         "2002:0808:0808::1", "2001:4860::8888"})
    EXPECT_TRUE(is_public_address(ip)) << ip;
  for (const char* not_ip : {"", "localhost", "1.2.3", "::g", "1.2.3.4.5", "[::1]"})
    EXPECT_FALSE(is_public_address(not_ip)) << not_ip;
}

TEST(destination_policy, the_allowlist_matches_hosts_and_their_subdomains_only) {
  tooluse::builtin::web_options o;
  o.allowed_domains = {"example.com"};
  o.allow_private_addresses = true;  // no DNS: only the allowlist is checked
  auto check = [&](const char* host) { return check_destination({"https", host, 443, "/"}, o); };
  EXPECT_TRUE(check("example.com"));
  EXPECT_TRUE(check("api.example.com"));
  auto look_alike = check("badexample.com");
  ASSERT_FALSE(look_alike);
  EXPECT_EQ(look_alike.error().code, tooluse::errc::permission_denied);
  EXPECT_EQ(look_alike.error().message,
            "host \"badexample.com\" is not in the allowed domains; allowed: [\"example.com\"]");
  EXPECT_FALSE(check("example.com.evil.test"));
}

TEST(destination_policy, loopback_is_refused_unless_excepted_by_host_and_port) {
  tooluse::builtin::web_options o;
  auto refused = check_destination({"http", "127.0.0.1", 8080, "/"}, o);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "host \"127.0.0.1\" resolves to 127.0.0.1, a private, loopback or link-local address; "
            "http_fetch only reaches public addresses");
  o.private_address_exceptions = {"127.0.0.1:8080"};
  EXPECT_TRUE(check_destination({"http", "127.0.0.1", 8080, "/"}, o));
  EXPECT_FALSE(check_destination({"http", "127.0.0.1", 8081, "/"}, o));
  EXPECT_FALSE(check_destination({"http", "::1", 8080, "/"}, o));
}

TEST(redact, every_occurrence_of_each_long_enough_secret_is_hidden) {
  EXPECT_EQ(redact("key=abcd1234&again=abcd1234", {"abcd1234"}), "key=***&again=***");
  EXPECT_EQ(redact("token abc stays", {"abc"}), "token abc stays");  // under 4 characters
  EXPECT_EQ(redact("a=SECRET1 b=SECRET2", {"SECRET1", "SECRET2", ""}), "a=*** b=***");
  EXPECT_EQ(redact("nothing here", {}), "nothing here");
}

}  // namespace
