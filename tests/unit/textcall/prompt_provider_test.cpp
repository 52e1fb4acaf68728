// prompt_provider over a scripted in-process provider: the request becomes plain text, the
// answer's calls are parsed out, whole and streamed.
#include "tooluse/textcall/prompt_provider.hpp"

#include <gtest/gtest.h>

namespace tooluse::textcall {
namespace {

class scripted_provider : public llm::provider {
 public:
  explicit scripted_provider(std::string answer) : answer_(std::move(answer)) {}
  result<llm::chat_response> complete(const llm::chat_request& req,
                                      const llm::stream_callbacks& cb, std::stop_token) override {
    last = req;
    if (req.stream && cb.on_text) {
      for (std::size_t i = 0; i < answer_.size(); i += 3) cb.on_text(std::string_view(answer_).substr(i, 3));
    }
    llm::chat_response r;
    r.reply = llm::message::assistant(answer_);
    return r;
  }
  std::string name() const override { return "scripted"; }
  llm::chat_request last;

 private:
  std::string answer_;
};

llm::chat_request weather_request(bool stream) {
  llm::chat_request req;
  req.tools = {{.name = "get_weather", .description = "Weather for a city",
                .input_schema = json::parse(R"({"type":"object","properties":{"days":{"type":"integer"}}})")}};
  req.messages = {llm::message::system("Be brief."), llm::message::user("Weather in Paris?")};
  req.stream = stream;
  return req;
}

TEST(prompt_provider, renders_tools_into_the_system_prompt_and_sends_no_native_tools) {
  auto inner = std::make_shared<scripted_provider>("Sunny.");
  prompt_provider p(inner, {.text_format = format::hermes});
  auto r = p.complete(weather_request(false));
  ASSERT_TRUE(r) << r.error().what();
  EXPECT_TRUE(inner->last.tools.empty());
  ASSERT_EQ(inner->last.messages.size(), 2u);
  std::string system = inner->last.messages[0].text();
  EXPECT_EQ(system.rfind("Be brief.\n\n", 0), 0u);
  EXPECT_NE(system.find("<tools>"), std::string::npos);
  EXPECT_NE(system.find("get_weather"), std::string::npos);
  EXPECT_EQ(r->reply.text(), "Sunny.");
  EXPECT_EQ(r->finish, llm::finish_reason::stop);
  EXPECT_EQ(p.name(), "scripted+hermes");
}

TEST(prompt_provider, parses_calls_out_of_the_answer_typed_by_schema) {
  auto inner = std::make_shared<scripted_provider>(
      "Checking.<tool_call>\n<function=get_weather>\n<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>");
  prompt_provider p(inner, {.text_format = format::qwen3_coder});
  auto r = p.complete(weather_request(false));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->reply.tool_calls.size(), 1u);
  EXPECT_EQ(r->reply.tool_calls[0].name, "get_weather");
  EXPECT_EQ(r->reply.tool_calls[0].arguments, json({{"days", 2}}));
  EXPECT_EQ(r->reply.text(), "Checking.");
  EXPECT_EQ(r->finish, llm::finish_reason::tool_calls);
}

TEST(prompt_provider, streams_content_and_announces_calls) {
  auto inner = std::make_shared<scripted_provider>(
      "<think>plan</think>Let me see. [get_weather(days=3)]");
  prompt_provider p(inner, {.text_format = format::pythonic});
  std::string text, reasoning, started;
  llm::stream_callbacks cb{.on_text = [&](std::string_view s) { text += s; },
                           .on_reasoning = [&](std::string_view s) { reasoning += s; },
                           .on_tool_call_start = [&](const std::string&, const std::string& n) { started += n; }};
  auto r = p.complete(weather_request(true), cb);
  ASSERT_TRUE(r);
  EXPECT_EQ(text, "Let me see. ");
  EXPECT_EQ(reasoning, "plan");
  EXPECT_EQ(started, "get_weather");
  ASSERT_EQ(r->reply.tool_calls.size(), 1u);
  EXPECT_EQ(r->reply.tool_calls[0].arguments, json({{"days", 3}}));
  EXPECT_EQ(r->reply.reasoning, "plan");
}

TEST(prompt_provider, replays_calls_and_results_as_text) {
  auto inner = std::make_shared<scripted_provider>("Done.");
  prompt_provider p(inner, {.text_format = format::hermes});
  auto req = weather_request(false);
  tool_call c = tool_call::from_text("x1", "get_weather", R"({"days":1})");
  llm::message a = llm::message::assistant("");
  a.tool_calls = {c, c};
  req.messages.push_back(a);
  for (int i = 0; i < 2; ++i) {
    llm::message t;
    t.role = llm::role::tool;
    t.tool_call_id = "x1";
    t.tool_name = "get_weather";
    t.content = {llm::content_part::text_part("rain " + std::to_string(i))};
    req.messages.push_back(t);
  }
  auto r = p.complete(req);
  ASSERT_TRUE(r);
  const auto& m = inner->last.messages;
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[2].role, llm::role::assistant);
  EXPECT_TRUE(m[2].tool_calls.empty());
  EXPECT_NE(m[2].text().find("<tool_call>"), std::string::npos);
  EXPECT_EQ(m[3].role, llm::role::user);
  EXPECT_EQ(m[3].text(), "<tool_response>\nrain 0\n</tool_response>\n<tool_response>\nrain 1\n</tool_response>");
}

TEST(prompt_provider, rejects_a_null_inner_provider) {
  EXPECT_THROW(prompt_provider(nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace tooluse::textcall
