// line_framer (bounded newline framing for stdio), peek_id (the id of a message too large to
// parse), and the parse edge cases of message.hpp: ids at the integer limits, error objects
// of the wrong shape, limits on documents and batches, and the exact wire JSON written.
#include <gtest/gtest.h>

#include "tooluse/jsonrpc/framing.hpp"
#include "tooluse/jsonrpc/message.hpp"

namespace rpc = tooluse::jsonrpc;
using tooluse::json;

namespace {

struct collected {
  std::vector<std::string> lines, heads;
  rpc::line_framer::line_handler on_line() {
    return [this](std::string_view l) { lines.emplace_back(l); };
  }
  rpc::line_framer::overflow_handler on_overflow() {
    return [this](std::string_view h) { heads.emplace_back(h); };
  }
};

TEST(line_framer, splits_lf_and_crlf_lines_across_any_chunking) {
  const std::string stream = "{\"a\":1}\r\n\n{\"b\":2}\nlast\r";
  for (std::size_t step = 1; step <= stream.size(); ++step) {
    rpc::line_framer f(64);
    collected c;
    for (std::size_t i = 0; i < stream.size(); i += step)
      f.feed(std::string_view(stream).substr(i, step), c.on_line(), c.on_overflow());
    EXPECT_EQ(c.lines, (std::vector<std::string>{"{\"a\":1}", "", "{\"b\":2}"})) << "step " << step;
    EXPECT_EQ(f.buffered(), 5u) << "step " << step;  // "last\r" waits for its newline
    f.finish(c.on_line(), c.on_overflow());
    EXPECT_EQ(c.lines.back(), "last") << "step " << step;  // a trailing CR is dropped
    EXPECT_TRUE(c.heads.empty());
    EXPECT_EQ(f.buffered(), 0u);
  }
}

TEST(line_framer, an_overlong_line_is_reported_once_and_skipped_without_being_stored) {
  rpc::line_framer f(8);
  collected c;
  f.feed("ok\n12345", c.on_line(), c.on_overflow());
  f.feed("6789", c.on_line(), c.on_overflow());  // passes 8: reported now
  EXPECT_EQ(c.heads, std::vector<std::string>{"123456789"});
  EXPECT_EQ(f.buffered(), 0u);
  f.feed(std::string(10000, 'x'), c.on_line(), c.on_overflow());  // still the same line
  EXPECT_EQ(f.buffered(), 0u);
  f.feed("yyy\nnext\n", c.on_line(), c.on_overflow());
  EXPECT_EQ(c.lines, (std::vector<std::string>{"ok", "next"}));
  EXPECT_EQ(c.heads.size(), 1u);
  EXPECT_EQ(f.max_line_bytes(), 8u);
}

TEST(line_framer, a_line_of_exactly_the_limit_passes_and_the_head_is_capped_at_4_kib) {
  rpc::line_framer f(8);
  collected c;
  f.feed("12345678\n", c.on_line(), c.on_overflow());
  EXPECT_EQ(c.lines, std::vector<std::string>{"12345678"});
  rpc::line_framer big(5000);
  big.feed(std::string(4999, 'a'), c.on_line(), c.on_overflow());
  big.feed("bb\n", c.on_line(), c.on_overflow());
  ASSERT_EQ(c.heads.size(), 1u);
  EXPECT_EQ(c.heads[0], std::string(4096, 'a'));
}

TEST(line_framer, finish_ends_a_skip_so_the_next_stream_starts_clean) {
  rpc::line_framer f(4);
  collected c;
  f.feed("toolong", c.on_line(), c.on_overflow());
  f.finish(c.on_line(), c.on_overflow());
  EXPECT_TRUE(c.lines.empty());
  f.feed("ab\n", c.on_line(), c.on_overflow());
  EXPECT_EQ(c.lines, std::vector<std::string>{"ab"});
}

TEST(peek_id, finds_the_top_level_id_in_a_prefix) {
  struct row {
    const char* head;
    json want;  // null: no id
  };
  for (const auto& [head, want] : std::vector<row>{
           {R"({"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"arguments":"xxxx)", 42},
           {R"(  {"id" : "req-7" , "method":"x")", "req-7"},
           {R"({"id":-3})", -3},
           {R"({"method":"x","params":{"id":1,"nested":[{"id":2}]},"id":9,"more":")", 9},
           {R"({"params":{"id":1},"x":"y)", nullptr},  // only a nested id so far
           {R"({"method":"id","id":"a\"b","x":1})", "a\"b"},
           {R"({"id":1.5,"method":"x"})", nullptr},
           {R"({"id":null})", nullptr},
           {R"({"id":{"a":1}})", nullptr},
           {R"({"id":12)", nullptr},           // cut inside the value
           {R"({"id":"abc)", nullptr},         // cut inside a string value
           {R"({"x":"a, \"id\":3)", nullptr},  // "id" inside a string is not a key
           {R"([{"id":1}])", nullptr},
           {"", nullptr},
           {"garbage", nullptr}}) {
    auto id = rpc::peek_id(head);
    if (want.is_null())
      EXPECT_FALSE(id) << head << " -> " << id->dump();
    else
      EXPECT_EQ(id, std::optional<json>(want)) << head;
  }
}

TEST(jsonrpc_ids, integer_limits_and_rendering) {
  auto p = rpc::parse(R"({"jsonrpc":"2.0","id":9223372036854775807,"method":"m"})");
  ASSERT_EQ(p.messages.size(), 1u);
  EXPECT_EQ(std::get<std::int64_t>(std::get<rpc::request>(p.messages[0]).id), INT64_MAX);
  auto too_big = rpc::parse(R"({"jsonrpc":"2.0","id":9223372036854775808,"method":"m"})");
  ASSERT_EQ(too_big.errors.size(), 1u);
  EXPECT_EQ(too_big.errors[0].error->message,
            R"(Invalid Request: "id" must be a string or an integer)");
  EXPECT_FALSE(too_big.errors[0].id);
  EXPECT_EQ(rpc::id_to_string(rpc::message_id(std::int64_t{-5})), "-5");
  EXPECT_EQ(rpc::id_to_string(rpc::message_id(std::string("x"))), "\"x\"");
  EXPECT_FALSE(rpc::id_from_json(json(true)));
  EXPECT_FALSE(rpc::id_from_json(json::array()));
}

TEST(jsonrpc_parse_edges, error_objects_of_the_wrong_shape_never_throw) {
  struct row {
    const char* text;
    const char* want;  // "" : parses as an error response
  };
  for (
      auto [text, want] : {
          row{R"({"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":5}})", ""},
          row{R"({"jsonrpc":"2.0","id":1,"error":{"code":-1}})", ""},
          row{R"({"jsonrpc":"2.0","id":1,"error":{"code":"-1","message":"x"}})",
              R"(Invalid Request: "error" must be an object with an integer "code")"},
          row{R"({"jsonrpc":"2.0","id":1,"error":"boom"})",
              R"(Invalid Request: "error" must be an object with an integer "code")"},
          row{R"({"jsonrpc":"2.0","id":1,"error":{"code":99999999999,"message":"x"}})",
              R"(Invalid Request: "error" must be an object with an integer "code")"},
          row{R"({"jsonrpc":"2.0","result":{}})", "Invalid Request: a result response needs an id"},
          row{R"({"jsonrpc":"2.0","id":1})",
              R"(Invalid Request: a message needs "method", or exactly one of "result" and "error")"},
          row{R"({"jsonrpc":2,"id":1,"method":"x"})",
              R"(Invalid Request: "jsonrpc" must be "2.0")"},
          row{R"({"id":1,"method":"x"})", R"(Invalid Request: "jsonrpc" must be "2.0")"},
      }) {
    rpc::parsed p;
    ASSERT_NO_THROW(p = rpc::parse(text)) << text;
    if (*want == '\0') {
      ASSERT_EQ(p.messages.size(), 1u) << text;
      const auto& r = std::get<rpc::response>(p.messages[0]);
      ASSERT_TRUE(r.error) << text;
      EXPECT_EQ(r.error->code, -1) << text;
      EXPECT_EQ(r.error->message, "") << text;
    } else {
      ASSERT_EQ(p.errors.size(), 1u) << text;
      EXPECT_EQ(p.errors[0].error->message, want) << text;
    }
  }
}

TEST(jsonrpc_parse_edges, an_error_response_may_have_a_null_id) {
  auto p =
      rpc::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})");
  ASSERT_EQ(p.messages.size(), 1u);
  const auto& r = std::get<rpc::response>(p.messages[0]);
  EXPECT_FALSE(r.id);
  EXPECT_EQ(rpc::serialize(r),
            R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})");
}

TEST(jsonrpc_parse_edges, documents_and_batches_over_their_limits_name_the_limit) {
  auto deep = rpc::parse(std::string(50, '[') + std::string(50, ']'),
                         {.allow_batch = true, .limits = tooluse::json_limits{.max_depth = 10}});
  ASSERT_EQ(deep.errors.size(), 1u);
  EXPECT_EQ(deep.errors[0].error->code, rpc::error_code::invalid_request);
  EXPECT_NE(deep.errors[0].error->message.find("max_depth"), std::string::npos)
      << deep.errors[0].error->message;

  std::string batch = "[";
  for (int i = 0; i < 4; ++i)
    batch += std::string(i ? "," : "") + R"({"jsonrpc":"2.0","method":"n"})";
  batch += "]";
  auto over = rpc::parse(batch, {.allow_batch = true, .max_batch = 3});
  ASSERT_EQ(over.errors.size(), 1u);
  EXPECT_TRUE(over.messages.empty());
  EXPECT_NE(over.errors[0].error->message.find("jsonrpc::parse_options::max_batch"),
            std::string::npos)
      << over.errors[0].error->message;
  EXPECT_EQ(rpc::parse(batch, {.allow_batch = true, .max_batch = 4}).messages.size(), 4u);
  auto refused = rpc::parse(batch);
  EXPECT_EQ(refused.errors.at(0).error->message,
            "Invalid Request: batches are not supported by this protocol version");
}

TEST(jsonrpc_wire, exact_json_for_each_kind) {
  EXPECT_EQ(rpc::serialize(rpc::request{rpc::message_id(std::int64_t{1}), "tools/list", nullptr}),
            R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  EXPECT_EQ(rpc::serialize(rpc::notification{"notifications/progress", json{{"progress", 1}}}),
            R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}})");
  // A null result is sent as {} (a result member must be present).
  EXPECT_EQ(rpc::serialize(rpc::response::success(rpc::message_id(std::string("a")), nullptr)),
            R"({"jsonrpc":"2.0","id":"a","result":{}})");
  EXPECT_EQ(
      rpc::serialize(rpc::response::failure(rpc::message_id(std::int64_t{2}),
                                            rpc::error_code::invalid_params, "bad",
                                            json{{"field", "x"}})),
      R"({"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad","data":{"field":"x"}}})");
}

}  // namespace
