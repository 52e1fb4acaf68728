#include <gtest/gtest.h>

#include <set>

#include "tooluse/schema/name_map.hpp"

namespace tooluse::schema {
namespace {

TEST(translate_name_map, dotted_name_round_trips) {
  auto names = name_map::build({"math.factorial", "search"});
  EXPECT_EQ(names.provider_name("math.factorial"), "math_factorial");
  EXPECT_EQ(names.original_name("math_factorial"), "math.factorial");
  EXPECT_EQ(names.provider_name("search"), "search");
  EXPECT_TRUE(names.renamed());
}

TEST(translate_name_map, valid_names_keep_their_spelling_whatever_the_order) {
  auto a = name_map::build({"a.b", "a_b"});
  auto b = name_map::build({"a_b", "a.b"});
  EXPECT_EQ(a.provider_name("a_b"), "a_b");
  EXPECT_EQ(b.provider_name("a_b"), "a_b");
  EXPECT_EQ(a.provider_name("a.b"), b.provider_name("a.b"));
  ASSERT_TRUE(a.provider_name("a.b"));
  EXPECT_NE(*a.provider_name("a.b"), "a_b");
  EXPECT_EQ(a.original_name(*a.provider_name("a.b")), "a.b");
  EXPECT_TRUE(matches_name_rule(*a.provider_name("a.b"), openai_name_rule));
}

TEST(translate_name_map, collisions_get_distinct_hashed_names) {
  auto names = name_map::build({"x.y", "x:y", "x/y", "x y"});
  std::set<std::string> seen;
  for (const char* n : {"x.y", "x:y", "x/y", "x y"}) {
    auto p = names.provider_name(n);
    ASSERT_TRUE(p);
    EXPECT_TRUE(matches_name_rule(*p, openai_name_rule)) << *p;
    EXPECT_EQ(names.original_name(*p), n);
    seen.insert(*p);
  }
  EXPECT_EQ(seen.size(), 4u);
}

TEST(translate_name_map, long_names_are_shortened_with_a_hash) {
  std::string long_a(100, 'a');
  std::string long_b = long_a + "b";
  name_map names;
  std::string pa = names.add(long_a);
  std::string pb = names.add(long_b);
  EXPECT_EQ(pa.size(), 64u);
  EXPECT_EQ(pb.size(), 64u);
  EXPECT_NE(pa, pb);
  EXPECT_EQ(names.original_name(pa), long_a);
  EXPECT_EQ(names.original_name(pb), long_b);
  EXPECT_EQ(names.add(long_a), pa);  // stable
}

TEST(translate_name_map, rules_differ_per_provider) {
  auto gemini = name_map::build({"math.factorial"}, gemini_name_rule);
  EXPECT_EQ(gemini.provider_name("math.factorial"), "math.factorial");
  EXPECT_FALSE(gemini.renamed());
  EXPECT_FALSE(matches_name_rule("", openai_name_rule));
  EXPECT_FALSE(matches_name_rule(std::string(65, 'a'), openai_name_rule));
  EXPECT_TRUE(matches_name_rule(std::string(128, 'a'), mcp_name_rule));
}

TEST(translate_name_map, unknown_names_are_not_mapped) {
  name_map names;
  EXPECT_FALSE(names.original_name("nope"));
  EXPECT_FALSE(names.provider_name("nope"));
  EXPECT_EQ(names.add(""), "tool");
}

}  // namespace
}  // namespace tooluse::schema
