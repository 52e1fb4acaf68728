// parse_json's limits: nesting depth, document size and value count refused with a message
// naming the limit; large objects built in linear time; results identical to nlohmann's.
#include <gtest/gtest.h>

#include <string>

#include "tooluse/json.hpp"

namespace tooluse {
namespace {

std::string nested(std::size_t depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonLimits, DeepNestingIsRefusedNamingTheLimit) {
  auto r = parse_json(nested(100000));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::limit_exceeded);
  EXPECT_NE(r.error().message.find("json_limits::max_depth = 128"), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("raise"), std::string::npos);
}

TEST(JsonLimits, DepthLimitIsExact) {
  EXPECT_TRUE(parse_json(nested(128)));
  EXPECT_FALSE(parse_json(nested(129)));
  json_limits l{.max_depth = 3};
  EXPECT_TRUE(parse_json(R"({"a":[{"b":1}]})", l));
  EXPECT_FALSE(parse_json(R"({"a":[{"b":[]}]})", l));
  // Brackets inside strings are not nesting.
  EXPECT_TRUE(parse_json("[\"" + std::string(1000, '[') + "\"]", l));
}

TEST(JsonLimits, UnclosedDeepNestingIsRefusedNotRecursed) {
  auto r = parse_json(std::string(1'000'000, '{') );
  ASSERT_FALSE(r);
  // "{{" is a syntax error before depth 2 (a key must follow), so try arrays too.
  auto a = parse_json(std::string(1'000'000, '['));
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code, errc::limit_exceeded);
}

TEST(JsonLimits, SizeAndValueCountAreBounded) {
  json_limits l{.max_bytes = 10};
  auto r = parse_json("[1,2,3,4,5,6]", l);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("json_limits::max_bytes = 10 bytes"), std::string::npos);
  json_limits v{.max_values = 5};
  EXPECT_TRUE(parse_json("[1,2,3,4]", v));
  auto many = parse_json("[1,2,3,4,5]", v);
  ASSERT_FALSE(many);
  EXPECT_NE(many.error().message.find("json_limits::max_values"), std::string::npos);
}

TEST(JsonLimits, LargeObjectsBuildInLinearTimeAndKeepOrderAndLastDuplicate) {
  std::string text = "{";
  for (int i = 0; i < 50000; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  text += "\"k5\":\"last\"}";
  auto r = parse_json(text);  // quadratic insertion would take minutes here
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->size(), 50000u);
  EXPECT_EQ((*r)["k5"], "last");
  EXPECT_EQ(r->begin().key(), "k0");
}

TEST(JsonLimits, SameValueAsNlohmann) {
  const char* docs[] = {R"({"b":1,"a":[true,false,null,1.5,-3,18446744073709551615,"x\u00e9"],"c":{}})",
                        "[]", "\"s\"", "3", R"({"a":1,"a":2})", R"([{"x":[{"y":{}}]}])"};
  for (const char* d : docs) {
    auto r = parse_json(d);
    ASSERT_TRUE(r) << d;
    EXPECT_EQ(*r, json::parse(d)) << d;
    EXPECT_EQ(r->dump(), json::parse(d).dump()) << d;
  }
}

TEST(JsonLimits, SyntaxErrorsStillSayWhere) {
  auto r = parse_json("{\"a\": }");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::parse_error);
  EXPECT_NE(r.error().message.find("column"), std::string::npos) << r.error().message;
  EXPECT_FALSE(parse_json("[1] x"));
  EXPECT_FALSE(parse_json(""));
}

TEST(JsonLimits, ProcessDefaultsApply) {
  auto saved = default_json_limits();
  set_default_json_limits({.max_depth = 2});
  EXPECT_FALSE(parse_json("[[[]]]"));
  set_default_json_limits(saved);
  EXPECT_TRUE(parse_json("[[[]]]"));
}

}  // namespace
}  // namespace tooluse
