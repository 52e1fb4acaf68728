#include "tooluse/http/sse.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tooluse::http {
namespace {

std::vector<sse_event> parse_all(std::string_view text, size_t chunk = 0) {
  std::vector<sse_event> out;
  sse_parser p;
  auto on = [&](const sse_event& e) { out.push_back(e); };
  if (chunk == 0) {
    p.feed(text, on);
  } else {
    for (size_t i = 0; i < text.size(); i += chunk) p.feed(text.substr(i, chunk), on);
  }
  p.finish();
  return out;
}

TEST(sse_parser, parses_data_event_and_id_fields) {
  auto ev = parse_all("event: add\ndata: 73857293\nid: 7\n\n");
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].event, "add");
  EXPECT_EQ(ev[0].data, "73857293");
  EXPECT_EQ(ev[0].id, "7");
}

TEST(sse_parser, joins_data_lines_with_newlines) {
  auto ev = parse_all("data: YHOO\ndata: +2\ndata: 10\n\n");
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].data, "YHOO\n+2\n10");
  EXPECT_EQ(ev[0].event, "message");
}

TEST(sse_parser, handles_crlf_cr_and_lf_line_endings) {
  auto ev = parse_all("data: a\r\n\r\ndata: b\r\rdata: c\n\n");
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].data, "a");
  EXPECT_EQ(ev[1].data, "b");
  EXPECT_EQ(ev[2].data, "c");
}

TEST(sse_parser, same_events_whatever_the_chunk_boundaries) {
  std::string text = "\xEF\xBB\xBF" "event: x\r\ndata: one\r\n\r\n: comment\r\ndata: two\r\n\r\n";
  auto whole = parse_all(text);
  ASSERT_EQ(whole.size(), 2u);
  for (size_t chunk = 1; chunk < 8; ++chunk) EXPECT_EQ(parse_all(text, chunk), whole) << chunk;
}

TEST(sse_parser, skips_a_leading_bom_only) {
  auto ev = parse_all("\xEF\xBB\xBF" "data: x\n\n");
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].data, "x");
  // A second BOM is part of the field name, which is then unknown and ignored.
  EXPECT_TRUE(parse_all("\xEF\xBB\xBF\xEF\xBB\xBF" "data: x\n\n").empty());
}

TEST(sse_parser, ignores_comments_and_unknown_fields) {
  auto ev = parse_all(": ping\nfoo: bar\ndata: x\n\n");
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].data, "x");
}

TEST(sse_parser, removes_only_one_leading_space) {
  auto ev = parse_all("data:no space\n\ndata:  two\n\n");
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].data, "no space");
  EXPECT_EQ(ev[1].data, " two");
}

TEST(sse_parser, field_without_colon_has_empty_value) {
  auto ev = parse_all("data\n\ndata\ndata\n\n");
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].data, "");
  EXPECT_EQ(ev[1].data, "\n");
}

TEST(sse_parser, empty_data_buffer_dispatches_nothing_but_keeps_the_id) {
  sse_parser p;
  std::vector<sse_event> out;
  p.feed("id: s7-0\ndata:\n\n", [&](const sse_event& e) { out.push_back(e); });
  ASSERT_EQ(out.size(), 1u);  // "data:" makes the buffer "\n", so an empty event is dispatched
  EXPECT_EQ(out[0].data, "");
  out.clear();
  p.feed("id: s7-1\nevent: x\n\n", [&](const sse_event& e) { out.push_back(e); });
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(p.last_event_id(), "s7-1");
}

TEST(sse_parser, id_with_nul_is_ignored_and_id_persists) {
  using namespace std::string_literals;
  auto ev = parse_all("id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n"s);
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].id, "1");
  EXPECT_EQ(ev[1].id, "1");
}

TEST(sse_parser, retry_accepts_only_digits) {
  sse_parser p;
  std::vector<sse_event> out;
  auto on = [&](const sse_event& e) { out.push_back(e); };
  p.feed("retry: 1500\ndata: a\n\n", on);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].retry, 1500u);
  p.feed("retry: 15x\nretry: -1\nretry:\ndata: b\n\n", on);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_FALSE(out[1].retry.has_value());
  EXPECT_EQ(p.retry(), 1500u);
}

TEST(sse_parser, unterminated_event_at_end_of_stream_is_discarded) {
  EXPECT_TRUE(parse_all("data: partial\n").empty());
  EXPECT_TRUE(parse_all("data: partial").empty());
}

TEST(sse_parser, openai_done_sentinel_is_plain_data) {
  auto ev = parse_all("data: {\"a\":1}\n\ndata: [DONE]\n\n");
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[1].data, "[DONE]");
}

}  // namespace
}  // namespace tooluse::http
