// TOOLUSE_WIRE: the codec's wire mode (unknown fields ignored or kept, wire names, paths).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "tooluse/describe.hpp"

namespace wire_codec {

using tooluse::json;

struct item {
  std::string uri;
  std::optional<std::string> mime_type;
};
TOOLUSE_WIRE(item, (uri), (mime_type, "mimeType"))

struct params {
  std::string name;
  std::optional<json> arguments;
  std::optional<json> meta;
  std::optional<std::string> cursor;
  std::vector<item> items;
  int limit = 10;
};
TOOLUSE_WIRE(params, (name), (arguments), (meta, "_meta"), (cursor),
             (items, "items", tooluse::default_value(json::array())), (limit))

struct open_params {
  std::string name;
  json other;
};
TOOLUSE_WIRE(open_params, (name), (other, tooluse::other_fields))

// A strict type beside them: TOOLUSE_DESCRIBE keeps refusing unknown properties.
struct strict_args {
  std::string name;
};
TOOLUSE_DESCRIBE(strict_args, (name))

std::string error_of(const json& j) {
  auto r = tooluse::decode<params>(j, "params");
  if (r) return "(decoded)";
  EXPECT_EQ(r.error().code, tooluse::errc::invalid_argument);
  return r.error().message;
}

TEST(wire_codec, ignores_unknown_properties) {
  auto r = tooluse::decode<params>(json{{"name", "add"}, {"future", 1}, {"task", {{"ttl", 5}}}},
                                   "params");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->name, "add");
  EXPECT_EQ(r->limit, 10);
  EXPECT_TRUE(r->items.empty());
  EXPECT_FALSE(r->cursor.has_value());
}

TEST(wire_codec, strict_types_still_refuse_unknown_properties) {
  auto r = tooluse::decode<strict_args>(json{{"name", "a"}, {"nmae", "b"}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "arguments: unknown property \"nmae\"; expected: name");
}

TEST(wire_codec, reads_and_writes_wire_names) {
  json in = {{"name", "x"},
             {"_meta", {{"progressToken", 7}}},
             {"items", {{{"uri", "a://1"}, {"mimeType", "text/plain"}}}}};
  auto r = tooluse::decode<params>(in, "params");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->meta);
  EXPECT_EQ((*r->meta)["progressToken"], 7);
  ASSERT_EQ(r->items.size(), 1u);
  EXPECT_EQ(r->items[0].mime_type, "text/plain");
  json out = tooluse::encode(*r);
  EXPECT_EQ(out["_meta"], in["_meta"]);
  EXPECT_EQ(out["items"][0]["mimeType"], "text/plain");
  EXPECT_FALSE(out.contains("meta"));
  EXPECT_FALSE(out.contains("mime_type"));
}

TEST(wire_codec, passes_json_members_through_untouched) {
  json args = {{"b", 1}, {"a", {{"deep", {1, "two", nullptr}}}}};
  auto r = tooluse::decode<params>(json{{"name", "x"}, {"arguments", args}}, "params");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->arguments);
  EXPECT_EQ(r->arguments->dump(), args.dump());  // same keys in the same order
}

TEST(wire_codec, null_means_absent_for_optionals_and_absent_is_not_encoded) {
  auto r = tooluse::decode<params>(json{{"name", "x"}, {"cursor", nullptr}}, "params");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->cursor.has_value());
  json out = tooluse::encode(*r);
  EXPECT_FALSE(out.contains("cursor"));
  EXPECT_FALSE(out.contains("_meta"));
  EXPECT_EQ(out["name"], "x");
}

TEST(wire_codec, errors_name_the_path) {
  EXPECT_EQ(error_of(json{{"name", 3}}), "params.name: expected string, got integer 3");
  EXPECT_EQ(error_of(json{{"arguments", json::object()}}),
            "params: missing required property \"name\"");
  EXPECT_EQ(error_of(json{{"name", "x"}, {"cursor", false}}),
            "params.cursor: expected string, got boolean false");
  EXPECT_EQ(error_of(json{{"name", "x"}, {"items", {{{"uri", "a"}}, {{"uri", 2}}}}}),
            "params.items[1].uri: expected string, got integer 2");
  EXPECT_EQ(error_of(json{{"name", "x"}, {"_meta", nullptr}, {"items", {{{"mimeType", "x"}}}}}),
            "params.items[0]: missing required property \"uri\"");
  EXPECT_EQ(error_of(json::array()), "params: expected object, got array");
}

TEST(wire_codec, other_fields_keeps_what_the_type_does_not_declare) {
  json in = {{"name", "x"}, {"z", 1}, {"_meta", {{"k", true}}}};
  auto r = tooluse::decode<open_params>(in, "params");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->other, (json{{"z", 1}, {"_meta", {{"k", true}}}}));
  json out = tooluse::encode(*r);
  EXPECT_EQ(out, in);
  r->other["name"] = "ignored";  // never overrides a declared field
  EXPECT_EQ(tooluse::encode(*r)["name"], "x");
}

TEST(wire_codec, schema_allows_other_properties_and_uses_wire_names) {
  json s = tooluse::schema_for<params>();
  EXPECT_FALSE(s.contains("additionalProperties"));
  EXPECT_TRUE(s["properties"].contains("_meta"));
  EXPECT_EQ(s["required"], json::array({"name"}));
  json o = tooluse::schema_for<open_params>();
  EXPECT_FALSE(o["properties"].contains("other"));
  EXPECT_EQ(tooluse::schema_for<strict_args>()["additionalProperties"], false);
}

TEST(wire_codec, nlohmann_conversions_work_for_wire_types) {
  item i = json{{"uri", "u"}, {"mimeType", "m"}, {"size", 3}}.get<item>();
  EXPECT_EQ(i.uri, "u");
  EXPECT_EQ(json(i), (json{{"uri", "u"}, {"mimeType", "m"}}));
}

}  // namespace wire_codec
