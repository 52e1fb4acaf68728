// dump_json writes compact JSON itself (src/core/json_dump.cpp): it must be byte for byte what
// nlohmann's serializer writes with the same options, on every kind of value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "tooluse/json.hpp"

namespace tooluse {
namespace {

std::string reference(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); }

TEST(JsonDump, ScalarsAsNlohmannWritesThem) {
  for (const json& v :
       {json(nullptr), json(true), json(false), json(0), json(-0), json(1), json(-1),
        json(std::numeric_limits<std::int64_t>::min()), json(std::numeric_limits<std::int64_t>::max()),
        json(std::numeric_limits<std::uint64_t>::max()), json(0.0), json(-0.0), json(1.5), json(1e300),
        json(1e-300), json(0.1), json(100.0), json(1e21), json(std::numeric_limits<double>::quiet_NaN()),
        json(std::numeric_limits<double>::infinity())}) {
    EXPECT_EQ(dump_json(v), reference(v));
  }
}

TEST(JsonDump, StringsEscapedAsNlohmannEscapesThem) {
  std::string every_byte;
  for (int c = 1; c < 0x80; ++c) every_byte += static_cast<char>(c);
  for (const std::string& s :
       {std::string(), std::string("plain"), std::string("quote \" backslash \\ slash /"),
        std::string("\b\f\n\r\t"), std::string(1, '\0'), std::string("\x01\x1f\x7f"), every_byte,
        std::string("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80"),
        // not UTF-8: nlohmann replaces each bad sequence with U+FFFD; dump_json leaves it to it
        std::string("\xff"), std::string("a\xc3"), std::string("\xed\xa0\x80"), std::string("\xc0\xaf"),
        std::string("ok \xf4\x90\x80\x80 then")}) {
    json v = s;
    EXPECT_EQ(dump_json(v), reference(v)) << s;
    json o = {{s, s}};
    EXPECT_EQ(dump_json(o), reference(o)) << s;
  }
}

TEST(JsonDump, ContainersAndOtherValues) {
  json v = json::parse(R"({"b":[1,-2,3.5,{"x":null}],"a":{},"c":[],"d":"e","f":[[[]]]})");
  EXPECT_EQ(dump_json(v), reference(v));
  EXPECT_EQ(dump_json(v), R"({"b":[1,-2,3.5,{"x":null}],"a":{},"c":[],"d":"e","f":[[[]]]})");
  json bin = json::binary({1, 2, 3});
  EXPECT_EQ(dump_json(bin), reference(bin));
  json nested = {{"bin", json::binary({4})}, {"s", "\xff"}};
  EXPECT_EQ(dump_json(nested), reference(nested));
  EXPECT_EQ(dump_json(v, 2), v.dump(2, ' ', false, json::error_handler_t::replace));
}

// Texts far past the first allocation, escapes on the way: the writer grows its buffer as it goes.
TEST(JsonDump, LongTextsGrowTheBuffer) {
  std::string s;
  for (int i = 0; i < 20000; ++i) s += (i % 7 == 0) ? '\n' : (i % 11 == 0) ? '\x01' : static_cast<char>('a' + i % 26);
  json v = {{"long", s}, {"list", json::array({s, 1, s})}, {s, nullptr}};
  EXPECT_EQ(dump_json(v), reference(v));
  json many = json::array();
  for (int i = 0; i < 5000; ++i) many.push_back({{"k" + std::to_string(i), i}});
  EXPECT_EQ(dump_json(many), reference(many));
}

// Every JSON document in tests/data and every line of those that are JSON Lines.
TEST(JsonDump, EveryDocumentInTheTestData) {
  namespace fs = std::filesystem;
  std::size_t documents = 0;
  auto check = [&](const std::string& text) {
    auto v = parse_json(text);
    if (!v) return false;
    EXPECT_EQ(dump_json(*v), reference(*v));
    ++documents;
    return true;
  };
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(TOOLUSE_SOURCE_DIR) / "tests" / "data")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    if (check(buffer.str())) continue;
    std::istringstream lines(buffer.str());
    for (std::string line; std::getline(lines, line);)
      if (!line.empty()) check(line);
  }
  EXPECT_GT(documents, 1000u);
}

// append_json and append_json_string add to a string what dump_json returns, floats and invalid
// UTF-8 (which nlohmann writes) included, after what the string already holds.
TEST(JsonDump, AppendingWritesWhatDumpReturns) {
  const std::string invalid_utf8 = "bad \xff\xfe byte";
  for (const json& v : {json(nullptr), json(1.5), json("text \"quoted\"\n\u00e9"), json(invalid_utf8),
                        json{{"a", {1, 2.25, "x"}}, {"b", invalid_utf8}}, json::array(), json::object(),
                        json(std::string(5000, 'y'))}) {
    std::string out = "prefix:";
    append_json(out, v);
    EXPECT_EQ(out, "prefix:" + reference(v));
  }
  for (const std::string& s : {std::string(), std::string("plain"), std::string("tab\tquote\"\\"), invalid_utf8,
                               std::string("\x01\x1f control"), std::string(70000, 'z')}) {
    std::string out = "[";
    append_json_string(out, s);
    EXPECT_EQ(out, "[" + reference(json(s)));
  }
}

}  // namespace
}  // namespace tooluse
