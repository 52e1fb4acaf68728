#include <gtest/gtest.h>

#include "builtin_test_util.hpp"
#include "tooluse/builtin/web.hpp"
#include "web_test_util.hpp"

namespace {
using tooluse::json;
using tooluse::testing::call_tool;
using tooluse::testing::fixture;
using tooluse::testing::json_reply;

struct wiki_fixture : ::testing::Test {
  tooluse::testing::fake_llm_server server;
  tooluse::tool_registry registry;
  void SetUp() override {
    tooluse::builtin::register_web_tools(registry, {.wikipedia_url = server.url("/{lang}wiki"),
                                                    .open_meteo_url = server.url(),
                                                    .geocoding_url = server.url("/geo")});
  }
};

TEST_F(wiki_fixture, search_returns_titles_and_clean_snippets) {
  server.push(json_reply(fixture("wikipedia_search.json")));
  auto r = call_tool(registry, "wikipedia_search", {{"query", "moon distance"}, {"max_results", 2}, {"language", "de"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  auto results = (*r.structured_content)["results"];
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0]["title"], "Moon");
  EXPECT_EQ(results[0]["snippet"].get<std::string>().substr(0, 39), "The Moon is Earth's only natural satell");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].target,
            "/dewiki/w/api.php?format=json&formatversion=2&action=query&list=search&srprop=snippet%7Cwordcount"
            "&srlimit=2&srsearch=moon%20distance");
  EXPECT_NE(reqs[0].header("User-Agent").find("tooluse"), std::string::npos);
}

TEST_F(wiki_fixture, page_by_exact_title_with_sections_and_limits) {
  server.set_responder([](const auto&) { return json_reply(fixture("wikipedia_page.json")); });
  auto r = call_tool(registry, "wikipedia_page", {{"title", "Luna (satellite)"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  auto d = *r.structured_content;
  EXPECT_EQ(d["title"], "Moon");
  EXPECT_EQ(d["redirected_from"], "Luna (satellite)");
  EXPECT_EQ(d["sections"], json({"Name and etymology", "Orbit", "Tidal effects", "Exploration", "References"}));
  EXPECT_EQ(server.requests()[0].target,
            "/enwiki/w/api.php?format=json&formatversion=2&action=query&prop=extracts%7Cpageprops%7Cinfo&inprop=url"
            "&explaintext=1&exsectionformat=wiki&redirects=1&titles=Luna%20%28satellite%29");
  auto orbit = call_tool(registry, "wikipedia_page", {{"title", "Moon"}, {"section", "Orbit"}});
  ASSERT_FALSE(orbit.is_error);
  std::string text = (*orbit.structured_content)["text"];
  EXPECT_NE(text.find("356,400 km"), std::string::npos);
  EXPECT_NE(text.find("Tidal effects"), std::string::npos);  // subsections belong to the section
  EXPECT_EQ(text.find("Luna 2"), std::string::npos);
  auto cut = call_tool(registry, "wikipedia_page", {{"title", "Moon"}, {"max_chars", 100}});
  EXPECT_EQ((*cut.structured_content)["text"].get<std::string>().size(), 100u);
  EXPECT_EQ((*cut.structured_content)["truncated"], true);
  EXPECT_NE(cut.all_text().find("start_char=100"), std::string::npos);
  auto bad_section = call_tool(registry, "wikipedia_page", {{"title", "Moon"}, {"section", "Nope"}});
  EXPECT_TRUE(bad_section.is_error);
  EXPECT_NE(bad_section.all_text().find("Orbit"), std::string::npos);
}

TEST_F(wiki_fixture, missing_page_is_not_guessed) {
  server.push(json_reply(fixture("wikipedia_missing.json")));
  auto r = call_tool(registry, "wikipedia_page", {{"title", "moooon"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("no page titled \"moooon\""), std::string::npos);
  EXPECT_TRUE(call_tool(registry, "wikipedia_page", {{"title", "Moon"}, {"language", "../x"}}).is_error);
}

TEST_F(wiki_fixture, weather_geocodes_then_forecasts) {
  server.set_responder([](const tooluse::testing::recorded_request& req) {
    if (req.target.starts_with("/geo/v1/search")) return json_reply(fixture("geocoding_berlin.json"));
    return json_reply(fixture("forecast_berlin.json"));
  });
  auto r = call_tool(registry, "weather", {{"location", "Berlin"}, {"days", 3}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  auto d = *r.structured_content;
  EXPECT_EQ(d["location"]["country"], "Germany");
  EXPECT_EQ(d["current"]["conditions"], "light rain");
  EXPECT_EQ(d["current"]["temperature"], 3.2);
  EXPECT_EQ(d["daily"].size(), 3u);
  EXPECT_EQ(d["daily"][2]["conditions"], "light snow");
  EXPECT_EQ(d["units"]["temperature"], "°C");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].target, "/geo/v1/search?name=Berlin&count=1&format=json&language=en");
  EXPECT_NE(reqs[1].target.find("/v1/forecast?latitude=52.5&longitude=13.4&"), std::string::npos) << reqs[1].target;
  EXPECT_NE(reqs[1].target.find("forecast_days=3"), std::string::npos);
  EXPECT_EQ(reqs[1].target.find("fahrenheit"), std::string::npos);
}

TEST_F(wiki_fixture, weather_imperial_units_and_unknown_place) {
  server.set_responder([](const tooluse::testing::recorded_request& req) {
    if (req.target.find("Atlantis") != std::string::npos) return json_reply(fixture("geocoding_none.json"));
    return json_reply(fixture("forecast_berlin.json"));
  });
  auto r = call_tool(registry, "weather", {{"latitude", 40.71}, {"longitude", -74.01}, {"units", "imperial"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);  // coordinates: no geocoding
  EXPECT_NE(reqs[0].target.find("temperature_unit=fahrenheit&wind_speed_unit=mph&precipitation_unit=inch"),
            std::string::npos);
  auto none = call_tool(registry, "weather", {{"location", "Atlantis"}});
  EXPECT_TRUE(none.is_error);
  EXPECT_NE(none.all_text().find("no place named \"Atlantis\""), std::string::npos);
  EXPECT_TRUE(call_tool(registry, "weather", json::object()).is_error);
}

}  // namespace
