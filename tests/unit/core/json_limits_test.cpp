// parse_json's limits: nesting depth, document size and value count refused with a message
// naming the limit; large objects built in linear time; results identical to nlohmann's.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

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
                        "[]", "\"s\"", "3", R"({"a":1,"a":2})", R"([{"x":[{"y":{}}]}])",
                        // a container replaced by a later duplicate; members gathered per
                        // object while nested objects are open
                        R"({"a":{"x":[1,{"y":2}]},"b":[{"c":{"d":{}}},{"e":1}],"a":{"z":3},"f":4})",
                        R"({"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,)"
                        R"("k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":{"n":[1]},)"
                        R"("k3":{"again":true},"k17":17})"};
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

// Peer input is parsed only through tooluse::parse_json (bounded). An unbounded json::parse is
// allowed only where the text is the program's own: schema literals, the embedded metaschema,
// rows tooluse wrote to its own run store. A new call site must be added here with its reason.
TEST(json_limits, unbounded_json_parse_appears_only_on_trusted_text) {
  namespace fs = std::filesystem;
  const std::map<std::string, std::string> allowed = {
      {"src/schema/compiler_metaschema.cpp", "the metaschema compiled into the binary"},
      {"src/store/queue.cpp", "rows tooluse wrote to its own queue"},
      {"src/store/store.cpp", "rows tooluse wrote to its own journal"},
      {"apps/tooluse/conventions.cpp",
       "re-reads, for the error's line and column, text parse_json already bounded and refused as a syntax error"},
  };
  std::vector<std::string> offenders;
  const fs::path root = fs::path(TOOLUSE_SOURCE_DIR);
  for (const auto& dir : {"src", "apps"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (!e.is_regular_file() || (e.path().extension() != ".cpp" && e.path().extension() != ".hpp")) continue;
      std::ifstream in(e.path());
      std::string line;
      int n = 0;
      const std::string rel = fs::relative(e.path(), root).string();
      while (std::getline(in, line)) {
        ++n;
        auto p = line.find("json::parse(");
        if (p == std::string::npos) continue;
        // A raw string literal schema on the same line is the program's own text.
        if (line.find("json::parse(R\"", p) == p) continue;
        if (allowed.count(rel)) continue;
        offenders.push_back(rel + ":" + std::to_string(n) + ": " + line);
      }
    }
  }
  EXPECT_TRUE(offenders.empty()) << "use tooluse::parse_json for peer input (docs/limits.md):\n"
                                 << [&] {
                                      std::string s;
                                      for (auto& o : offenders) s += o + "\n";
                                      return s;
                                    }();
}
