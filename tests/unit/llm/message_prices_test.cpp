// The neutral message model (tool results turned into messages, its JSON for traces), usage
// arithmetic, tool_choice parsing, and the price catalog's parsing, lookup and file loading.
#include <gtest/gtest.h>

#include <fstream>

#include "support/test_support.hpp"
#include "tooluse/llm/prices.hpp"
#include "tooluse/llm/provider.hpp"

namespace tooluse::llm {
namespace {

TEST(llm_message, tool_result_keeps_text_and_images_and_renders_other_blocks_as_json) {
  tool_call call = tool_call::from_text("id7", "files.read", "{}");
  tooluse::tool_result r;
  r.content = {text_content{"first"}, image_content{"QUJD", "image/png"},
               resource_link{.uri = "file:///a.txt", .name = "a.txt"}};
  r.is_error = true;
  message m = message::tool_result(call, r);
  EXPECT_EQ(m.role, role::tool);
  EXPECT_EQ(m.tool_call_id, "id7");
  EXPECT_EQ(m.tool_name, "files.read");
  EXPECT_TRUE(m.is_error);
  ASSERT_EQ(m.content.size(), 3u);
  EXPECT_EQ(m.content[0], content_part::text_part("first"));
  EXPECT_EQ(m.content[1].type, content_part::kind::image);
  EXPECT_EQ(m.content[1].data, "QUJD");
  EXPECT_EQ(m.content[1].mime_type, "image/png");
  EXPECT_EQ(json::parse(m.content[2].text),
            json::parse(R"({"type":"resource_link","uri":"file:///a.txt","name":"a.txt"})"));
  EXPECT_EQ(m.text(), "first" + m.content[2].text);  // text() skips images
}

TEST(llm_message, structured_only_results_become_their_json_text) {
  tooluse::tool_result r;
  r.structured_content = json::parse(R"({"sum":3})");
  message m = message::tool_result(tool_call::from_text("i", "add", "{}"), r);
  ASSERT_EQ(m.content.size(), 1u);
  EXPECT_EQ(m.text(), R"({"sum":3})");
  EXPECT_FALSE(m.is_error);
}

TEST(llm_message, constructors_and_json_shape) {
  EXPECT_TRUE(message::assistant("").content.empty());
  EXPECT_EQ(message::system("s").role, role::system);
  message a = message::assistant("ok");
  a.reasoning = "r";
  a.tool_calls = {tool_call::from_text("c", "t", R"({"x":1})")};
  a.extras["openai"] = {{"k", 1}};
  a.content.push_back(
      {.type = content_part::kind::image, .data = "QUJD", .mime_type = "image/png"});
  EXPECT_EQ(message_to_json(a), json::parse(R"({"role":"assistant",
      "content":[{"type":"text","text":"ok"},{"type":"image","mime_type":"image/png","url":"","bytes":4}],
      "reasoning":"r","tool_calls":[{"id":"c","name":"t","arguments":{"x":1}}],
      "extras":{"openai":{"k":1}}})"));
  message t =
      message::tool_result(tool_call::from_text("c", "t", "{}"), tooluse::tool_result::text("v"));
  EXPECT_EQ(message_to_json(t),
            json::parse(R"({"role":"tool","content":[{"type":"text","text":"v"}],
      "tool_call_id":"c","tool_name":"t","is_error":false})"));
}

TEST(llm_message, names_of_roles_and_finish_reasons) {
  EXPECT_EQ(to_string(role::system), "system");
  EXPECT_EQ(to_string(role::user), "user");
  EXPECT_EQ(to_string(role::assistant), "assistant");
  EXPECT_EQ(to_string(role::tool), "tool");
  std::vector<std::string> names;
  for (auto f : {finish_reason::stop, finish_reason::tool_calls, finish_reason::length,
                 finish_reason::content_filter, finish_reason::pause, finish_reason::context_window,
                 finish_reason::other})
    names.emplace_back(to_string(f));
  EXPECT_EQ(names, (std::vector<std::string>{"stop", "tool_calls", "length", "content_filter",
                                             "pause", "context_window", "other"}));
}

TEST(llm_tool_choice, parse_table) {
  using m = tool_choice::mode;
  EXPECT_EQ(tool_choice::parse(""), tool_choice{});
  EXPECT_EQ(tool_choice::parse("auto"), tool_choice{});
  EXPECT_EQ(tool_choice::parse("none").what, m::none);
  EXPECT_EQ(tool_choice::parse("required").what, m::required);
  EXPECT_EQ(tool_choice::parse("any").what, m::required);
  EXPECT_EQ(tool_choice::parse("math.add"), (tool_choice{.what = m::named, .name = "math.add"}));
  EXPECT_EQ(tool_choice::parse("Auto").what, m::named);  // case matters: a tool may be called that
}

TEST(llm_usage, sums_and_renders_only_what_is_set) {
  usage a{.input_tokens = 10, .output_tokens = 5, .cost = 0.25, .requests = 1};
  usage b{.input_tokens = 1,
          .output_tokens = 2,
          .cache_read_tokens = 3,
          .cache_write_tokens = 4,
          .reasoning_tokens = 5,
          .cost = 0.5,
          .requests = 2};
  a += b;
  EXPECT_EQ(a.total_tokens(), 18);
  EXPECT_EQ(usage_to_json(a), json::parse(R"({"input_tokens":11,"output_tokens":7,"total_tokens":18,
      "cache_read_tokens":3,"cache_write_tokens":4,"reasoning_tokens":5,"requests":3,"cost":0.75})"));
  EXPECT_EQ(usage_to_json(usage{}),
            json::parse(R"({"input_tokens":0,"output_tokens":0,"total_tokens":0,"cost":0.0})"));
}

TEST(llm_cost, cached_rates_fall_back_to_the_input_rate_and_never_go_negative) {
  price p{.input_per_mtok = 4, .output_per_mtok = 10};
  usage u{.input_tokens = 1'000'000,
          .output_tokens = 0,
          .cache_read_tokens = 500'000,
          .cache_write_tokens = 500'000};
  EXPECT_DOUBLE_EQ(cost_of(u, p), 4.0);  // no cache rates: every prompt token at 4
  // A provider that reports more cached than total tokens costs its cached part only.
  usage odd{.input_tokens = 10, .cache_read_tokens = 1'000'000};
  EXPECT_DOUBLE_EQ(cost_of(odd, {.input_per_mtok = 1, .cached_input_per_mtok = 0.1}), 0.1);
}

TEST(price_catalog_parse, every_malformed_document_is_named) {
  struct row {
    const char* text;
    const char* want;
  };
  for (auto [text, want] :
       {row{"[1,", "prices: not JSON: "},
        row{R"({"model":{}})", R"(prices: expected {"models": {NAME: {"input": USD)"},
        row{R"({"models":[]})", R"(prices: expected {"models")"},
        row{R"({"models":{"m":{"output":1}}})",
            R"(prices: model "m": "input" must be a number >= 0)"},
        row{R"({"models":{"m":{"input":1}}})",
            R"(prices: model "m": "output" must be a number >= 0)"},
        row{R"({"models":{"m":{"input":1,"output":-2}}})",
            R"(model "m": "output" must be a number >= 0)"},
        row{R"({"models":{"m":{"input":1,"output":2,"cached_input":"x"}}})",
            R"("cached_input" must be)"},
        row{R"({"models":{"m":{"input":1,"output":2,"cache_write":-1}}})",
            R"("cache_write" must be)"},
        row{R"({"models":{"m":5}})", R"(model "m": "input")"}}) {
    auto c = price_catalog::parse(text);
    ASSERT_FALSE(c) << text;
    EXPECT_EQ(c.error().code, errc::parse_error) << text;
    EXPECT_NE(c.error().message.find(want), std::string::npos)
        << text << " -> " << c.error().message;
  }
}

TEST(price_catalog_find, provider_prefixes_suffixes_and_the_longest_match) {
  auto c = price_catalog::parse(R"({"models":{
      "claude-x":{"input":3,"output":15,"cached_input":0.3,"cache_write":3.75},
      "claude-x-mini":{"input":1,"output":5}}})");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->size(), 2u);
  EXPECT_DOUBLE_EQ(c->find("claude-x")->cache_write_per_mtok, 3.75);
  EXPECT_DOUBLE_EQ(c->find("claude-x-mini-20250101")->input_per_mtok, 1);  // longest prefix
  EXPECT_DOUBLE_EQ(c->find("claude-x-20250101")->input_per_mtok, 3);
  EXPECT_DOUBLE_EQ(c->find("claude-x@20250101")->input_per_mtok, 3);  // Vertex spelling
  EXPECT_DOUBLE_EQ(c->find("anthropic/claude-x")->input_per_mtok, 3);
  EXPECT_DOUBLE_EQ(c->find("openrouter/anthropic/claude-x-mini")->input_per_mtok, 1);
  EXPECT_FALSE(c->find("claude-xl"));  // a prefix must end at '-' or '@'
  EXPECT_FALSE(c->find("claude"));     // shorter than every entry
  EXPECT_FALSE(c->find(""));
}

TEST(price_catalog_load, reads_a_file_and_names_a_missing_or_bad_one) {
  tooluse::testing::temp_dir dir;
  auto path = (dir.path() / "p.json").string();
  { std::ofstream(path) << R"({"models":{"local":{"input":0,"output":0}}})"; }
  auto c = price_catalog::load(path);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_TRUE(c->find("local"));
  auto missing = price_catalog::load(path + ".missing");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, errc::io_error);
  EXPECT_EQ(missing.error().message, "cannot read the price catalog \"" + path + ".missing\"");
  { std::ofstream(path, std::ios::trunc) << R"({"models":{"local":{"input":"free","output":0}}})"; }
  auto bad = price_catalog::load(path);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("price catalog \"" + path + "\": model \"local\"", 0), 0u)
      << bad.error().message;
}

TEST(price_catalog_builtin, is_the_shipped_json_and_every_entry_has_both_rates) {
  auto again = price_catalog::parse(builtin_prices_json());
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->size(), price_catalog::builtin().size());
  auto doc = json::parse(builtin_prices_json());
  for (const auto& [name, entry] : doc["models"].items()) {
    auto p = price_catalog::builtin().find(name);
    ASSERT_TRUE(p) << name;
    EXPECT_GT(p->output_per_mtok, 0) << name;
    EXPECT_GE(p->output_per_mtok, p->input_per_mtok) << name << ": output usually costs more";
  }
}

}  // namespace
}  // namespace tooluse::llm
