// tool_result, content blocks and tool definitions as JSON (MCP's CallToolResult and Tool
// shapes), and tool_call::from_text: every block type round-trips, malformed input is a
// protocol error naming the field, and only the policy that was set is written.
#include <gtest/gtest.h>

#include "tooluse/tools/tool.hpp"
#include "tooluse/tools/tool_call.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse {
namespace {

TEST(tool_result_shapes, factories_set_text_error_and_structured_content) {
  auto t = tool_result::text("hi");
  EXPECT_FALSE(t.is_error);
  EXPECT_EQ(t.all_text(), "hi");
  auto e = tool_result::error("bad");
  EXPECT_TRUE(e.is_error);
  EXPECT_EQ(e.all_text(), "bad");
  auto s = tool_result::structured(json::parse(R"({"b": 1, "a": [true]})"));
  EXPECT_EQ(s.all_text(), R"({"b":1,"a":[true]})");
  ASSERT_TRUE(s.structured_content.has_value());
  EXPECT_EQ((*s.structured_content)["a"][0], true);
}

TEST(tool_result_shapes, all_text_joins_only_text_blocks) {
  tool_result r;
  r.content = {text_content{"one"}, image_content{"AAAA", "image/png"}, text_content{""},
               resource_link{"file:///x", "x"}, text_content{"three"}};
  EXPECT_EQ(r.all_text(), "one\n\nthree");  // an empty text after another still adds a line
  tool_result empty;
  EXPECT_EQ(empty.all_text(), "");
  tool_result leading_empty;
  leading_empty.content = {text_content{""}, text_content{"x"}};
  EXPECT_EQ(leading_empty.all_text(), "x");
}

TEST(tool_result_shapes, every_block_type_round_trips) {
  std::vector<content_block> blocks = {
      text_content{"hello"},
      image_content{"iVBORw0KGgo=", "image/png"},
      audio_content{"UklGRg==", "audio/wav"},
      resource_link{"file:///tmp/a.txt", "a.txt", "A", "the file", "text/plain", 42},
      resource_link{"https://x.test/", "x", "", "", "", std::nullopt},
      embedded_resource{"file:///b", "text/plain", std::string("body"), std::nullopt},
      embedded_resource{"file:///c", "", std::nullopt, std::string("AAEC")},
  };
  for (const auto& b : blocks) {
    json j = content_to_json(b);
    auto back = content_from_json(j);
    ASSERT_TRUE(back.has_value()) << j.dump() << ": " << back.error().message;
    EXPECT_TRUE(*back == b) << j.dump();
  }
  EXPECT_EQ(content_to_json(blocks[3]),
            json::parse(R"({"type": "resource_link", "uri": "file:///tmp/a.txt", "name": "a.txt",
                            "title": "A", "description": "the file", "mimeType": "text/plain", "size": 42})"));
  EXPECT_EQ(content_to_json(blocks[4]),
            json::parse(R"({"type": "resource_link", "uri": "https://x.test/", "name": "x"})"));
  EXPECT_EQ(content_to_json(blocks[6]),
            json::parse(R"({"type": "resource", "resource": {"uri": "file:///c", "blob": "AAEC"}})"));
}

TEST(tool_result_shapes, malformed_blocks_are_protocol_errors) {
  auto expect_error = [](const char* text, const std::string& message) {
    auto b = content_from_json(json::parse(text));
    ASSERT_FALSE(b.has_value()) << text;
    EXPECT_EQ(b.error().code, errc::protocol_error);
    EXPECT_EQ(b.error().message, message);
  };
  expect_error("[]", "content block must be an object");
  expect_error(R"({"type": "text"})", "text content block needs a string \"text\"");
  expect_error(R"({"type": "text", "text": 3})", "text content block needs a string \"text\"");
  expect_error(R"({"type": "resource"})", "resource content block needs a \"resource\" object");
  expect_error(R"({"type": "resource", "resource": "x"})",
               "resource content block needs a \"resource\" object");
  expect_error(R"({"type": "video"})", "unknown content block type \"video\"");
  expect_error(R"({"text": "no type"})", "unknown content block type \"\"");
}

TEST(tool_result_shapes, lenient_fields_take_defaults) {
  auto image = content_from_json(json::parse(R"({"type": "image", "data": 5})"));
  ASSERT_TRUE(image.has_value());
  EXPECT_TRUE(*image == content_block(image_content{"", ""}));
  auto link = content_from_json(json::parse(R"({"type": "resource_link", "uri": "u", "size": 1.5})"));
  ASSERT_TRUE(link.has_value());
  EXPECT_FALSE(std::get<resource_link>(*link).size.has_value());
}

TEST(tool_result_shapes, results_round_trip_through_call_tool_result_json) {
  tool_result r = tool_result::error("failed");
  r.structured_content = json::parse(R"({"code": 7})");
  r.meta = json::parse(R"({"truncated": {"bytes": 10}})");
  r.content.push_back(image_content{"AA==", "image/gif"});
  json j = result_to_json(r);
  EXPECT_EQ(j, json::parse(R"({"content": [{"type": "text", "text": "failed"},
                                          {"type": "image", "data": "AA==", "mimeType": "image/gif"}],
                              "structuredContent": {"code": 7}, "isError": true,
                              "_meta": {"truncated": {"bytes": 10}}})"));
  auto back = result_from_json(j);
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(back->is_error);
  EXPECT_EQ(back->content, r.content);
  EXPECT_EQ(back->structured_content, r.structured_content);
  EXPECT_EQ(back->meta, r.meta);
  EXPECT_EQ(result_to_json(tool_result::text("ok")), json::parse(R"({"content": [{"type": "text", "text": "ok"}]})"));
}

TEST(tool_result_shapes, malformed_results_are_protocol_errors_and_odd_fields_are_ignored) {
  auto not_object = result_from_json(json::array());
  ASSERT_FALSE(not_object.has_value());
  EXPECT_EQ(not_object.error().message, "tool result must be an object");
  auto content = result_from_json(json::parse(R"({"content": {"type": "text"}})"));
  ASSERT_FALSE(content.has_value());
  EXPECT_EQ(content.error().message, "tool result \"content\" must be an array");
  auto bad_block = result_from_json(json::parse(R"({"content": [{"type": "text", "text": "a"}, 1]})"));
  ASSERT_FALSE(bad_block.has_value());
  EXPECT_EQ(bad_block.error().message, "content block must be an object");
  auto odd = result_from_json(json::parse(R"({"isError": "yes", "_meta": [1], "structuredContent": null})"));
  ASSERT_TRUE(odd.has_value());
  EXPECT_FALSE(odd->is_error);
  EXPECT_EQ(odd->meta, json::object());
  EXPECT_TRUE(odd->content.empty());
  ASSERT_TRUE(odd->structured_content.has_value());
  EXPECT_TRUE(odd->structured_content->is_null());
}

TEST(tool_definition_json, only_the_policy_that_was_set_is_written) {
  tool minimal{.name = "t", .description = "d"};
  EXPECT_EQ(tool_to_json(minimal),
            json::parse(R"({"name": "t", "description": "d",
                            "inputSchema": {"type": "object", "properties": {}},
                            "policy": {"dangerous": false, "sandboxed": false}})"));
  tool full{.name = "f",
            .title = "Full",
            .description = "d",
            .output_schema = json::parse(R"({"type": "object"})"),
            .annotations = {.read_only = true, .destructive = false, .idempotent = true, .open_world = false},
            .category = "cat",
            .version = "1.0",
            .tags = {"a", "b"},
            .timeout = std::chrono::milliseconds(1500),
            .rate = {.calls = 3, .window = std::chrono::milliseconds(2000)},
            .max_parallel = 2,
            .cost_per_call = 0.25,
            .dangerous = true,
            .requires_auth = true,
            .max_output_bytes = 4096,
            .coerce_arguments = true,
            .synchronous = true,
            .meta = json::parse(R"({"k": 1})"),
            .sandboxed = true,
            .memory_limit_mb = 256,
            .sandbox_policy = {.cpu_seconds = 5}};
  EXPECT_EQ(tool_to_json(full), json::parse(R"({"name": "f", "title": "Full", "description": "d",
      "inputSchema": {"type": "object", "properties": {}}, "outputSchema": {"type": "object"},
      "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true,
                      "openWorldHint": false},
      "policy": {"category": "cat", "version": "1.0", "tags": ["a", "b"], "timeout_ms": 1500,
                 "rate_limit": {"calls": 3, "window_ms": 2000}, "max_parallel": 2,
                 "cost_per_call": 0.25, "dangerous": true, "requires_auth": true,
                 "max_output_bytes": 4096, "coerce_arguments": true, "synchronous": true,
                 "sandboxed": true, "memory_limit_mb": 256,
                 "sandbox": {"memory_limit_mb": 256, "cpu_seconds": 5, "max_processes": 64,
                             "max_file_size_mb": 256, "max_open_files": 256, "tmp_size_mb": 64,
                             "min_free_disk_mb": 512, "network": false, "read": [], "write": [],
                             "by": "worker"}},
      "_meta": {"k": 1}})"));
}

TEST(tool_definition_json, names_follow_the_mcp_rule) {
  EXPECT_TRUE(is_valid_tool_name("a"));
  EXPECT_TRUE(is_valid_tool_name("math.add-2_x"));
  EXPECT_TRUE(is_valid_tool_name(std::string(128, 'z')));
  EXPECT_FALSE(is_valid_tool_name(std::string(129, 'z')));
  EXPECT_FALSE(is_valid_tool_name(""));
  EXPECT_FALSE(is_valid_tool_name("a b"));
  EXPECT_FALSE(is_valid_tool_name("a/b"));
  EXPECT_FALSE(is_valid_tool_name("caf\xc3\xa9"));
}

TEST(tool_call_from_text, parses_arguments_or_marks_them_unparsable) {
  auto c = tool_call::from_text("id1", "f", R"({"a": 1})");
  EXPECT_EQ(c.id, "id1");
  EXPECT_EQ(c.name, "f");
  EXPECT_EQ(c.arguments, json({{"a", 1}}));
  EXPECT_EQ(c.raw_arguments, R"({"a": 1})");
  EXPECT_EQ(tool_call::from_text("i", "f", "").arguments, json::object());
  EXPECT_EQ(tool_call::from_text("i", "f", " \n\t\r ").arguments, json::object());
  auto broken = tool_call::from_text("i", "f", R"({"a": )");
  EXPECT_TRUE(broken.arguments.is_null());
  EXPECT_EQ(broken.raw_arguments, R"({"a": )");
  EXPECT_EQ(tool_call::from_text("i", "f", "  [1, 2]").arguments, json::parse("[1, 2]"));
}

// append_result_json writes what dump_json(result_to_json(r)) returns, for every block type,
// structured content with floats, error results, _meta, text that is not valid UTF-8.
TEST(tool_result_shapes, appended_json_is_the_dump_of_result_to_json) {
  std::vector<tool_result> results;
  results.push_back(tool_result::text("plain"));
  results.push_back(tool_result::error("it \"failed\"\n\tbadly: \xff"));
  tool_result all;
  all.content = {text_content{"a"},
                 image_content{"iVBORw0KGgo=", "image/png"},
                 audio_content{"UklGRg==", "audio/wav"},
                 resource_link{"file:///tmp/a.txt", "a.txt", "A", "the file", "text/plain", 42},
                 embedded_resource{"file:///b", "text/plain", std::string("body"), std::nullopt},
                 text_content{"ünïcödé ☃"}};
  all.structured_content = json{{"n", 1.5}, {"list", {1, "two", nullptr, -0.25}}};
  all.meta = {{"why", "because"}, {"cost", 0.1}};
  results.push_back(all);
  results.push_back(tool_result{});  // no content at all
  tool_result flagged = tool_result::text("x");
  flagged.is_error = true;
  flagged.structured_content = json::object();
  results.push_back(flagged);
  for (const auto& r : results) {
    std::string out = "[";
    append_result_json(out, r);
    EXPECT_EQ(out, "[" + dump_json(result_to_json(r)));
  }
}

}  // namespace
}  // namespace tooluse
