// Output limits: head and tail kept, a notice, media untouched, spill to a file.
#include "exec_fixtures.hpp"
#include "support/test_support.hpp"
#include "tooluse/exec/output.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;

std::string digits(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += static_cast<char>('0' + i % 10);
  return s;
}

TEST(limit_output, keeps_head_and_tail_with_a_notice) {
  tool_result r = tool_result::text("HEAD" + std::string(1000, '.') + "TAIL");
  ASSERT_TRUE(limit_output(r, {.max_bytes = 100, .head_fraction = 0.4}));
  ASSERT_EQ(r.content.size(), 2u);
  const std::string& kept = std::get<text_content>(r.content[0]).text;
  EXPECT_EQ(kept, "HEAD" + std::string(36, '.') + "\n[...]\n" + std::string(56, '.') + "TAIL");
  EXPECT_EQ(std::get<text_content>(r.content[1]).text,
            "[output truncated: 1008 bytes, kept the first 40 and the last 60, cut 908]");
  EXPECT_EQ(r.meta["truncated"]["original_bytes"], 1008);
  EXPECT_EQ(r.meta["truncated"]["kept_bytes"], 100);
  EXPECT_EQ(r.meta["truncated"]["cut_bytes"], 908);
}

TEST(limit_output, short_output_and_media_are_untouched) {
  tool_result r = tool_result::text("short");
  r.content.emplace_back(image_content{std::string(5000, 'A'), "image/png"});
  EXPECT_FALSE(limit_output(r, {.max_bytes = 10}));
  EXPECT_EQ(r.content.size(), 2u);
  tool_result big = tool_result::text(digits(300));
  big.content.emplace_back(image_content{std::string(5000, 'A'), "image/png"});
  EXPECT_TRUE(limit_output(big, {.max_bytes = 100}));
  EXPECT_EQ(std::get<image_content>(big.content[1]).data.size(), 5000u);
}

TEST(limit_output, never_splits_a_utf8_character) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "\xc3\xa9";  // é, two bytes each
  tool_result r = tool_result::text(text);
  ASSERT_TRUE(limit_output(r, {.max_bytes = 51, .head_fraction = 0.5}));
  const std::string& kept = std::get<text_content>(r.content[0]).text;
  const auto marker = kept.find("\n[...]\n");
  ASSERT_NE(marker, std::string::npos);
  EXPECT_EQ(marker % 2, 0u);
  EXPECT_EQ((kept.size() - marker - 7) % 2, 0u);
}

TEST(limit_output, spills_the_full_output_to_a_file) {
  tooluse::testing::temp_dir dir;
  const std::string full = digits(5000);
  tool_result r = tool_result::text(full);
  ASSERT_TRUE(limit_output(r, {.max_bytes = 100, .spill_dir = dir.path(), .spill_name = "x.txt"}));
  const auto path = (dir.path() / "x.txt").string();
  EXPECT_EQ(tooluse::testing::read_file(path), full);
  EXPECT_NE(r.all_text().find("the full output is in " + path), std::string::npos);
  EXPECT_EQ(r.meta["truncated"]["full_output"], path);
}

TEST(executor_output, tool_limit_applies_to_results) {
  tool_registry reg;
  reg.add({.name = "chatty", .max_output_bytes = 50},
          [](const json&, call_context&) { return tool_result::text(digits(10000)); });
  reg.add({.name = "default_limit"},
          [](const json&, call_context&) { return tool_result::text(digits(10000)); });
  tooluse::testing::temp_dir dir;
  executor ex(reg, {.default_max_output_bytes = 1000, .spill_dir = dir.path()});
  tool_result r = ex.call(make_call("chatty"));
  EXPECT_EQ(r.meta["truncated"]["kept_bytes"], 50);
  EXPECT_EQ(tooluse::testing::read_file(r.meta["truncated"]["full_output"].get<std::string>()),
            digits(10000));
  EXPECT_EQ(ex.call(make_call("default_limit")).meta["truncated"]["kept_bytes"], 1000);
}

}  // namespace
}  // namespace tooluse::exec
