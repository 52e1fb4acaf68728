// parse_json tokenizes small documents with simdjson and falls back to nlohmann's parser for
// anything simdjson refuses or would represent differently. Both paths must give one answer:
// the same value with the same node types, and the same refusal, word for word.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tooluse/json.hpp"
#include "support/json_same.hpp"

namespace tooluse {
namespace {

void expect_agreement(std::string_view text, const json_limits& limits = {}) {
  SCOPED_TRACE(std::string(text.substr(0, 200)));
  auto fast = parse_json(text, limits);
  auto reference = detail::parse_json_nlohmann(text, limits);
  ASSERT_EQ(fast.has_value(), reference.has_value())
      << (fast ? reference.error().message : fast.error().message);
  if (fast) {
    EXPECT_TRUE(tooluse::testing::json_same(*fast, *reference))
        << dump_json(*fast) << " vs " << dump_json(*reference);
  } else {
    EXPECT_EQ(fast.error().code, reference.error().code);
    EXPECT_EQ(fast.error().message, reference.error().message);
  }
}

TEST(JsonSimd, NumbersKeepNlohmannsTypes) {
  for (const char* text :
       {"0", "-0", "-0.0", "0.0", "1", "-1", "1.0", "1e2", "1E+2", "-1e-2", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "123456789012345678901234567890",
        "1.7976931348623157e308", "1e309", "-1e309", "4.9e-324", "1e-400", "0.1", "3.141592653589793",
        "[0,-0,1,-1,2.5,-0.0,18446744073709551616]", R"({"a":-0,"b":1e400})"}) {
    expect_agreement(text);
  }
  auto zero = parse_json("-0");
  ASSERT_TRUE(zero);
  EXPECT_TRUE(zero->is_number_integer());
  auto positive = parse_json("[1]");
  ASSERT_TRUE(positive);
  EXPECT_TRUE((*positive)[0].is_number_unsigned());
  auto negative = parse_json("[-1]");
  ASSERT_TRUE(negative);
  EXPECT_FALSE((*negative)[0].is_number_unsigned());
}

TEST(JsonSimd, StringsAndEscapes) {
  for (const char* text :
       {R"("")", R"("plain")", R"("a\"b\\c\/d\b\f\n\r\t")", R"("\u0000")", R"("\u00e9\u4e2d")",
        R"("\ud83d\ude00")", R"("\ud800")", R"("\udc00")", R"("\ud800\u0041")", R"("\uZZZZ")",
        "\"\xc3\xa9\"", "\"\xff\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"",
        "\"tab\there\"", "\"new\nline\"", R"("\x")", "\"a\x7f\""}) {
    expect_agreement(text);
  }
}

TEST(JsonSimd, StructureAndWhitespace) {
  for (const char* text :
       {"", " ", "null", "true", "false", "nul", "[]", "{}", "[[]]", "[1,]", "[,1]", "{\"a\"}",
        "{\"a\":}", "{\"a\":1,}", "{1:2}", " \t\r\n[ 1 , 2 ]\n ", "1 2", "[1] x", "{} {}",
        "\xef\xbb\xbf{\"bom\":true}", "\xef\xbb\xbf", "[1\x00]", "\f1", "[\"a\"\"b\"]",
        R"({"a":1,"a":2})", R"({"a":{"x":1},"b":2,"a":[3]})", R"({"":0})", "[null,true,false]",
        "{\"k\":\"v\"}garbage", "/* comment */ 1", "'single'", "NaN", "Infinity", "-", "+1",
        "01", "1.", ".5", "1e", "0x10"}) {
    expect_agreement(text);
  }
}

TEST(JsonSimd, LimitsRefuseAlikeOnBothPaths) {
  json_limits tiny{.max_depth = 4, .max_bytes = 4096, .max_values = 8};
  for (const char* text : {"[[[[1]]]]", "[[[[[1]]]]]", "[1,2,3,4,5,6,7]", "[1,2,3,4,5,6,7,8]",
                           R"({"a":{"b":{"c":{"d":1}}}})", R"({"a":{"b":{"c":{"d":{}}}}})",
                           R"({"a":1,"a":2,"a":3,"a":4,"a":5,"a":6,"a":7,"a":8})"}) {
    expect_agreement(text, tiny);
  }
  expect_agreement(std::string(200, '[') + std::string(200, ']'));
  expect_agreement(std::string(5000, '['));
  expect_agreement(std::string(5000, ' '), tiny);
}

// An object simdjson sized is built in place: its duplicates (before and after the hash index
// starts at 16 members) and a size past max_values must come out as nlohmann's.
TEST(JsonSimd, SizedObjectsWithDuplicateKeysAgree) {
  for (std::size_t n : {3u, 15u, 16u, 17u, 40u}) {
    std::string text = "{";
    for (std::size_t i = 0; i < n; ++i) text += "\"k" + std::to_string(i) + "\":[" + std::to_string(i) + "],";
    text += R"("k1":{"again":true},"k0":null,"x":[1,2,{"k0":0,"k0":1}]})";
    SCOPED_TRACE(text);
    expect_agreement(text);
    expect_agreement(text, json_limits{.max_depth = 8, .max_bytes = 4096, .max_values = 12});
  }
}

// Small, shallow documents are built straight from simdjson's tape; one nested deeper than 32
// containers, with an object of more than 32 members, or with a -0.0 anywhere is walked with
// the bounded builder instead, from the start. Each side of each boundary agrees with nlohmann,
// and so does a limit reached inside a document the direct build had begun.
TEST(JsonSimd, DirectBuildAndWalkAgreeOnEachSideOfTheirBoundaries) {
  for (std::size_t depth : {31u, 32u, 33u, 40u}) {
    std::string text = std::string(depth, '[') + "1" + std::string(depth, ']');
    expect_agreement(text);
    expect_agreement(text, json_limits{.max_depth = 32, .max_bytes = 4096, .max_values = 1000});
    std::string objects;
    for (std::size_t i = 0; i < depth; ++i) objects += "{\"k\":";
    objects += "[0,-1,2.5]" + std::string(depth, '}');
    expect_agreement(objects);
  }
  for (std::size_t n : {32u, 33u}) {
    std::string text = "{";
    for (std::size_t i = 0; i < n; ++i) text += "\"k" + std::to_string(i % 31) + "\":" + std::to_string(i) + ",";
    text += "\"last\":{\"a\":1,\"a\":[2]}}";
    expect_agreement(text);
    expect_agreement(text, json_limits{.max_depth = 8, .max_bytes = 4096, .max_values = 20});
  }
  for (const char* text : {R"({"a":[1,-0.0]})", R"({"a":[0,"-0"]})", R"([0,-0])", R"([-0,1.5])",
                           R"({"a":"x","b":{"c":[true,false,null,18446744073709551615,-9223372036854775808]}})"}) {
    expect_agreement(text);
    expect_agreement(text, json_limits{.max_depth = 2, .max_bytes = 4096, .max_values = 4});
  }
}

TEST(JsonSimd, LargeDocumentsTakeTheOtherPathWithTheSameResult) {
  // Over 64 KiB parse_json uses nlohmann alone; just under, simdjson.
  for (std::size_t n : {1000u, 8000u, 20000u}) {
    std::string text = "[";
    for (std::size_t i = 0; i < n; ++i) text += (i ? ",\"" : "\"") + std::to_string(i) + "\"";
    text += "]";
    expect_agreement(text);
  }
}

// Every JSON document in tests/data, and every line of those that are JSON Lines (BFCL's), each
// parsed both ways.
TEST(JsonSimd, EveryDocumentInTheTestDataAgrees) {
  namespace fs = std::filesystem;
  std::size_t documents = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(TOOLUSE_SOURCE_DIR) / "tests" / "data")) {
    if (!entry.is_regular_file()) continue;
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    SCOPED_TRACE(entry.path().string());
    expect_agreement(text);
    ++documents;
    if (detail::parse_json_nlohmann(text, {})) continue;
    std::istringstream lines(text);  // BFCL's .json files are JSON Lines
    for (std::string line; std::getline(lines, line);) {
      if (line.empty()) continue;
      expect_agreement(line);
      ++documents;
    }
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(documents, 1000u);
}

}  // namespace
}  // namespace tooluse
