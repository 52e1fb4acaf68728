// jsonrpc::parse classification beyond the basic cases: ids kept in errors when they can be
// read, params of both structured kinds, ids at the edges (0, negative, empty string, unsigned
// overflow), batches that mix kinds keep their order, the error for text that is only
// whitespace, documents over a size limit, and line_framer's finish and buffered bookkeeping.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tooluse/jsonrpc/framing.hpp"
#include "tooluse/jsonrpc/message.hpp"

namespace rpc = tooluse::jsonrpc;
using tooluse::json;

namespace {

const rpc::response& only_error(const rpc::parsed& p) {
  EXPECT_TRUE(p.messages.empty());
  EXPECT_EQ(p.errors.size(), 1u);
  return p.errors.at(0);
}

}  // namespace

TEST(jsonrpc_classify, errors_keep_the_id_when_it_was_readable) {
  auto wrong_version = rpc::parse(R"({"jsonrpc":"1.0","id":"abc","method":"x"})");
  const auto& e1 = only_error(wrong_version);
  ASSERT_TRUE(e1.id);
  EXPECT_EQ(std::get<std::string>(*e1.id), "abc");
  auto bad_method = rpc::parse(R"({"jsonrpc":"2.0","id":4,"method":[]})");
  const auto& e2 = only_error(bad_method);
  ASSERT_TRUE(e2.id);
  EXPECT_EQ(std::get<std::int64_t>(*e2.id), 4);
  EXPECT_NE(e2.error->message.find("method"), std::string::npos);
  auto bad_params = rpc::parse(R"({"jsonrpc":"2.0","id":5,"method":"m","params":"s"})");
  EXPECT_NE(only_error(bad_params).error->message.find("params"), std::string::npos);
  // An unreadable id cannot be echoed.
  auto bad_id = rpc::parse(R"({"jsonrpc":"2.0","id":true,"method":"m"})");
  EXPECT_FALSE(only_error(bad_id).id);
}

TEST(jsonrpc_classify, params_may_be_an_object_or_an_array_and_are_kept) {
  auto by_name = rpc::parse(R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,2]}})");
  ASSERT_EQ(by_name.messages.size(), 1u);
  EXPECT_EQ(std::get<rpc::request>(by_name.messages[0]).params, json::parse(R"({"a":[1,2]})"));
  auto by_position = rpc::parse(R"({"jsonrpc":"2.0","method":"n","params":[1,"x"]})");
  ASSERT_EQ(by_position.messages.size(), 1u);
  const auto& n = std::get<rpc::notification>(by_position.messages[0]);
  EXPECT_EQ(n.method, "n");
  EXPECT_EQ(n.params, json::parse(R"([1,"x"])"));
  auto absent = rpc::parse(R"({"jsonrpc":"2.0","method":"n"})");
  EXPECT_TRUE(std::get<rpc::notification>(absent.messages[0]).params.is_null());
  for (const char* p : {"null", "1", "true", "\"s\""}) {
    auto bad = rpc::parse(std::string(R"({"jsonrpc":"2.0","method":"n","params":)") + p + "}");
    EXPECT_EQ(only_error(bad).error->code, rpc::error_code::invalid_request) << p;
  }
}

TEST(jsonrpc_classify, ids_at_the_edges) {
  struct row {
    const char* id;
    bool ok;
  };
  for (auto [id, ok] : {row{"0", true}, row{"-1", true}, row{"-9223372036854775808", true}, row{"\"\"", true},
                        row{"\"9\"", true}, row{"18446744073709551615", false}, row{"1e3", false},
                        row{"[1]", false}, row{"{}", false}}) {
    auto p = rpc::parse(std::string(R"({"jsonrpc":"2.0","id":)") + id + R"(,"method":"m"})");
    EXPECT_EQ(p.messages.size(), ok ? 1u : 0u) << id;
    EXPECT_EQ(p.errors.size(), ok ? 0u : 1u) << id;
  }
  // A string id that looks like a number stays a string, and renders quoted.
  auto s = rpc::parse(R"({"jsonrpc":"2.0","id":"9","method":"m"})");
  const auto& id = std::get<rpc::request>(s.messages[0]).id;
  EXPECT_EQ(rpc::id_to_string(id), "\"9\"");
  EXPECT_EQ(rpc::id_to_json(id), json("9"));
  EXPECT_NE(rpc::id_to_string(id), rpc::id_to_string(rpc::message_id(std::int64_t{9})));
}

TEST(jsonrpc_classify, a_batch_keeps_the_order_of_its_messages) {
  auto p = rpc::parse(R"([{"jsonrpc":"2.0","method":"first"},
                          {"jsonrpc":"2.0","id":2,"result":1},
                          {"jsonrpc":"2.0","id":3,"method":"third"},
                          7,
                          {"jsonrpc":"2.0","id":5,"error":{"code":-1,"message":"m"}}])",
                      {.allow_batch = true});
  EXPECT_TRUE(p.batch);
  ASSERT_EQ(p.messages.size(), 4u);
  EXPECT_EQ(std::get<rpc::notification>(p.messages[0]).method, "first");
  EXPECT_EQ(std::get<rpc::response>(p.messages[1]).result, 1);
  EXPECT_EQ(std::get<rpc::request>(p.messages[2]).method, "third");
  EXPECT_EQ(std::get<rpc::response>(p.messages[3]).error->code, -1);
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_NE(p.errors[0].error->message.find("object"), std::string::npos);
}

TEST(jsonrpc_classify, empty_or_whitespace_text_is_a_parse_error) {
  for (const char* text : {"", "   ", "\n", "{", "{\"jsonrpc\":\"2.0\",}"}) {
    auto p = rpc::parse(text);
    EXPECT_EQ(only_error(p).error->code, rpc::error_code::parse_error) << '"' << text << '"';
    EXPECT_FALSE(p.errors[0].id);
  }
}

TEST(jsonrpc_classify, a_document_over_the_size_limit_is_an_invalid_request) {
  std::string big = R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"s":")" + std::string(500, 'x') + "\"}}";
  auto p = rpc::parse(big, {.limits = tooluse::json_limits{.max_bytes = 100}});
  const auto& e = only_error(p);
  EXPECT_EQ(e.error->code, rpc::error_code::invalid_request);
  EXPECT_NE(e.error->message.find("max_bytes"), std::string::npos) << e.error->message;
  EXPECT_EQ(rpc::parse(big).messages.size(), 1u);  // the default limits allow it
}

TEST(jsonrpc_classify, to_json_of_a_message_variant_matches_its_kind) {
  rpc::message m = rpc::request{rpc::message_id(std::int64_t{3}), "m", json::array({1})};
  EXPECT_EQ(rpc::to_json(m), json::parse(R"({"jsonrpc":"2.0","id":3,"method":"m","params":[1]})"));
  rpc::message e = rpc::response::failure(rpc::message_id(std::string("q")), -32000, "x");
  EXPECT_EQ(rpc::to_json(e)["error"], json::parse(R"({"code":-32000,"message":"x"})"));
  rpc::message r = rpc::response::success(rpc::message_id(std::int64_t{0}), json::array());
  EXPECT_EQ(rpc::to_json(r)["result"], json::array());
  std::string text = rpc::serialize(rpc::notification{"n", json{{"t", "a\nb"}}});
  EXPECT_EQ(text.find('\n'), std::string::npos);  // newlines inside strings are escaped
}

TEST(jsonrpc_framer_edges, finish_delivers_an_unterminated_last_line_without_cr) {
  rpc::line_framer f(100);
  std::vector<std::string> lines;
  auto on_line = [&](std::string_view l) { lines.emplace_back(l); };
  auto on_overflow = [&](std::string_view) { ADD_FAILURE() << "no overflow expected"; };
  f.feed("one\ntwo\r", on_line, on_overflow);
  EXPECT_EQ(f.buffered(), 4u);
  f.finish(on_line, on_overflow);
  EXPECT_EQ(lines, (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(f.buffered(), 0u);
  f.finish(on_line, on_overflow);  // nothing held: nothing delivered
  EXPECT_EQ(lines.size(), 2u);
  EXPECT_EQ(f.max_line_bytes(), 100u);
}

TEST(jsonrpc_framer_edges, empty_lines_are_delivered_as_empty) {
  rpc::line_framer f(10);
  std::vector<std::string> lines;
  f.feed("\n\r\nx\n", [&](std::string_view l) { lines.emplace_back(l); }, [](std::string_view) {});
  EXPECT_EQ(lines, (std::vector<std::string>{"", "", "x"}));
}

TEST(jsonrpc_framer_edges, a_line_growing_past_the_limit_over_several_feeds_overflows_once) {
  rpc::line_framer f(8);
  std::vector<std::string> lines, heads;
  auto on_line = [&](std::string_view l) { lines.emplace_back(l); };
  auto on_overflow = [&](std::string_view h) { heads.emplace_back(h); };
  f.feed("abcd", on_line, on_overflow);
  f.feed("efgh", on_line, on_overflow);  // exactly 8 held: still fine
  EXPECT_TRUE(heads.empty());
  f.feed("ij", on_line, on_overflow);  // 10: over
  ASSERT_EQ(heads.size(), 1u);
  EXPECT_EQ(heads[0], "abcdefghij");
  EXPECT_EQ(f.buffered(), 0u);
  f.feed("klmnop", on_line, on_overflow);  // still the same line: skipped silently
  f.feed("q\nok\n", on_line, on_overflow);
  EXPECT_EQ(heads.size(), 1u);
  EXPECT_EQ(lines, (std::vector<std::string>{"ok"}));
}
