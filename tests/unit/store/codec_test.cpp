// The journal's JSON codec: a message, call or usage written to the journal comes back exactly
// (images, reasoning, provider extras, unparsable arguments included), and a damaged record is
// an error naming what is wrong rather than a silently different conversation.
#include "store/codec.hpp"

#include <gtest/gtest.h>

namespace tooluse::testing {
namespace {

// The journal writes llm's one form (tooluse/llm/message_codec.hpp).
using store::detail::journal_message_from;
const auto call_from_json = llm::decode_tool_call;
const auto call_to_json = llm::encode_tool_call;
const auto journal_message = llm::encode_message;
const auto usage_from_json = llm::decode_usage;
const auto usage_json = llm::encode_usage;

void expect_same_call(const tool_call& a, const tool_call& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.raw_arguments, b.raw_arguments);
  EXPECT_EQ(a.arguments, b.arguments);
  EXPECT_EQ(a.extras, b.extras);
}

TEST(store_codec, a_call_round_trips_with_its_raw_text_and_extras) {
  auto c = tool_call::from_text("c1", "add", R"({"a": 1, "b": [2, 3]})");
  c.extras = {{"thoughtSignature", "sig=="}};
  json j = call_to_json(c);
  EXPECT_EQ(j["raw_arguments"], R"({"a": 1, "b": [2, 3]})");
  EXPECT_EQ(j["extras"]["thoughtSignature"], "sig==");
  expect_same_call(call_from_json(j), c);
}

TEST(store_codec, a_call_whose_arguments_did_not_parse_keeps_null_arguments) {
  auto c = tool_call::from_text("c2", "add", R"({"a": 1,)");
  ASSERT_TRUE(c.arguments.is_null());
  json j = call_to_json(c);
  EXPECT_FALSE(j.contains("extras"));  // empty extras are not written
  auto back = call_from_json(json::parse(j.dump()));
  EXPECT_TRUE(back.arguments.is_null());
  EXPECT_EQ(back.raw_arguments, R"({"a": 1,)");
}

TEST(store_codec, a_call_record_with_missing_fields_reads_as_empty_ones) {
  auto c = call_from_json({{"name", "x"}, {"extras", "not an object"}});
  EXPECT_EQ(c.id, "");
  EXPECT_EQ(c.name, "x");
  EXPECT_EQ(c.raw_arguments, "");
  EXPECT_EQ(c.arguments, json::object());
  EXPECT_EQ(c.extras, json::object());
}

TEST(store_codec, an_assistant_message_round_trips_with_calls_reasoning_and_extras) {
  llm::message m;
  m.role = llm::role::assistant;
  m.content = {llm::content_part::text_part("let me look"),
               {.type = llm::content_part::kind::image, .data = "iVBORw0=", .mime_type = "image/png"},
               {.type = llm::content_part::kind::image, .url = "https://example.com/a.jpg"}};
  m.tool_calls = {tool_call::from_text("a", "search", R"({"q":"x"})"),
                  tool_call::from_text("b", "fetch", "")};
  m.reasoning = "thinking...";
  m.extras = {{"signature", "abc"}};
  auto back = journal_message_from(json::parse(journal_message(m).dump()));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->role, llm::role::assistant);
  EXPECT_EQ(back->content, m.content);
  ASSERT_EQ(back->tool_calls.size(), 2u);
  expect_same_call(back->tool_calls[0], m.tool_calls[0]);
  expect_same_call(back->tool_calls[1], m.tool_calls[1]);
  EXPECT_EQ(back->reasoning, "thinking...");
  EXPECT_EQ(back->extras, m.extras);
  EXPECT_FALSE(back->is_error);
}

TEST(store_codec, a_tool_error_message_keeps_its_call_id_name_and_error_flag) {
  auto call = tool_call::from_text("c7", "rm", "{}");
  auto m = llm::message::tool_result(call, tool_result::error("no such file"));
  json j = journal_message(m);
  EXPECT_EQ(j["role"], "tool");
  EXPECT_EQ(j["is_error"], true);
  auto back = journal_message_from(j);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->role, llm::role::tool);
  EXPECT_EQ(back->tool_call_id, "c7");
  EXPECT_EQ(back->tool_name, "rm");
  EXPECT_TRUE(back->is_error);
  EXPECT_EQ(back->text(), m.text());
}

TEST(store_codec, a_plain_message_writes_only_the_fields_it_has) {
  json j = journal_message(llm::message::user("hi"));
  EXPECT_EQ(j, json::parse(R"({"role":"user","content":[{"type":"text","text":"hi"}]})"));
  for (auto role : {llm::role::system, llm::role::user, llm::role::assistant, llm::role::tool}) {
    llm::message m;
    m.role = role;
    auto back = journal_message_from(journal_message(m));
    ASSERT_TRUE(back) << to_string(role);
    EXPECT_EQ(back->role, role);
    EXPECT_TRUE(back->content.empty());
  }
}

TEST(store_codec, a_record_without_a_role_is_a_parse_error) {
  for (const json& bad : {json::parse("[]"), json::parse(R"({"content":[]})"),
                          json::parse(R"({"role":3})")}) {
    auto m = journal_message_from(bad);
    ASSERT_FALSE(m) << bad.dump();
    EXPECT_EQ(m.error().code, errc::parse_error);
    EXPECT_EQ(m.error().message, "store: a journaled message has no role");
  }
}

TEST(store_codec, an_unknown_role_is_a_parse_error_naming_it) {
  auto m = journal_message_from({{"role", "developer"}});
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, errc::parse_error);
  EXPECT_EQ(m.error().message, "store: a journaled message has the unknown role \"developer\"");
}

TEST(store_codec, usage_round_trips_every_counter) {
  llm::usage u;
  u.input_tokens = 1234567890123;
  u.output_tokens = 42;
  u.cache_read_tokens = 7;
  u.cache_write_tokens = 9;
  u.cost = 0.125;
  u.requests = 3;
  auto back = usage_from_json(json::parse(usage_json(u).dump()));
  EXPECT_EQ(back.input_tokens, 1234567890123);
  EXPECT_EQ(back.output_tokens, 42);
  EXPECT_EQ(back.cache_read_tokens, 7);
  EXPECT_EQ(back.cache_write_tokens, 9);
  EXPECT_DOUBLE_EQ(back.cost, 0.125);
  EXPECT_EQ(back.requests, 3);
}

TEST(store_codec, a_journal_row_written_before_the_shared_codec_reads_the_same) {
  // A model_response row as the journal wrote it before: its own hand-written form.
  json row = json::parse(R"({"message":{"role":"assistant",
      "content":[{"type":"text","text":"look"},
                 {"type":"image","data":"QUJD","mime_type":"image/png","url":""}],
      "tool_calls":[{"id":"c1","name":"add","raw_arguments":"{\"a\":1}","arguments":{"a":1},
                     "extras":{"thoughtSignature":"s="}},
                    {"id":"c2","name":"add","raw_arguments":"{\"a\":","arguments":null}],
      "reasoning":"r","extras":{"k":1}},
    "usage":{"input_tokens":5,"output_tokens":2,"cache_read_tokens":1,"cache_write_tokens":0,
             "cost":0.5,"requests":1}})");
  auto m = journal_message_from(row["message"]);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->text(), "look");
  ASSERT_EQ(m->content.size(), 2u);
  EXPECT_EQ(m->content[1].data, "QUJD");
  ASSERT_EQ(m->tool_calls.size(), 2u);
  EXPECT_EQ(m->tool_calls[0].arguments, json({{"a", 1}}));
  EXPECT_EQ(m->tool_calls[0].raw_arguments, R"({"a":1})");
  EXPECT_EQ(m->tool_calls[0].extras["thoughtSignature"], "s=");
  EXPECT_TRUE(m->tool_calls[1].arguments.is_null());
  EXPECT_EQ(m->tool_calls[1].raw_arguments, R"({"a":)");
  EXPECT_EQ(m->reasoning, "r");
  // Written again, it is the same row.
  EXPECT_EQ(journal_message(*m), row["message"]);
  auto u = usage_from_json(row["usage"]);
  EXPECT_EQ(u.input_tokens, 5);
  EXPECT_EQ(u.cache_read_tokens, 1);
  EXPECT_EQ(usage_json(u), row["usage"]);
}

TEST(store_codec, a_call_in_the_trace_form_reads_its_arguments_from_their_text) {
  auto c = call_from_json(json::parse(R"({"id":"c","name":"t","arguments":"{\"x\":1}"})"));
  EXPECT_EQ(c.raw_arguments, R"({"x":1})");
  EXPECT_EQ(c.arguments, json({{"x", 1}}));
}

TEST(store_codec, usage_from_anything_but_an_object_is_zero) {
  for (const json& j : {json(), json::array(), json("x"), json::object()}) {
    auto u = usage_from_json(j);
    EXPECT_EQ(u.input_tokens, 0) << j.dump();
    EXPECT_EQ(u.output_tokens, 0);
    EXPECT_EQ(u.requests, 0);
    EXPECT_DOUBLE_EQ(u.cost, 0.0);
  }
}

}  // namespace
}  // namespace tooluse::testing
