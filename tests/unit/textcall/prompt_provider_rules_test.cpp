// prompt_provider's rewriting rules beyond prompt_provider_test.cpp: the tool choice and the
// parallel flag in the prompt, a prompt without a system message, error results, assistant
// text kept before replayed calls, call ids unique across replies, the inner provider's finish
// reason, reasoning and errors passed through.
#include <gtest/gtest.h>

#include "tooluse/textcall/prompt_provider.hpp"

namespace tooluse::textcall {
namespace {

class canned_provider : public llm::provider {
 public:
  result<llm::chat_response> complete(const llm::chat_request& req, const llm::stream_callbacks&,
                                      std::stop_token) override {
    last = req;
    if (failure) return fail(*failure);
    return response;
  }
  std::string name() const override { return "canned"; }
  llm::chat_request last;
  llm::chat_response response;
  std::optional<error> failure;
};

llm::chat_request request(std::vector<llm::message> messages) {
  llm::chat_request req;
  req.tools = {{.name = "get_time", .description = "Time in a zone"}};
  req.messages = std::move(messages);
  return req;
}

llm::message tool_message(std::string name, std::string text, bool is_error) {
  llm::message t;
  t.role = llm::role::tool;
  t.tool_call_id = "x";
  t.tool_name = std::move(name);
  t.is_error = is_error;
  t.content = {llm::content_part::text_part(std::move(text))};
  return t;
}

TEST(prompt_provider_rules, the_tool_choice_is_written_after_the_tools_block) {
  auto inner = std::make_shared<canned_provider>();
  prompt_provider p(inner, {.text_format = format::json});
  auto req = request({llm::message::user("time?")});
  std::string block = render_tools(format::json, req.tools);

  req.choice = llm::tool_choice::parse("required");
  auto out = p.to_text_request(req);
  ASSERT_EQ(out.messages.size(), 2u);  // no system message: one is put first
  EXPECT_EQ(out.messages[0].role, llm::role::system);
  EXPECT_EQ(out.messages[0].text(), block + "\nYou must call at least one function now.");
  EXPECT_EQ(out.messages[1].text(), "time?");

  req.choice = llm::tool_choice::parse("get_time");
  EXPECT_EQ(p.to_text_request(req).messages[0].text(),
            block + "\nYou must call the function get_time now.");

  req.choice = llm::tool_choice::parse("auto");
  EXPECT_EQ(p.to_text_request(req).messages[0].text(), block);
}

TEST(prompt_provider_rules, choice_none_or_no_tools_leaves_the_prompt_alone) {
  auto inner = std::make_shared<canned_provider>();
  prompt_provider p(inner);
  auto req = request({llm::message::system("Be brief."), llm::message::user("hi")});
  req.choice = llm::tool_choice::parse("none");
  req.strict = true;
  req.parallel_tool_calls = false;
  auto out = p.to_text_request(req);
  ASSERT_EQ(out.messages.size(), 2u);
  EXPECT_EQ(out.messages[0].text(), "Be brief.");
  EXPECT_TRUE(out.tools.empty());
  EXPECT_EQ(out.choice, llm::tool_choice{});
  EXPECT_FALSE(out.parallel_tool_calls.has_value());
  EXPECT_FALSE(out.strict);

  auto no_tools = request({llm::message::user("hi")});
  no_tools.tools.clear();
  auto plain = p.to_text_request(no_tools);
  ASSERT_EQ(plain.messages.size(), 1u);
  EXPECT_EQ(plain.messages[0].role, llm::role::user);
}

TEST(prompt_provider_rules, parallel_false_asks_for_one_call_per_reply) {
  auto inner = std::make_shared<canned_provider>();
  prompt_provider p(inner, {.text_format = format::hermes});
  auto req = request({llm::message::system("S"), llm::message::user("q")});
  req.parallel_tool_calls = false;
  std::string system = p.to_text_request(req).messages[0].text();
  EXPECT_EQ(system.rfind("S\n\n# Tools", 0), 0u) << system;
  EXPECT_NE(system.find("Call at most one function per reply."), std::string::npos);
}

TEST(prompt_provider_rules, error_results_are_marked_and_assistant_text_is_kept_before_calls) {
  auto inner = std::make_shared<canned_provider>();
  prompt_provider p(inner, {.text_format = format::harmony});
  llm::message a = llm::message::assistant("Checking both.");
  a.tool_calls = {tool_call::from_text("x", "get_time", R"({"tz":"CET"})")};
  a.reasoning = "need the time";
  auto req = request({llm::message::user("q"), a, tool_message("get_time", "no such zone", true),
                      llm::message::user("try UTC")});
  auto out = p.to_text_request(req);
  ASSERT_EQ(out.messages.size(), 5u);
  EXPECT_EQ(out.messages[2].text(),
            "Checking both.\n" + render_calls(format::harmony, a.tool_calls));
  EXPECT_EQ(out.messages[2].reasoning, "need the time");
  EXPECT_EQ(out.messages[3].role, llm::role::user);
  EXPECT_EQ(out.messages[3].text(),
            render_result(format::harmony, "get_time", "Error: no such zone"));
  EXPECT_TRUE(out.messages[3].extras.empty());  // the internal marker does not leak
  EXPECT_EQ(out.messages[4].text(), "try UTC");  // a user turn after results stays apart
}

TEST(prompt_provider_rules, call_ids_differ_between_replies) {
  auto inner = std::make_shared<canned_provider>();
  inner->response.reply = llm::message::assistant("[get_time(tz='A')]");
  prompt_provider p(inner, {.text_format = format::pythonic});
  auto r1 = p.complete(request({llm::message::user("q")}));
  auto r2 = p.complete(request({llm::message::user("q")}));
  ASSERT_TRUE(r1 && r2);
  ASSERT_EQ(r1->reply.tool_calls.size(), 1u);
  ASSERT_EQ(r2->reply.tool_calls.size(), 1u);
  EXPECT_NE(r1->reply.tool_calls[0].id, r2->reply.tool_calls[0].id);
  EXPECT_EQ(r1->reply.tool_calls[0].id.substr(0, 1), "t");
  EXPECT_NE(r1->reply.tool_calls[0].id.find("_call_0"), std::string::npos);
}

TEST(prompt_provider_rules, a_finish_other_than_stop_is_kept_and_native_reasoning_comes_first) {
  auto inner = std::make_shared<canned_provider>();
  inner->response.reply = llm::message::assistant("<think>parsed</think><tool_call>{\"name\": "
                                                  "\"get_time\", \"arguments\": {}}</tool_call>");
  inner->response.reply.reasoning = "native ";
  inner->response.finish = llm::finish_reason::length;
  prompt_provider p(inner, {.text_format = format::hermes});
  auto r = p.complete(request({llm::message::user("q")}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->finish, llm::finish_reason::length);
  ASSERT_EQ(r->reply.tool_calls.size(), 1u);
  EXPECT_EQ(r->reply.reasoning, "native parsed");
  EXPECT_TRUE(r->reply.content.empty());  // no visible text left: no empty text part
}

TEST(prompt_provider_rules, the_inner_providers_error_is_returned_as_it_is) {
  auto inner = std::make_shared<canned_provider>();
  inner->failure = error{errc::http_error, "upstream said 503"};
  prompt_provider p(inner, {.text_format = format::granite});
  auto r = p.complete(request({llm::message::user("q")}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::http_error);
  EXPECT_EQ(r.error().message, "upstream said 503");
  EXPECT_EQ(p.name(), "canned+granite");
}

TEST(prompt_provider_rules, parse_format_can_differ_from_the_announced_format) {
  auto inner = std::make_shared<canned_provider>();
  inner->response.reply = llm::message::assistant("[get_time(tz='UTC')]");
  prompt_provider strict(inner, {.text_format = format::hermes, .parse_format = format::hermes});
  auto r = strict.complete(request({llm::message::user("q")}));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->reply.tool_calls.empty());  // hermes does not read pythonic calls
  EXPECT_EQ(r->reply.text(), "[get_time(tz='UTC')]");
  prompt_provider lenient(inner, {.text_format = format::hermes});  // parse_format: auto
  auto l = lenient.complete(request({llm::message::user("q")}));
  ASSERT_TRUE(l);
  ASSERT_EQ(l->reply.tool_calls.size(), 1u);
  EXPECT_EQ(l->reply.tool_calls[0].arguments, json({{"tz", "UTC"}}));
}

}  // namespace
}  // namespace tooluse::textcall
