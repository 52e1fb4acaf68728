#include "tooluse/agent/tool_search.hpp"

#include <gtest/gtest.h>

namespace tooluse {
namespace {

TEST(search_terms, splits_names_and_drops_plurals_and_stop_words) {
  EXPECT_EQ(search_terms("getWeatherForecast for the cities"),
            (std::vector<std::string>{"get", "weather", "forecast", "citie"}));
  EXPECT_EQ(search_terms("github__create_pull-request.v2"),
            (std::vector<std::string>{"github", "create", "pull", "request", "v2"}));
}

TEST(tool_index, ranks_by_name_description_and_parameter_names) {
  std::vector<tool> tools = {
      {.name = "send_email", .description = "Send an email message to a recipient"},
      {.name = "get_weather", .description = "Current conditions and forecast for a city"},
      {.name = "list_files",
       .description = "List a folder",
       .input_schema = json::parse(R"({"type":"object","properties":{"directory_path":{}}})")},
      {.name = "translate", .description = "Translate text between languages"}};
  tool_index index(tools);
  EXPECT_EQ(index.size(), 4u);
  auto hits = index.search("weather forecast in Paris", 3);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].name, "get_weather");
  EXPECT_EQ(index.search("directory", 1).at(0).name, "list_files");  // parameter name
  EXPECT_EQ(index.search("emails", 1).at(0).name, "send_email");     // plural
  EXPECT_TRUE(index.search("quantum chromodynamics", 5).empty());
}

TEST(tool_index, limit_and_ties_keep_registration_order) {
  std::vector<tool> tools;
  for (int i = 0; i < 10; ++i)
    tools.push_back({.name = "tool_" + std::to_string(i), .description = "same words"});
  tool_index index(tools);
  auto hits = index.search("same", 3);
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_EQ(hits[0].name, "tool_0");
  EXPECT_EQ(hits[2].name, "tool_2");
}

TEST(tool_search_mode, parses_the_four_modes) {
  EXPECT_EQ(*parse_tool_search_mode("native"), tool_search_options::mode::native);
  EXPECT_FALSE(parse_tool_search_mode("sometimes"));
}

}  // namespace
}  // namespace tooluse
