#include "tooluse/jsonrpc/message.hpp"

#include <gtest/gtest.h>

namespace rpc = tooluse::jsonrpc;
using tooluse::json;

TEST(jsonrpc_parse, reads_request_with_integer_id) {
  auto p = rpc::parse(R"({"jsonrpc":"2.0","id":7,"method":"ping"})");
  ASSERT_TRUE(p.errors.empty());
  ASSERT_EQ(p.messages.size(), 1u);
  const auto& r = std::get<rpc::request>(p.messages[0]);
  EXPECT_EQ(std::get<std::int64_t>(r.id), 7);
  EXPECT_EQ(r.method, "ping");
  EXPECT_TRUE(r.params.is_null());
}

TEST(jsonrpc_parse, reads_notification_and_string_id) {
  auto n = rpc::parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  ASSERT_EQ(n.messages.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<rpc::notification>(n.messages[0]));
  auto r = rpc::parse(R"({"jsonrpc":"2.0","id":"a-1","method":"x","params":{"k":1}})");
  EXPECT_EQ(std::get<std::string>(std::get<rpc::request>(r.messages[0]).id), "a-1");
}

TEST(jsonrpc_parse, invalid_json_is_parse_error_with_null_id) {
  auto p = rpc::parse("{not json");
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_EQ(p.errors[0].error->code, rpc::error_code::parse_error);
  EXPECT_FALSE(p.errors[0].id.has_value());
  EXPECT_EQ(rpc::to_json(p.errors[0])["id"], nullptr);
}

TEST(jsonrpc_parse, wrong_version_is_invalid_request_keeping_id) {
  auto p = rpc::parse(R"({"jsonrpc":"1.0","id":3,"method":"x"})");
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_EQ(p.errors[0].error->code, rpc::error_code::invalid_request);
  EXPECT_EQ(std::get<std::int64_t>(*p.errors[0].id), 3);
}

TEST(jsonrpc_parse, rejects_bad_ids_methods_and_params) {
  for (const char* text : {R"({"jsonrpc":"2.0","id":1.5,"method":"x"})", R"({"jsonrpc":"2.0","id":{},"method":"x"})",
                           R"({"jsonrpc":"2.0","id":1,"method":5})", R"({"jsonrpc":"2.0","id":1,"method":"x","params":3})",
                           R"({"jsonrpc":"2.0","id":null,"method":"x"})", R"([1])", R"("str")",
                           R"({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1}})"}) {
    auto p = rpc::parse(text, {.allow_batch = true});
    ASSERT_EQ(p.errors.size(), 1u) << text;
    EXPECT_EQ(p.errors[0].error->code, rpc::error_code::invalid_request) << text;
  }
}

TEST(jsonrpc_parse, batches_only_when_allowed) {
  const char* batch = R"([{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},{"bad":1}])";
  auto no = rpc::parse(batch);
  EXPECT_TRUE(no.batch);
  ASSERT_EQ(no.errors.size(), 1u);
  EXPECT_TRUE(no.messages.empty());
  auto yes = rpc::parse(batch, {.allow_batch = true});
  EXPECT_EQ(yes.messages.size(), 2u);
  EXPECT_EQ(yes.errors.size(), 1u);
  EXPECT_EQ(rpc::parse("[]", {.allow_batch = true}).errors.size(), 1u);
}

TEST(jsonrpc_parse, reads_responses) {
  auto ok = rpc::parse(R"({"jsonrpc":"2.0","id":2,"result":{"x":1}})");
  const auto& r = std::get<rpc::response>(ok.messages[0]);
  EXPECT_FALSE(r.error);
  EXPECT_EQ(r.result["x"], 1);
  auto bad = rpc::parse(R"({"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"nope","data":[1]}})");
  const auto& e = std::get<rpc::response>(bad.messages[0]);
  ASSERT_TRUE(e.error);
  EXPECT_EQ(e.error->code, -32601);
  EXPECT_EQ(e.error->data, json::array({1}));
}

TEST(jsonrpc_serialize, round_trips_every_kind) {
  rpc::message msgs[] = {rpc::request{rpc::message_id(std::int64_t{1}), "m", json{{"a", 1}}},
                         rpc::notification{"n", nullptr},
                         rpc::response::success(rpc::message_id(std::string("x")), json{{"ok", true}}),
                         rpc::response::failure(std::nullopt, -32700, "Parse error")};
  for (const auto& m : msgs) {
    std::string text = rpc::serialize(m);
    EXPECT_EQ(text.find('\n'), std::string::npos);
    auto back = rpc::parse(text);
    ASSERT_EQ(back.messages.size() + back.errors.size(), 1u) << text;
    if (!back.messages.empty()) {
      EXPECT_EQ(rpc::to_json(back.messages[0]), rpc::to_json(m));
    }
  }
}
