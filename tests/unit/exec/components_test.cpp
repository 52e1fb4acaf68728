// The engine's parts on their own, on a manual clock: the rate limiter's sliding window (per
// key, the exact wait it reports, keys with different windows side by side), the run budget's
// messages, the result cache (canonical keys, TTL, updates, errors never stored) and output
// limiting across several text blocks.
#include <gtest/gtest.h>

#include "tooluse/exec/cache.hpp"
#include "tooluse/exec/limits.hpp"
#include "tooluse/exec/output.hpp"

namespace tooluse::exec {
namespace {

using namespace std::chrono_literals;

TEST(rate_limiter_window, slots_free_up_one_by_one_as_the_window_slides) {
  auto time = std::make_shared<manual_clock>();
  rate_limiter rl(time);
  const rate_limit limit{.calls = 2, .window = 10s};
  EXPECT_EQ(rl.try_acquire("k", limit), std::nullopt);
  time->advance(3s);
  EXPECT_EQ(rl.try_acquire("k", limit), std::nullopt);
  auto wait = rl.try_acquire("k", limit);
  ASSERT_TRUE(wait);
  EXPECT_EQ(*wait, 7s);  // the first call leaves the window 10 s after it was admitted
  time->advance(7s);
  EXPECT_EQ(rl.try_acquire("k", limit), std::nullopt);  // its slot
  auto next = rl.try_acquire("k", limit);
  ASSERT_TRUE(next);
  EXPECT_EQ(*next, 3s);  // the second call's slot
  EXPECT_EQ(rl.try_acquire("other", limit), std::nullopt);  // keys are independent
  EXPECT_EQ(rl.try_acquire("k", {.calls = 0}), std::nullopt);  // 0: unlimited
}

// Found by this test: every 1024 acquisitions the limiter dropped idle keys judged by the
// window of the call being admitted, so a key with a long window (1 call an hour) lost its
// history when many calls of a short-window key went by, and was admitted again at once.
TEST(rate_limiter_window, a_long_window_survives_the_cleanup_of_idle_keys) {
  auto time = std::make_shared<manual_clock>();
  rate_limiter rl(time);
  const rate_limit hourly{.calls = 1, .window = 1h};
  const rate_limit busy{.calls = 1000000, .window = 1s};
  EXPECT_EQ(rl.try_acquire("send_email\ns", hourly), std::nullopt);
  time->advance(2s);
  for (int i = 0; i < 2100; ++i) ASSERT_EQ(rl.try_acquire("search\ns", busy), std::nullopt);
  auto wait = rl.try_acquire("send_email\ns", hourly);
  ASSERT_TRUE(wait) << "the hourly limit admitted a second call after 2 s";
  EXPECT_EQ(*wait, 1h - 2s);
}

TEST(run_budget_messages, calls_and_cost_limits_say_what_was_spent) {
  run_budget calls({.max_calls = 2});
  EXPECT_EQ(calls.reserve(0), std::nullopt);
  EXPECT_EQ(calls.reserve(0), std::nullopt);
  EXPECT_EQ(calls.reserve(0),
            "budget exceeded: this run may make at most 2 tool calls and all have been used; "
            "answer with what you have");
  EXPECT_EQ(calls.calls_used(), 2u);  // a refused call does not count

  run_budget cost({.max_cost = 1.0});
  EXPECT_EQ(cost.reserve(0.25), std::nullopt);
  cost.charge(0.5);  // reported by the tool after it ran
  EXPECT_DOUBLE_EQ(cost.cost_used(), 0.75);
  EXPECT_EQ(cost.reserve(0.25), std::nullopt);  // exactly the limit is allowed
  EXPECT_EQ(cost.reserve(0.1),
            "budget exceeded: this call would cost 0.1 and the run has spent 1 of its 1; answer "
            "with what you have");
  EXPECT_EQ(cost.calls_used(), 2u);
  EXPECT_EQ(cost.limits().max_cost, 1.0);

  run_budget unlimited({});
  for (int i = 0; i < 100; ++i) ASSERT_EQ(unlimited.reserve(1e6), std::nullopt);
}

TEST(result_cache_keys, arguments_are_compared_canonically_and_per_tool) {
  EXPECT_EQ(result_cache::key("t", json::parse(R"({"b":1,"a":[1,{"y":2,"x":1}]})")),
            result_cache::key("t", json::parse(R"({"a":[1,{"x":1,"y":2}],"b":1})")));
  EXPECT_NE(result_cache::key("t", json::parse(R"({"a":[1,2]})")),
            result_cache::key("t", json::parse(R"({"a":[2,1]})")));  // order of a list matters
  EXPECT_NE(result_cache::key("t", json::parse(R"({"a":1})")),
            result_cache::key("u", json::parse(R"({"a":1})")));
  EXPECT_NE(result_cache::key("t", json::parse(R"({"a":"1"})")),
            result_cache::key("t", json::parse(R"({"a":1})")));
}

TEST(result_cache_entries, expire_after_the_ttl_and_a_put_refreshes_them) {
  auto time = std::make_shared<manual_clock>();
  result_cache cache({.capacity = 4, .ttl = 10s}, time);
  cache.put("k", tool_result::text("v1"));
  time->advance(9s);
  ASSERT_TRUE(cache.get("k"));
  EXPECT_EQ(cache.get("k")->all_text(), "v1");
  cache.put("k", tool_result::text("v2"));  // replaces and restarts the TTL
  EXPECT_EQ(cache.size(), 1u);
  time->advance(9s);
  ASSERT_TRUE(cache.get("k"));
  EXPECT_EQ(cache.get("k")->all_text(), "v2");
  time->advance(1s);
  EXPECT_FALSE(cache.get("k"));  // exactly the TTL: expired
  EXPECT_EQ(cache.size(), 0u);   // and dropped when touched
}

TEST(result_cache_entries, errors_and_a_zero_capacity_store_nothing) {
  auto time = std::make_shared<manual_clock>();
  result_cache cache({.capacity = 2}, time);
  cache.put("e", tool_result::error("boom"));
  EXPECT_FALSE(cache.get("e"));
  EXPECT_EQ(cache.size(), 0u);
  result_cache off({.capacity = 0}, time);
  off.put("k", tool_result::text("v"));
  EXPECT_FALSE(off.get("k"));
  result_cache default_clock({.capacity = 1}, nullptr);  // null clock: the steady clock
  default_clock.put("k", tool_result::text("v"));
  EXPECT_TRUE(default_clock.get("k"));
}

TEST(result_cache_entries, a_get_makes_an_entry_recently_used) {
  auto time = std::make_shared<manual_clock>();
  result_cache cache({.capacity = 2}, time);
  cache.put("a", tool_result::text("A"));
  cache.put("b", tool_result::text("B"));
  ASSERT_TRUE(cache.get("a"));  // now b is the least recently used
  cache.put("c", tool_result::text("C"));
  EXPECT_TRUE(cache.get("a"));
  EXPECT_FALSE(cache.get("b"));
  EXPECT_TRUE(cache.get("c"));
}

TEST(limit_output_blocks, several_text_blocks_share_the_limit_in_proportion) {
  tool_result r;
  r.content = {text_content{std::string(300, 'a')}, text_content{std::string(100, 'b')}};
  ASSERT_TRUE(limit_output(r, {.max_bytes = 200, .head_fraction = 0.5}));
  ASSERT_EQ(r.content.size(), 3u);  // the two blocks and the notice
  auto text = [&](std::size_t i) { return std::get<text_content>(r.content[i]).text; };
  // 300 of 400 bytes: 150 of the 200 kept, half from each end; the other block 50.
  EXPECT_EQ(text(0), std::string(75, 'a') + "\n[...]\n" + std::string(75, 'a'));
  EXPECT_EQ(text(1), std::string(25, 'b') + "\n[...]\n" + std::string(25, 'b'));
  EXPECT_EQ(text(2), "[output truncated: 400 bytes, kept the first 100 and the last 100, cut 200]");
  EXPECT_EQ(r.meta.at("truncated"),
            json::parse(R"({"original_bytes":400,"kept_bytes":200,"cut_bytes":200})"));
}

TEST(limit_output_blocks, head_fraction_is_clamped_to_the_whole_limit) {
  tool_result r = tool_result::text(std::string(10, 'h') + std::string(10, 't'));
  ASSERT_TRUE(limit_output(r, {.max_bytes = 10, .head_fraction = 7.0}));
  EXPECT_EQ(std::get<text_content>(r.content[0]).text, std::string(10, 'h') + "\n[...]\n");
  tool_result tail = tool_result::text(std::string(10, 'h') + std::string(10, 't'));
  ASSERT_TRUE(limit_output(tail, {.max_bytes = 10, .head_fraction = -1.0}));
  EXPECT_EQ(std::get<text_content>(tail.content[0]).text, "\n[...]\n" + std::string(10, 't'));
}

TEST(limit_output_blocks, output_at_the_limit_or_without_a_limit_is_kept_whole) {
  tool_result exact = tool_result::text(std::string(50, 'x'));
  EXPECT_FALSE(limit_output(exact, {.max_bytes = 50}));
  EXPECT_EQ(exact.all_text(), std::string(50, 'x'));
  EXPECT_FALSE(exact.meta.contains("truncated"));
  tool_result big = tool_result::text(std::string(5000, 'x'));
  EXPECT_FALSE(limit_output(big, {.max_bytes = 0}));
  EXPECT_EQ(big.all_text().size(), 5000u);
}

}  // namespace
}  // namespace tooluse::exec
