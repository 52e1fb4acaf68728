// json_object / add_member (tooluse/json_build.hpp): the same value an initializer list builds,
// members in the order added.
#include <gtest/gtest.h>

#include "tooluse/json_build.hpp"

namespace tooluse {
namespace {

TEST(JsonBuild, BuildsWhatAnInitializerListBuilds) {
  json j = json_object(3);
  add_member(j, "jsonrpc", "2.0");
  add_member(j, "id", 7);
  json& result = add_member(j, "result", json_object(1));
  add_member(result, "content", json::array({json{{"type", "text"}, {"text", "2"}}}));
  json expected = {{"jsonrpc", "2.0"}, {"id", 7}, {"result", {{"content", {{{"type", "text"}, {"text", "2"}}}}}}};
  EXPECT_EQ(j, expected);
  EXPECT_EQ(dump_json(j), R"({"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"2"}]}})");
}

TEST(JsonBuild, AnEmptyObjectIsAnObjectAndMembersKeepTheirOrder) {
  json j = json_object(0);
  EXPECT_TRUE(j.is_object());
  EXPECT_EQ(dump_json(j), "{}");
  for (const char* k : {"z", "a", "m"}) add_member(j, k, k);  // more than reserved: it grows
  EXPECT_EQ(dump_json(j), R"({"z":"z","a":"a","m":"m"})");
  EXPECT_EQ(j["a"], "a");  // lookups find what add_member put
}

TEST(JsonBuild, AddingToANonObjectIsATypeError) {
  json arr = json::array();
  EXPECT_THROW(add_member(arr, "k", 1), json::type_error);
  json null_value;
  EXPECT_THROW(add_member(null_value, "k", 1), json::type_error);
}

TEST(JsonBuild, ReleaseLeavesAnEmptyContainerAndScalarsAlone) {
  json j = {{"a", {1, {{"b", "text"}}, json::array()}}, {"c", {{"d", {{"e", nullptr}}}}}};
  release_json(j);
  EXPECT_TRUE(j.is_object());
  EXPECT_TRUE(j.empty());
  json arr = json::array({json::array({1, 2}), "x"});
  release_json(arr);
  EXPECT_EQ(arr, json::array());
  json s = "kept";
  release_json(s);
  EXPECT_EQ(s, "kept");
}

TEST(JsonBuild, ReleaseLeavesWhatNestsDeeperThanItsDepthToTheDestructor) {
  // 10,000 levels: recursion stops at `depth`, the destructor (iterative) frees the rest.
  json deep = json::array();
  for (int i = 0; i < 10000; ++i) deep = json::array({std::move(deep)});
  json doc = {{"deep", std::move(deep)}};
  release_json(doc, 4);
  EXPECT_TRUE(doc.empty());
}

}  // namespace
}  // namespace tooluse
