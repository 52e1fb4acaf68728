// URI reference resolution for $id and $ref: every example of RFC 3986 section 5.4 (normal and
// abnormal), fragments, percent-decoding and JSON pointers; then the same rules seen through a
// compiled validator ($id with dot segments, $ref with a query, an empty fragment).
#include <gtest/gtest.h>

#include "schema/schema_impl.hpp"
#include "tooluse/schema/validator.hpp"

namespace tooluse::schema {
namespace {

using detail::percent_decode;
using detail::resolve_pointer;
using detail::resolve_uri;
using detail::split_fragment;

constexpr std::string_view rfc_base = "http://a/b/c/d;p?q";

TEST(uri_resolution, rfc3986_normal_examples) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"g:h", "g:h"},
      {"g", "http://a/b/c/g"},
      {"./g", "http://a/b/c/g"},
      {"g/", "http://a/b/c/g/"},
      {"/g", "http://a/g"},
      {"//g", "http://g"},
      {"?y", "http://a/b/c/d;p?y"},
      {"g?y", "http://a/b/c/g?y"},
      {"#s", "http://a/b/c/d;p?q#s"},
      {"g#s", "http://a/b/c/g#s"},
      {"g?y#s", "http://a/b/c/g?y#s"},
      {";x", "http://a/b/c/;x"},
      {"g;x", "http://a/b/c/g;x"},
      {"g;x?y#s", "http://a/b/c/g;x?y#s"},
      {"", "http://a/b/c/d;p?q"},
      {".", "http://a/b/c/"},
      {"./", "http://a/b/c/"},
      {"..", "http://a/b/"},
      {"../", "http://a/b/"},
      {"../g", "http://a/b/g"},
      {"../..", "http://a/"},
      {"../../", "http://a/"},
      {"../../g", "http://a/g"},
  };
  for (const auto& [ref, want] : cases) EXPECT_EQ(resolve_uri(rfc_base, ref), want) << ref;
}

TEST(uri_resolution, rfc3986_abnormal_examples) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"../../../g", "http://a/g"},
      {"../../../../g", "http://a/g"},
      {"/./g", "http://a/g"},
      {"/../g", "http://a/g"},
      {"g.", "http://a/b/c/g."},
      {".g", "http://a/b/c/.g"},
      {"g..", "http://a/b/c/g.."},
      {"..g", "http://a/b/c/..g"},
      {"./../g", "http://a/b/g"},
      {"./g/.", "http://a/b/c/g/"},
      {"g/./h", "http://a/b/c/g/h"},
      {"g/../h", "http://a/b/c/h"},
      {"g;x=1/./y", "http://a/b/c/g;x=1/y"},
      {"g;x=1/../y", "http://a/b/c/y"},
      {"g?y/./x", "http://a/b/c/g?y/./x"},
      {"g?y/../x", "http://a/b/c/g?y/../x"},
      {"g#s/./x", "http://a/b/c/g#s/./x"},
      {"g#s/../x", "http://a/b/c/g#s/../x"},
      {"http:g", "http:g"},
  };
  for (const auto& [ref, want] : cases) EXPECT_EQ(resolve_uri(rfc_base, ref), want) << ref;
}

TEST(uri_resolution, authorities_without_a_path_urns_and_empty_fragments) {
  EXPECT_EQ(resolve_uri("http://example.com", "schema.json"), "http://example.com/schema.json");
  EXPECT_EQ(resolve_uri("http://example.com/a/b.json", "//other.org/x/../y"), "http://other.org/y");
  EXPECT_EQ(resolve_uri("urn:example:root", "#/$defs/a"), "urn:example:root#/$defs/a");
  EXPECT_EQ(resolve_uri("tooluse:///schema.json", "item.json"), "tooluse:///item.json");
  EXPECT_EQ(resolve_uri("http://a/b/c.json", "d.json#"), "http://a/b/d.json");  // "#" alone: no fragment
  EXPECT_EQ(resolve_uri("relative/base.json", "other.json"), "relative/other.json");
  EXPECT_EQ(resolve_uri("base", "x"), "x");
  EXPECT_EQ(resolve_uri("http://a/b?q", "#f"), "http://a/b?q#f");
}

TEST(uri_resolution, fragments_split_at_the_first_hash) {
  EXPECT_EQ(split_fragment("http://a/b#c#d"), std::make_pair(std::string("http://a/b"), std::string("c#d")));
  EXPECT_EQ(split_fragment("http://a/b"), std::make_pair(std::string("http://a/b"), std::string()));
  EXPECT_EQ(split_fragment("#"), std::make_pair(std::string(), std::string()));
}

TEST(uri_resolution, percent_decoding_keeps_invalid_escapes) {
  EXPECT_EQ(percent_decode("a%20b%2Fc%7e"), "a b/c~");
  EXPECT_EQ(percent_decode("100%"), "100%");
  EXPECT_EQ(percent_decode("%zz%4"), "%zz%4");
  EXPECT_EQ(percent_decode("%25"), "%");
  EXPECT_EQ(percent_decode(""), "");
}

TEST(uri_resolution, json_pointers_follow_objects_and_arrays) {
  json doc = json::parse(R"({"a":{"b/c":[10,{"~k":true}]},"":{"x":1},"list":[0,1,2,3,4,5,6,7,8,9,10],"t~2":5})");
  ASSERT_NE(resolve_pointer(doc, ""), nullptr);
  EXPECT_EQ(*resolve_pointer(doc, ""), doc);
  EXPECT_EQ(*resolve_pointer(doc, "/a/b~1c/0"), 10);
  EXPECT_EQ(*resolve_pointer(doc, "/a/b~1c/1/~0k"), true);
  EXPECT_EQ(*resolve_pointer(doc, "//x"), 1);  // the empty key
  EXPECT_EQ(*resolve_pointer(doc, "/list/10"), 10);
  for (std::string bad : {"a", "/missing", "/list/01", "/list/-", "/list/11", "/list/", "/a/b~1c/0/x",
                          "/list/1234567890", "/list/+1"}) {
    EXPECT_EQ(resolve_pointer(doc, bad), nullptr) << bad;
  }
  ASSERT_NE(resolve_pointer(doc, "/t~2"), nullptr);  // an unknown escape stays as written
  EXPECT_EQ(*resolve_pointer(doc, "/t~2"), 5);
}

TEST(uri_resolution, ids_with_dot_segments_and_refs_with_queries_resolve_in_a_schema) {
  json s = json::parse(R"({
    "$id": "http://example.com/root/main.json",
    "$defs": {
      "a": {"$id": "../shared/./a.json", "type": "integer"},
      "b": {"$id": "b.json?v=2", "type": "string"}
    },
    "properties": {
      "x": {"$ref": "http://example.com/shared/a.json"},
      "y": {"$ref": "b.json?v=2"},
      "z": {"$ref": "../root/main.json#/$defs/b"}
    }
  })");
  auto v = validator::compile(s);
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_TRUE(v->is_valid(json::parse(R"({"x": 1, "y": "s", "z": "t"})")));
  auto errors = v->validate(json::parse(R"({"x": "one", "y": 2, "z": 3})"));
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0].path, "arguments.x");
  EXPECT_EQ(errors[1].path, "arguments.y");
  EXPECT_EQ(errors[2].path, "arguments.z");
  for (const auto& e : errors) EXPECT_EQ(e.keyword, "type") << e.path;
}

TEST(uri_resolution, a_ref_with_a_query_that_differs_does_not_resolve) {
  json s = json::parse(R"({
    "$id": "http://example.com/main.json",
    "$defs": {"b": {"$id": "b.json?v=2", "type": "string"}},
    "properties": {"y": {"$ref": "b.json?v=3"}}
  })");
  auto v = validator::compile(s);
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, errc::schema_error);
  EXPECT_NE(v.error().message.find("b.json?v=3"), std::string::npos) << v.error().message;
}

TEST(uri_resolution, percent_encoded_pointer_fragments_reach_their_keys) {
  json s = json::parse(R"({
    "$defs": {"a b": {"type": "integer"}, "c%d": {"type": "boolean"}, "e/f": {"type": "string"}},
    "properties": {
      "p": {"$ref": "#/$defs/a%20b"},
      "q": {"$ref": "#/$defs/c%25d"},
      "r": {"$ref": "#/$defs/e~1f"}
    }
  })");
  auto v = validator::compile(s);
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_TRUE(v->is_valid(json::parse(R"({"p": 1, "q": true, "r": "s"})")));
  EXPECT_FALSE(v->is_valid(json::parse(R"({"p": "1"})")));
  EXPECT_FALSE(v->is_valid(json::parse(R"({"q": 1})")));
  EXPECT_FALSE(v->is_valid(json::parse(R"({"r": 1})")));
}

}  // namespace
}  // namespace tooluse::schema
