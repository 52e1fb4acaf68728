// json_reader reads a document in place; whatever it reads, and every value it builds, must be
// what parse_json builds for the same text under the same limits. Anything it cannot read
// that way it declines, and the caller's parse_json decides.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tooluse/json_view.hpp"
#include "support/json_same.hpp"

namespace tooluse {
namespace {

// expect_view_matches: `v` and every value inside it build what parse_json built (`built`),
// where `v`'s members are unique (parse_json merges duplicates into one member).
void expect_view_matches(json_view v, const json& built) {
  auto value = v.to_json();
  ASSERT_TRUE(value.has_value()) << dump_json(built);
  EXPECT_TRUE(testing::json_same(*value, built)) << dump_json(*value) << " vs " << dump_json(built);
  if (v.is_object()) {
    std::set<std::string_view> keys;
    for (auto [key, member] : v.members()) keys.insert(key);
    EXPECT_EQ(v.size(), std::size_t(std::distance(v.members().begin(), v.members().end())));
    if (keys.size() != v.size()) return;  // duplicates: the whole object was compared above
    for (auto [key, member] : v.members()) {
      ASSERT_TRUE(built.contains(key)) << key;
      expect_view_matches(member, built.at(std::string(key)));
    }
  } else if (v.is_array()) {
    ASSERT_EQ(v.size(), built.size());
    std::size_t i = 0;
    for (json_view element : v.elements()) expect_view_matches(element, built.at(i++));
  } else if (v.is_string()) {
    EXPECT_EQ(v.string(), built.get_ref<const std::string&>());
  } else {
    EXPECT_EQ(v.size(), 0u);
    EXPECT_TRUE(v.string().empty());
  }
}

// expect_read_agrees: when the reader takes `text`, parse_json builds the same value from it;
// returns whether it took it.
bool expect_read_agrees(json_reader& reader, std::string_view text, const json_limits& limits = {}) {
  SCOPED_TRACE(std::string(text.substr(0, 200)));
  auto view = reader.read(text, limits);
  auto parsed = parse_json(text, limits);
  if (!view) return false;
  EXPECT_TRUE(parsed.has_value()) << "read a document parse_json refuses: " << parsed.error().message;
  if (parsed) expect_view_matches(*view, *parsed);
  return true;
}

TEST(JsonView, ReadsARequestsMembersInPlace) {
  json_reader reader;
  std::string text =
      R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"calc\u00e9",)"
      R"("arguments":{"expression":"1+1","n":[1,-2,2.5,true,null]}}})";
  auto root = reader.read(text);
  ASSERT_TRUE(root.has_value());
  EXPECT_EQ(root->type(), json_view::kind::object);
  EXPECT_EQ(root->size(), 4u);
  std::vector<std::string_view> keys;
  std::optional<json_view> params;
  for (auto [key, value] : root->members()) {
    keys.push_back(key);
    if (key == "id") {
      EXPECT_EQ(value.type(), json_view::kind::integer);
    }
    if (key == "method") {
      EXPECT_EQ(value.string(), "tools/call");
    }
    if (key == "params") params = value;
  }
  EXPECT_EQ(keys, (std::vector<std::string_view>{"jsonrpc", "id", "method", "params"}));
  ASSERT_TRUE(params.has_value());
  std::optional<json> arguments;
  for (auto [key, value] : params->members()) {
    if (key == "name") {
      EXPECT_EQ(value.string(), "calc\xc3\xa9");
    }
    if (key == "arguments") arguments = value.to_json();
  }
  ASSERT_TRUE(arguments.has_value());
  EXPECT_EQ(*arguments, json::parse(R"({"expression":"1+1","n":[1,-2,2.5,true,null]})"));
  EXPECT_TRUE((*arguments)["n"][0].is_number_unsigned());  // as parse_json types it
  EXPECT_FALSE((*arguments)["n"][1].is_number_unsigned());
  expect_read_agrees(reader, text);
}

// With simdjson's read-ahead to spare past its end, a text is parsed where it is; either way
// the views hold nothing of it.
TEST(JsonView, ReadsWhereTheTextIsWhenItHasRoomToSpare) {
  json_reader reader;
  const std::string original = R"({"name":"echo","arguments":{"text":"hi","n":[1,2]}})";
  for (std::size_t spare : {0u, 63u, 64u, 200u}) {
    SCOPED_TRACE(spare);
    std::string text = original;
    text.reserve(text.size() + spare);
    auto root = reader.read(text, text.capacity(), default_json_limits());
    ASSERT_TRUE(root.has_value());
    text.replace(0, text.size(), std::string(text.size(), ' '));  // the text is gone
    std::string_view name;
    for (auto [key, value] : root->members())
      if (key == "name") name = value.string();
    EXPECT_EQ(name, "echo");
    EXPECT_EQ(root->to_json(), json::parse(original));
  }
}

TEST(JsonView, KindsOfEveryScalar) {
  json_reader reader;
  auto root = reader.read(R"([null,true,0,-1,18446744073709551615,1.5,1e2,"s",[],{}])");
  ASSERT_TRUE(root.has_value());
  std::vector<json_view::kind> kinds;
  for (json_view v : root->elements()) kinds.push_back(v.type());
  using k = json_view::kind;
  EXPECT_EQ(kinds, (std::vector<k>{k::null, k::boolean, k::integer, k::integer, k::integer, k::number,
                                   k::number, k::string, k::array, k::object}));
  // A scalar has no members or elements, and a container no text.
  for (json_view v : root->elements()) {
    if (v.is_array() || v.is_object()) {
      EXPECT_TRUE(v.string().empty());
    } else {
      EXPECT_TRUE(v.members().begin() == v.members().end());
    }
    if (!v.is_array()) {
      EXPECT_TRUE(v.elements().begin() == v.elements().end());
    }
  }
}

// Declined: everything parse_json refuses, and what it builds through nlohmann's parser.
TEST(JsonView, DeclinesWhatParseJsonMustDecide) {
  json_reader reader;
  for (const char* text : {"", "[1,]", "{\"a\"}", "nul", "[1] x", "\"\xff\"", "01",
                           "18446744073709551616", "[1e400]"}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(reader.read(text).has_value());
  }
  // A document larger than 64 KiB, or than the limit.
  std::string big = "[\"" + std::string(70'000, 'x') + "\"]";
  EXPECT_FALSE(reader.read(big).has_value());
  EXPECT_TRUE(parse_json(big).has_value());  // parse_json takes it (through nlohmann's parser)
  EXPECT_FALSE(reader.read("[1,2,3]", json_limits{.max_depth = 8, .max_bytes = 6, .max_values = 100}));
  EXPECT_TRUE(reader.read("[1,2,3]", json_limits{.max_depth = 8, .max_bytes = 7, .max_values = 100}));
}

// Depth: a document nested deeper than max_depth containers is declined, as parse_json refuses
// it, with the limits of each read (the reader's parser changes its depth as they change).
// simdjson counts a scalar inside the deepest container as one more level, so a document of
// exactly max_depth containers is read when its deepest ones are empty, and otherwise declined
// (parse_json takes it).
TEST(JsonView, DepthLimitIsParseJsonsForEachRead) {
  json_reader reader;
  for (std::size_t max_depth : {1u, 4u, 40u, 128u, 4u}) {
    json_limits limits{.max_depth = max_depth, .max_bytes = 1 << 20, .max_values = 10'000};
    auto nested = [](std::size_t n, const char* inside) { return std::string(n, '[') + inside + std::string(n, ']'); };
    SCOPED_TRACE(max_depth);
    EXPECT_TRUE(expect_read_agrees(reader, nested(max_depth, ""), limits));
    EXPECT_TRUE(expect_read_agrees(reader, nested(max_depth - 1, "1"), limits));
    EXPECT_FALSE(reader.read(nested(max_depth, "1"), limits).has_value());
    EXPECT_TRUE(parse_json(nested(max_depth, "1"), limits).has_value());
    for (const char* inside : {"", "1"}) {
      EXPECT_FALSE(reader.read(nested(max_depth + 1, inside), limits).has_value());
      EXPECT_FALSE(parse_json(nested(max_depth + 1, inside), limits).has_value());
    }
  }
  // A view deep inside builds with the depth that remains (past the direct builder's 32 levels).
  std::string deep;
  for (int i = 0; i < 60; ++i) deep += R"({"k":)";
  deep += "[0,-1,2.5]" + std::string(60, '}');
  EXPECT_TRUE(expect_read_agrees(reader, deep));
}

// Values: a document with more than max_values values is declined (parse_json refuses it);
// one with as many may be read, and if so builds the same.
TEST(JsonView, ValueLimitIsNeverExceeded) {
  json_reader reader;
  json_limits limits{.max_depth = 8, .max_bytes = 4096, .max_values = 8};
  EXPECT_FALSE(reader.read("[1,2,3,4,5,6,7,8]", limits).has_value());
  EXPECT_FALSE(parse_json("[1,2,3,4,5,6,7,8]", limits).has_value());
  expect_read_agrees(reader, "[1,2,3]", limits);
  expect_read_agrees(reader, R"({"a":"b"})", limits);
}

// simdjson reads "-0" as the integer 0, which parse_json keeps signed: in a document with a
// "-0", no zero is built (a zero elsewhere could be its twin). A "-0" inside a date is no number.
TEST(JsonView, ZerosAreBuiltOnlyWhenNoMinusZeroCanBeTheirTwin) {
  json_reader reader;
  for (const char* text : {"-0", "[-0]", R"({"a":-0,"b":1})", R"({"a":0,"b":"-0"})", "[0, -0]", "\xef\xbb\xbf-0"}) {
    SCOPED_TRACE(text);
    auto root = reader.read(text);
    if (!root) continue;  // simdjson refuses the byte order mark
    EXPECT_FALSE(root->to_json().has_value());
    EXPECT_TRUE(parse_json(text).has_value());
  }
  auto mixed = reader.read(R"({"a":-0,"b":[1,"x"]})");
  ASSERT_TRUE(mixed.has_value());
  for (auto [key, value] : mixed->members()) {
    if (key == "b") {
      EXPECT_EQ(value.to_json(), json::parse(R"([1,"x"])"));  // no zero in it
    }
  }
  for (const char* text : {R"({"v":"2026-07-28","n":0})", R"([1e-0,0])", R"([-0.5,0])", R"(["a-0",0])"}) {
    SCOPED_TRACE(text);
    EXPECT_TRUE(expect_read_agrees(reader, text));
  }
}

// A float -0.0 is read but not built: parse_json keeps its sign through nlohmann's parser.
TEST(JsonView, MinusZeroFloatIsLeftToParseJson) {
  json_reader reader;
  auto root = reader.read(R"({"a":-0.0,"b":[1]})");
  ASSERT_TRUE(root.has_value());
  EXPECT_FALSE(root->to_json().has_value());
  for (auto [key, value] : root->members()) {
    if (key == "a") {
      EXPECT_FALSE(value.to_json().has_value());
    }
    if (key == "b") {
      EXPECT_EQ(value.to_json(), json::parse("[1]"));
    }
  }
}

// Duplicate keys are listed as they come; the object built is parse_json's (first place, last
// value).
TEST(JsonView, DuplicateKeysAreListedAndBuiltAsParseJsonBuildsThem) {
  json_reader reader;
  std::string text = R"({"a":1,"b":2,"a":{"x":[3]}})";
  auto root = reader.read(text);
  ASSERT_TRUE(root.has_value());
  std::vector<std::string_view> keys;
  for (auto [key, value] : root->members()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string_view>{"a", "b", "a"}));
  EXPECT_TRUE(expect_read_agrees(reader, text));
  for (std::size_t n : {31u, 33u, 40u}) {  // each side of the direct builder's member limit
    std::string wide = "{";
    for (std::size_t i = 0; i < n; ++i) wide += "\"k" + std::to_string(i % 20) + "\":" + std::to_string(i) + ",";
    wide += R"("z":null})";
    EXPECT_TRUE(expect_read_agrees(reader, wide));
  }
}

// The example in docs/limits.md, as written there.
std::optional<json> arguments_of(const std::string& body) {
  std::optional<json> arguments;
  tooluse::json_reader reader;  // one per thread
  if (auto doc = reader.read(body)) {
    for (auto [key, value] : doc->members())
      if (key == "arguments") arguments = value.to_json();  // nullopt: use parse_json
  } else {
    auto parsed = tooluse::parse_json(body);  // the value, or the error naming the limit
    if (parsed && parsed->contains("arguments")) arguments = (*parsed)["arguments"];
  }
  return arguments;
}

TEST(JsonView, TheDocumentedExampleReadsOrFallsBack) {
  EXPECT_EQ(arguments_of(R"({"name":"calc","arguments":{"x":1}})"), json::parse(R"({"x":1})"));
  EXPECT_EQ(arguments_of(R"({"name":"calc","arguments":{"x":123456789012345678901234567890}})"),
            json::parse(R"({"x":123456789012345678901234567890})"));  // declined: parse_json's float
  EXPECT_EQ(arguments_of(R"({"name":"calc"})"), std::nullopt);
}

// Every JSON document in tests/data (and each line of BFCL's JSON Lines files) that the reader
// takes builds what parse_json builds, at every level.
TEST(JsonView, EveryDocumentInTheTestDataAgrees) {
  namespace fs = std::filesystem;
  json_reader reader;
  std::size_t read = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(TOOLUSE_SOURCE_DIR) / "tests" / "data")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    SCOPED_TRACE(entry.path().string());
    if (expect_read_agrees(reader, text)) ++read;
    if (parse_json(text)) continue;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
      if (!line.empty() && expect_read_agrees(reader, line)) ++read;
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(read, 1000u);
}

}  // namespace
}  // namespace tooluse
