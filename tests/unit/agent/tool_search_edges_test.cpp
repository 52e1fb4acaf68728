// tool_index and search_terms at their edges: how deep parameter names are indexed, the name
// counting twice, limits, queries made only of stop words, and the mode parser's message.
#include <gtest/gtest.h>

#include "tooluse/agent/tool_search.hpp"

namespace tooluse {
namespace {

TEST(search_terms_edges, digits_acronyms_short_plurals_and_stop_words) {
  EXPECT_EQ(search_terms("HTTPRequest2 sendSMS"),
            (std::vector<std::string>{"httprequest2", "send", "sms"}));
  EXPECT_EQ(search_terms("class gas bus addresses"),  // "ss" endings and short words keep their s
            (std::vector<std::string>{"class", "gas", "bus", "addresse"}));
  EXPECT_TRUE(search_terms("the of and to a").empty());
  EXPECT_TRUE(search_terms("  --__..  ").empty());
}

TEST(tool_index_edges, parameter_names_are_indexed_one_level_deep_including_array_items) {
  std::vector<tool> tools = {{.name = "a",
                              .description = "first",
                              .input_schema = json::parse(R"({"type":"object","properties":{
           "outer":{"type":"object","properties":{"inner":{"type":"object","properties":{"deepest":{}}}}},
           "rows":{"type":"array","items":{"type":"object","properties":{"cell":{}}}}}})")},
                             {.name = "b", .description = "second"}};
  tool_index index(tools);
  EXPECT_EQ(index.search("outer", 5).size(), 1u);
  EXPECT_EQ(index.search("inner", 5).size(), 1u);
  EXPECT_EQ(index.search("cell", 5).size(), 1u);
  EXPECT_TRUE(index.search("deepest", 5).empty());  // two levels down: not indexed
}

TEST(tool_index_edges, the_name_outweighs_the_description) {
  std::vector<tool> tools = {
      {.name = "reader", .description = "Tool that can invoice customers and more words here"},
      {.name = "invoice", .description = "Makes documents for customers and more words here"}};
  auto hits = tool_index(tools).search("invoice", 2);
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0].name, "invoice");
  EXPECT_GT(hits[0].score, hits[1].score);
}

TEST(tool_index_edges, empty_index_zero_limit_and_repeated_query_terms) {
  tool_index empty;
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_TRUE(empty.search("anything", 5).empty());
  std::vector<tool> tools = {{.name = "weather", .description = "forecast"},
                             {.name = "email", .description = "send mail"}};
  tool_index index(tools);
  EXPECT_TRUE(index.search("weather", 0).empty());
  EXPECT_TRUE(index.search("", 5).empty());
  EXPECT_TRUE(index.search("the and of", 5).empty());
  // A term repeated in the query counts once.
  EXPECT_DOUBLE_EQ(index.search("weather weather weather", 1).at(0).score,
                   index.search("weather", 1).at(0).score);
}

TEST(tool_search_mode_edges, parses_every_mode_and_lists_them_on_error) {
  using m = tool_search_options::mode;
  EXPECT_EQ(*parse_tool_search_mode(""), m::automatic);
  EXPECT_EQ(*parse_tool_search_mode("auto"), m::automatic);
  EXPECT_EQ(*parse_tool_search_mode("off"), m::off);
  EXPECT_EQ(*parse_tool_search_mode("always"), m::always);
  auto bad = parse_tool_search_mode("Always");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, errc::invalid_argument);
  EXPECT_EQ(bad.error().message,
            "unknown tool search mode \"Always\"; use auto, off, always or native");
}

}  // namespace
}  // namespace tooluse
