// sse_parser beyond the basic fields: the per-event size limit (and recovering from it), the
// retry value of one event block, event types reset after each event, CR at a chunk's end,
// empty data lines, and what finish() and reset() keep.
#include <gtest/gtest.h>

#include "tooluse/http/sse.hpp"

namespace tooluse::http {
namespace {

struct events {
  std::vector<sse_event> got;
  sse_parser::event_handler on() {
    return [this](const sse_event& e) { got.push_back(e); };
  }
};

TEST(sse_limits, an_event_past_max_event_bytes_fails_and_stays_failed) {
  sse_parser p({.max_event_bytes = 16});
  events e;
  ASSERT_TRUE(p.feed("data: short\n\n", e.on()));
  auto st = p.feed("data: 0123456789abcdef", e.on());
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, errc::limit_exceeded);
  EXPECT_NE(st.error().message.find("http::sse_limits::max_event_bytes"), std::string::npos)
      << st.error().message;
  // Later feeds keep failing, even with a small harmless event.
  EXPECT_FALSE(p.feed("\n\ndata: x\n\n", e.on()));
  ASSERT_EQ(e.got.size(), 1u);
  EXPECT_EQ(e.got[0].data, "short");
}

TEST(sse_limits, many_data_lines_count_together) {
  sse_parser p({.max_event_bytes = 20});
  events e;
  EXPECT_TRUE(p.feed("data: 12345\ndata: 12345\n", e.on()));
  EXPECT_FALSE(p.feed("data: 12345\ndata: 12345\n", e.on()));  // 24 bytes of data held
  EXPECT_TRUE(e.got.empty());
}

TEST(sse_limits, one_huge_chunk_without_a_newline_is_refused_at_once) {
  sse_parser p({.max_event_bytes = 1024});
  events e;
  std::string huge = "data: " + std::string(10 << 20, 'x');
  auto st = p.feed(huge, e.on());
  EXPECT_FALSE(st);
  EXPECT_TRUE(e.got.empty());
}

TEST(sse_limits, reset_failure_resumes_after_the_last_complete_event_keeping_its_id) {
  sse_parser p({.max_event_bytes = 32});
  events e;
  ASSERT_TRUE(p.feed("id: 41\nretry: 2500\ndata: ok\n\n", e.on()));
  EXPECT_FALSE(p.feed("data: " + std::string(100, 'z'), e.on()));
  p.reset_failure();
  EXPECT_EQ(p.last_event_id(), "41");
  EXPECT_EQ(p.retry(), std::optional<std::uint64_t>(2500));
  ASSERT_TRUE(p.feed("id: 42\ndata: again\n\n", e.on()));
  ASSERT_EQ(e.got.size(), 2u);
  EXPECT_EQ(e.got[1].data, "again");
  EXPECT_EQ(e.got[1].id, "42");
  p.reset();
  EXPECT_EQ(p.last_event_id(), "");
  EXPECT_FALSE(p.retry());
}

TEST(sse_fields, retry_belongs_to_its_block_and_the_type_resets_after_each_event) {
  sse_parser p;
  events e;
  ASSERT_TRUE(p.feed(
      "event: first\nretry: 100\ndata: a\n\ndata: b\n\nretry: 12x\nevent: lost\n\ndata: c\n\n",
      e.on()));
  ASSERT_EQ(e.got.size(), 3u);
  EXPECT_EQ(e.got[0].event, "first");
  EXPECT_EQ(e.got[0].retry, std::optional<std::uint64_t>(100));
  EXPECT_EQ(e.got[1].event, "message");
  EXPECT_FALSE(e.got[1].retry);
  // A block without data dispatches nothing and forgets its event type.
  EXPECT_EQ(e.got[2].event, "message");
  EXPECT_EQ(p.retry(), std::optional<std::uint64_t>(100));  // "12x" was ignored
}

TEST(sse_fields, a_retry_too_large_for_64_bits_saturates) {
  sse_parser p;
  events e;
  ASSERT_TRUE(p.feed("retry: 99999999999999999999999999\ndata: x\n\n", e.on()));
  EXPECT_EQ(p.retry(), std::optional<std::uint64_t>(UINT64_MAX));
}

TEST(sse_fields, empty_data_lines_make_empty_and_multi_line_data) {
  sse_parser p;
  events e;
  ASSERT_TRUE(p.feed("data\n\ndata:\ndata:\n\ndata:  two spaces\n\n", e.on()));
  ASSERT_EQ(e.got.size(), 3u);
  EXPECT_EQ(e.got[0].data, "");
  EXPECT_EQ(e.got[1].data, "\n");
  EXPECT_EQ(e.got[2].data, " two spaces");
}

TEST(sse_fields, an_empty_id_clears_the_last_event_id) {
  sse_parser p;
  events e;
  ASSERT_TRUE(p.feed("id: 7\ndata: a\n\nid\ndata: b\n\n", e.on()));
  ASSERT_EQ(e.got.size(), 2u);
  EXPECT_EQ(e.got[0].id, "7");
  EXPECT_EQ(e.got[1].id, "");
  EXPECT_EQ(p.last_event_id(), "");
}

TEST(sse_chunks, a_cr_at_the_end_of_a_chunk_ends_the_line_once) {
  sse_parser p;
  events e;
  ASSERT_TRUE(p.feed("data: a\r", e.on()));
  ASSERT_TRUE(p.feed("\n\r", e.on()));  // the LF completes the CRLF; the CR is the empty line
  ASSERT_EQ(e.got.size(), 1u);
  EXPECT_EQ(e.got[0].data, "a");
  ASSERT_TRUE(p.feed("data: b\r\r", e.on()));  // CR CR: a line, then an empty line
  ASSERT_EQ(e.got.size(), 2u);
  EXPECT_EQ(e.got[1].data, "b");
}

TEST(sse_chunks, a_bom_arriving_a_byte_at_a_time_is_skipped_and_a_second_bom_is_data) {
  sse_parser p;
  events e;
  for (char c : std::string("\xEF\xBB\xBF")) ASSERT_TRUE(p.feed(std::string(1, c), e.on()));
  ASSERT_TRUE(p.feed("data: \xEF\xBB\xBFx\n\n", e.on()));
  ASSERT_EQ(e.got.size(), 1u);
  EXPECT_EQ(e.got[0].data, "\xEF\xBB\xBFx");
  // A stream that starts like a BOM but is not one keeps its bytes.
  sse_parser q;
  events f;
  ASSERT_TRUE(q.feed("\xEF", f.on()));
  ASSERT_TRUE(q.feed("data: y\n\n", f.on()));
  EXPECT_TRUE(f.got.empty());  // the field name is "\xEF" "data": unknown, ignored
}

TEST(sse_chunks, finish_discards_the_partial_event_and_a_new_stream_starts_clean) {
  sse_parser p;
  events e;
  ASSERT_TRUE(p.feed("id: 5\nevent: x\ndata: partial", e.on()));
  p.finish();
  EXPECT_TRUE(e.got.empty());
  ASSERT_TRUE(
      p.feed("\xEF\xBB\xBF"
             "data: fresh\n\n",
             e.on()));
  ASSERT_EQ(e.got.size(), 1u);
  EXPECT_EQ(e.got[0].data, "fresh");
  EXPECT_EQ(e.got[0].event, "message");  // "x" did not survive
  EXPECT_EQ(e.got[0].id, "5");           // the id did
}

}  // namespace
}  // namespace tooluse::http
