// http_request and request_reader (src/mcp/http_request.hpp): a request read by Beast's parser
// into one reused object must read as Beast's own message of it does: method, target,
// version, fields in order with their names as sent, lookups by known and unknown names in any
// case, keep-alive, bodies sized and chunked; and reading the next request into the same
// object leaves nothing of the one before.
#include <gtest/gtest.h>

#include <boost/beast/http.hpp>
#include <string>
#include <vector>

#include "mcp/http_request.hpp"

namespace http_request_test {
namespace http = boost::beast::http;
using tooluse::mcp::detail::http_request;
using tooluse::mcp::detail::request_reader;

// read feeds `text` to a new reader of `into`, in pieces of `step` bytes; the parser's error.
boost::beast::error_code read(http_request& into, const std::string& text, std::size_t step = 1 << 20) {
  request_reader reader(into);
  reader.eager(true);
  boost::beast::error_code ec;
  std::string pending;
  for (std::size_t at = 0; at < text.size() && !reader.is_done(); at += step) {
    pending += text.substr(at, step);
    auto used = reader.put(boost::asio::buffer(pending), ec);
    pending.erase(0, used);
    if (ec == http::error::need_more) ec = {};
    if (ec) return ec;
  }
  if (!reader.is_done()) return http::error::need_more;
  return ec;
}

// beast_read is the same text read by Beast's request_parser, for comparison.
http::request<http::string_body> beast_read(const std::string& text) {
  http::request_parser<http::string_body> p;
  p.eager(true);
  boost::beast::error_code ec;
  p.put(boost::asio::buffer(text), ec);
  EXPECT_FALSE(ec) << ec.message();
  return p.release();
}

void expect_same(const http_request& r, const http::request<http::string_body>& b) {
  EXPECT_EQ(r.method(), b.method());
  EXPECT_EQ(r.method_string(), std::string_view(b.method_string().data(), b.method_string().size()));
  EXPECT_EQ(r.target(), std::string_view(b.target().data(), b.target().size()));
  EXPECT_EQ(r.version(), b.version());
  EXPECT_EQ(r.keep_alive(), b.keep_alive());
  EXPECT_EQ(r.body(), b.body());
  // Beast's message moves a field next to the last one of its name: group ours the same way.
  std::vector<std::string> ours, theirs;
  std::vector<std::string> names;
  for (const auto& f : r) {
    std::size_t at = ours.size();
    for (std::size_t i = 0; i < names.size(); ++i)
      if (boost::beast::iequals(names[i], f.name_string())) at = i + 1;
    names.insert(names.begin() + static_cast<std::ptrdiff_t>(at), std::string(f.name_string()));
    ours.insert(ours.begin() + static_cast<std::ptrdiff_t>(at), std::string(f.name_string()) + ": " + std::string(f.value()));
  }
  for (const auto& f : b) theirs.push_back(std::string(f.name_string()) + ": " + std::string(f.value()));
  EXPECT_EQ(ours, theirs);
  EXPECT_EQ(r.field_count(), theirs.size());
  for (const auto& f : b) {
    const auto name = std::string(f.name_string());
    auto want = b[f.name_string()];
    EXPECT_EQ(r[name], std::string_view(want.data(), want.size())) << name;
    if (f.name() != http::field::unknown) {
      EXPECT_EQ(r[f.name()], std::string_view(want.data(), want.size()));
    }
  }
}

TEST(http_request, reads_as_beasts_message_reads) {
  const std::vector<std::string> requests = {
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:3000\r\nContent-Type: application/json\r\n"
      "Mcp-Method: tools/call\r\nmcp-name: calc\r\nContent-Length: 4\r\n\r\n{\"a\"",
      "GET /mcp?x=1 HTTP/1.0\r\nConnection: keep-alive\r\nAccept: text/event-stream\r\n\r\n",
      "GET / HTTP/1.0\r\n\r\n",
      "DELETE /mcp HTTP/1.1\r\nConnection: close\r\nMcp-Session-Id: abc\r\n\r\n",
      // two Connection fields: the first decides, as for Beast's message
      "GET / HTTP/1.1\r\nConnection: keep-alive\r\nConnection: close\r\n\r\n",
      "GET / HTTP/1.1\r\nConnection: Upgrade, close\r\n\r\n",
      // a method Beast does not know, repeated fields, an empty value
      "BREW /pot HTTP/1.1\r\nX-A: 1\r\nx-a: 2\r\nX-Empty:\r\nX-Pad:   spaced   \r\n\r\n",
      // a name repeated with another between (found by the fuzzer): the first still wins
      "POST /mcp HTTP/1.1\r\nHos|: 1\r\nContent-Type: a/b\r\nhos|: 2\r\nHost: h\r\nHOST: i\r\n\r\n",
      "POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\n",
  };
  for (const auto& text : requests) {
    SCOPED_TRACE(text);
    http_request r;
    ASSERT_FALSE(read(r, text));
    expect_same(r, beast_read(text));
    http_request bytes;  // byte by byte: every field and body piece split across puts
    ASSERT_FALSE(read(bytes, text, 1));
    expect_same(bytes, beast_read(text));
  }
}

TEST(http_request, the_next_request_leaves_nothing_of_the_last) {
  http_request r;
  ASSERT_FALSE(read(r, "POST /first/long/target HTTP/1.1\r\nX-Only-First: yes\r\nMcp-Session-Id: s1\r\n"
                       "Content-Length: 5\r\n\r\nhello"));
  EXPECT_EQ(r["mcp-session-id"], "s1");
  ASSERT_FALSE(read(r, "GET /b HTTP/1.1\r\nHost: h\r\n\r\n"));
  EXPECT_EQ(r.method(), http::verb::get);
  EXPECT_EQ(r.target(), "/b");
  EXPECT_EQ(r.body(), "");
  EXPECT_EQ(r.field_count(), 1u);
  EXPECT_EQ(r["X-Only-First"], "");
  EXPECT_EQ(r["Mcp-Session-Id"], "");
  EXPECT_EQ(r[http::field::host], "h");
  EXPECT_TRUE(r.keep_alive());
}

TEST(http_request, a_moved_request_keeps_its_fields) {
  http_request r;
  ASSERT_FALSE(read(r, "GET /t HTTP/1.1\r\nA: 1\r\n\r\n"));  // short: the text is in the string itself
  http_request moved = std::move(r);
  EXPECT_EQ(moved.target(), "/t");
  EXPECT_EQ(moved["a"], "1");
}

TEST(http_request, limits_are_the_parsers) {
  http_request r;
  request_reader reader(r);
  reader.body_limit(3);
  boost::beast::error_code ec;
  std::string text = "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789";
  reader.put(boost::asio::buffer(text), ec);
  EXPECT_EQ(ec, http::error::body_limit);
}

// read_plain_request takes a plain request that is all there, and reads it as the reader over
// Beast's parser does; anything else it leaves (0, the request cleared) for that reader.
TEST(http_request, a_plain_request_is_read_in_one_pass_as_beast_reads_it) {
  const std::string mcp_call =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n"
      "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
      "Mcp-Method: tools/call\r\nMcp-Name: calculator\r\nContent-Length: 13\r\n\r\n{\"jsonrpc\":1}";
  const std::vector<std::string> plain = {
      mcp_call,
      "GET /sse?x=1 HTTP/1.1\r\nHost: h\r\nLast-Event-ID: 7\r\n\r\n",
      "DELETE /mcp HTTP/1.1\r\nConnection: keep-alive\r\nMcp-Session-Id: abc\r\n\r\n",
      "POST / HTTP/1.1\r\nConnection: close, ,x-y\r\nContent-Length: 0\r\n\r\n",
      "POST / HTTP/1.1\r\nX-Empty:\r\nX-Spaces: \t a b \t\r\nContent-Length: 2\r\n\r\nhi",
      "GET / HTTP/1.1\r\n\r\n",
  };
  for (const auto& text : plain) {
    SCOPED_TRACE(text);
    http_request ours;
    ours.body() = "left over";
    // Another request behind it (pipelined) is not read.
    const std::string two = text + "GET /next HTTP/1.1\r\n\r\n";
    ASSERT_EQ(tooluse::mcp::detail::read_plain_request(two, ours, 8192, 65536), text.size());
    expect_same(ours, beast_read(text));
    http_request theirs;
    ASSERT_FALSE(read(theirs, text));
    ASSERT_EQ(ours.field_count(), theirs.field_count());
    for (auto a = ours.begin(), b = theirs.begin(); a != ours.end(); ++a, ++b) {
      EXPECT_EQ((*a).name(), (*b).name());
      EXPECT_EQ((*a).name_string(), (*b).name_string());
      EXPECT_EQ((*a).value(), (*b).value());
    }
  }
  const std::vector<std::pair<std::string, std::string>> left_to_beast = {
      {"chunked", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n"},
      {"a folded field", "GET / HTTP/1.1\r\nX-A: 1\r\n 2\r\n\r\n"},
      {"HTTP/1.0", "GET / HTTP/1.0\r\n\r\n"},
      {"an extension method", "BREW /pot HTTP/1.1\r\n\r\n"},
      {"the body not all here", "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab"},
      {"the head not all here", "POST / HTTP/1.1\r\nContent-Le"},
      {"a target byte past 0x7f", "GET /\xc3\xa9 HTTP/1.1\r\n\r\n"},
      {"a value byte past 0x7f", "GET / HTTP/1.1\r\nX-A: \xc3\xa9\r\n\r\n"},
      {"two lengths", "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\na"},
      {"a signed length", "POST / HTTP/1.1\r\nContent-Length: +1\r\n\r\na"},
      {"an upgrade", "GET / HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"},
      {"two tokens without a comma", "GET / HTTP/1.1\r\nConnection: keep alive\r\n\r\n"},
      {"bare LF", "GET / HTTP/1.1\nHost: h\n\n"},
      {"a space before the colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n"},
      {"an empty name", "GET / HTTP/1.1\r\n: h\r\n\r\n"},
      {"a body over the limit", "POST / HTTP/1.1\r\nContent-Length: 70000\r\n\r\n"},
      {"a head over the limit", "GET / HTTP/1.1\r\nX-Big: " + std::string(9000, 'a') + "\r\n\r\n"},
  };
  for (const auto& [what, text] : left_to_beast) {
    SCOPED_TRACE(what);
    http_request ours;
    ours.body() = "left over";
    EXPECT_EQ(tooluse::mcp::detail::read_plain_request(text, ours, 8192, 65536), 0u);
    EXPECT_EQ(ours.field_count(), 0u);  // cleared for Beast's reader
    EXPECT_TRUE(ours.target().empty());
    EXPECT_TRUE(ours.body().empty());
  }
}

}  // namespace http_request_test
