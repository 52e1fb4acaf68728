// wikipedia_search, wikipedia_page and weather against a loopback fake of their APIs: empty
// answers, disambiguation pages, continuing a cut page, sections, upstream failures (HTTP
// errors, rate limits, bodies that are not JSON), every WMO weather code and answers with
// fields missing.
#include <gtest/gtest.h>

#include "builtin_test_util.hpp"
#include "tooluse/builtin/web.hpp"
#include "web_test_util.hpp"

namespace {
using tooluse::json;
using tooluse::testing::call_tool;
using tooluse::testing::json_reply;
using tooluse::testing::recorded_request;
using tooluse::testing::scripted_response;

struct web_edges : ::testing::Test {
  tooluse::testing::fake_llm_server server;
  tooluse::tool_registry registry;
  void SetUp() override {
    tooluse::builtin::register_web_tools(registry, {.wikipedia_url = server.url("/{lang}wiki"),
                                                    .open_meteo_url = server.url("/meteo"),
                                                    .geocoding_url = server.url("/geo")});
  }
  // page answers a page query with `extract` (and a disambiguation marker when asked).
  static json page(const std::string& title, const std::string& extract, bool disambiguation = false) {
    json p = {{"title", title}, {"fullurl", "https://en.wikipedia.org/wiki/" + title}, {"extract", extract}};
    if (disambiguation) p["pageprops"] = {{"disambiguation", ""}};
    return json{{"query", {{"pages", json::array({p})}}}};
  }
};

TEST_F(web_edges, a_search_without_matches_says_so) {
  server.push(json_reply(R"({"query":{"search":[]}})"));
  auto r = call_tool(registry, "wikipedia_search", {{"query", "qqqzzz"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["results"], json::array());
  EXPECT_EQ(r.all_text(), "no Wikipedia pages match \"qqqzzz\"\n");
}

TEST_F(web_edges, search_snippets_lose_their_markup_and_list_word_counts) {
  server.push(json_reply(
      R"({"query":{"search":[{"title":"Tide","snippet":"<span class=\"searchmatch\">Tides</span> are &amp; rise","wordcount":812}]}})"));
  auto r = call_tool(registry, "wikipedia_search", {{"query", "tide"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  const auto& first = (*r.structured_content)["results"][0];
  EXPECT_EQ(first["title"], "Tide");
  EXPECT_EQ(first["words"], 812);
  EXPECT_EQ(first["snippet"], "Tides are & rise");
  EXPECT_NE(r.all_text().find("- Tide: Tides are & rise\n"), std::string::npos);
  EXPECT_NE(r.all_text().find("wikipedia_page"), std::string::npos);
}

TEST_F(web_edges, a_language_that_is_not_a_code_is_refused_before_any_request) {
  for (std::string lang : {"EN", "e", "en_US", "abcdefghijklm"}) {
    auto r = call_tool(registry, "wikipedia_search", {{"query", "x"}, {"language", lang}});
    EXPECT_TRUE(r.is_error) << lang;
    EXPECT_NE(r.all_text().find("language \"" + lang + "\" is not a Wikipedia code"), std::string::npos)
        << r.all_text();
  }
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(web_edges, a_language_with_a_dash_picks_that_wiki) {
  server.push(json_reply(R"({"query":{"search":[]}})"));
  auto r = call_tool(registry, "wikipedia_search", {{"query", "x"}, {"language", "zh-yue"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(server.requests()[0].target.starts_with("/zh-yuewiki/w/api.php?")) << server.requests()[0].target;
}

TEST_F(web_edges, upstream_failures_are_named_by_the_service) {
  server.push(json_reply("overloaded", 503));
  auto http_error = call_tool(registry, "wikipedia_search", {{"query", "x"}});
  EXPECT_TRUE(http_error.is_error);
  EXPECT_NE(http_error.all_text().find("Wikipedia answered HTTP 503: overloaded"), std::string::npos)
      << http_error.all_text();
  server.push(json_reply("slow down", 429));
  auto limited = call_tool(registry, "wikipedia_page", {{"title", "Moon"}});
  EXPECT_TRUE(limited.is_error);
  EXPECT_NE(limited.all_text().find("Wikipedia is rate limiting requests (HTTP 429)"), std::string::npos)
      << limited.all_text();
  server.push(json_reply("<html>", 200));
  auto not_json = call_tool(registry, "wikipedia_page", {{"title", "Moon"}});
  EXPECT_TRUE(not_json.is_error);
  EXPECT_NE(not_json.all_text().find("Wikipedia sent a response that is not JSON"), std::string::npos);
  server.push(json_reply("{}", 403));
  auto rejected = call_tool(registry, "weather", {{"latitude", 1.0}, {"longitude", 2.0}});
  EXPECT_TRUE(rejected.is_error);
  EXPECT_NE(rejected.all_text().find("Open-Meteo rejected the request (HTTP 403)"), std::string::npos)
      << rejected.all_text();
}

TEST_F(web_edges, an_invalid_title_is_reported_like_a_missing_page) {
  server.push(json_reply(R"({"query":{"pages":[{"title":"a|b","invalid":true}]}})"));
  auto r = call_tool(registry, "wikipedia_page", {{"title", "a|b"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("Wikipedia has no page titled \"a|b\""), std::string::npos);
  server.push(json_reply(R"({"batchcomplete":true})"));
  auto empty = call_tool(registry, "wikipedia_page", {{"title", "Nothing"}});
  EXPECT_TRUE(empty.is_error);
  EXPECT_NE(empty.all_text().find("no page titled \"Nothing\""), std::string::npos);
}

TEST_F(web_edges, a_disambiguation_page_is_flagged) {
  server.push(json_reply(page("Mercury", "Mercury may refer to:\nMercury (planet)\nMercury (element)", true).dump()));
  auto r = call_tool(registry, "wikipedia_page", {{"title", "Mercury"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ((*r.structured_content)["disambiguation"], true);
  EXPECT_FALSE(r.structured_content->contains("redirected_from"));
  EXPECT_NE(r.all_text().find("(this is a disambiguation page"), std::string::npos);
  EXPECT_EQ((*r.structured_content)["truncated"], false);
  EXPECT_EQ((*r.structured_content)["sections"], json::array());
}

TEST_F(web_edges, start_char_continues_a_cut_page_and_past_the_end_gives_nothing) {
  std::string extract;
  for (int i = 0; i < 30; ++i) extract += "Sentence number " + std::to_string(i) + ". ";
  server.set_responder([&](const recorded_request&) { return json_reply(page("Long", extract).dump()); });
  auto first = call_tool(registry, "wikipedia_page", {{"title", "Long"}, {"max_chars", 100}});
  ASSERT_FALSE(first.is_error) << first.all_text();
  auto second = call_tool(registry, "wikipedia_page", {{"title", "Long"}, {"max_chars", 100}, {"start_char", 100}});
  ASSERT_FALSE(second.is_error) << second.all_text();
  EXPECT_EQ((*first.structured_content)["text"].get<std::string>() +
                (*second.structured_content)["text"].get<std::string>(),
            extract.substr(0, 200));
  EXPECT_EQ((*second.structured_content)["start_char"], 100);
  EXPECT_EQ((*second.structured_content)["total_chars"], extract.size());
  EXPECT_NE(second.all_text().find("start_char=200"), std::string::npos);
  auto past = call_tool(registry, "wikipedia_page", {{"title", "Long"}, {"start_char", 100000}});
  ASSERT_FALSE(past.is_error) << past.all_text();
  EXPECT_EQ((*past.structured_content)["text"], "");
  EXPECT_EQ((*past.structured_content)["truncated"], false);
}

TEST_F(web_edges, a_section_runs_to_the_next_heading_of_its_level_and_the_last_to_the_end) {
  const std::string extract =
      "Intro.\n\n== Alpha ==\nA text.\n\n=== Alpha one ===\nA1 text.\n\n== Beta ==\nB text.\n"
      "\n== Gamma ==\nG text, the end.";
  server.set_responder([&](const recorded_request&) { return json_reply(page("Greek", extract).dump()); });
  auto alpha = call_tool(registry, "wikipedia_page", {{"title", "Greek"}, {"section", "Alpha"}});
  ASSERT_FALSE(alpha.is_error) << alpha.all_text();
  EXPECT_EQ((*alpha.structured_content)["text"], "A text.\n\n=== Alpha one ===\nA1 text.\n");
  EXPECT_EQ((*alpha.structured_content)["section"], "Alpha");
  EXPECT_EQ((*alpha.structured_content)["sections"], json({"Alpha", "Alpha one", "Beta", "Gamma"}));
  auto sub = call_tool(registry, "wikipedia_page", {{"title", "Greek"}, {"section", "Alpha one"}});
  ASSERT_FALSE(sub.is_error);
  EXPECT_EQ((*sub.structured_content)["text"], "A1 text.\n");
  auto last = call_tool(registry, "wikipedia_page", {{"title", "Greek"}, {"section", "Gamma"}});
  ASSERT_FALSE(last.is_error);
  EXPECT_EQ((*last.structured_content)["text"], "G text, the end.");
  auto missing = call_tool(registry, "wikipedia_page", {{"title", "Greek"}, {"section", "Delta"}});
  EXPECT_TRUE(missing.is_error);
  EXPECT_NE(missing.all_text().find("page \"Greek\" has no section \"Delta\"; its sections are "
                                    "[\"Alpha\",\"Alpha one\",\"Beta\",\"Gamma\"]"),
            std::string::npos)
      << missing.all_text();
}

TEST_F(web_edges, page_arguments_out_of_range_are_refused) {
  EXPECT_TRUE(call_tool(registry, "wikipedia_page", {{"title", ""}}).is_error);
  EXPECT_TRUE(call_tool(registry, "wikipedia_page", {{"title", "Moon"}, {"max_chars", 99}}).is_error);
  EXPECT_TRUE(call_tool(registry, "wikipedia_page", {{"title", "Moon"}, {"start_char", -1}}).is_error);
  EXPECT_TRUE(call_tool(registry, "wikipedia_search", {{"query", "Moon"}, {"max_results", 21}}).is_error);
  EXPECT_TRUE(call_tool(registry, "wikipedia_search", {{"query", ""}}).is_error);
  EXPECT_TRUE(server.requests().empty());
}

// forecast is an Open-Meteo answer with current weather `code` and one day per daily code.
std::string forecast(int code, const std::vector<int>& daily_codes) {
  json days = json::array(), codes = json::array(), mins = json::array(), maxs = json::array();
  for (std::size_t i = 0; i < daily_codes.size(); ++i) {
    days.push_back("2024-01-1" + std::to_string(i));
    codes.push_back(daily_codes[i]);
    mins.push_back(-1.0 * static_cast<double>(i));
    maxs.push_back(static_cast<double>(i) + 0.25);
  }
  return json{{"timezone", "UTC"},
              {"current", {{"time", "2024-01-10T12:00"}, {"temperature_2m", 1.5}, {"weather_code", code}}},
              {"daily", {{"time", days}, {"weather_code", codes}, {"temperature_2m_min", mins},
                         {"temperature_2m_max", maxs}}}}
      .dump();
}

TEST_F(web_edges, every_wmo_code_has_words_and_unknown_codes_are_named) {
  const std::vector<std::pair<int, std::string>> codes = {
      {0, "clear sky"}, {1, "mainly clear"}, {2, "partly cloudy"}, {3, "overcast"}, {45, "fog"},
      {48, "fog"}, {51, "drizzle"}, {53, "drizzle"}, {55, "drizzle"}, {56, "freezing drizzle"},
      {57, "freezing drizzle"}, {61, "light rain"}, {63, "rain"}, {65, "heavy rain"},
      {66, "freezing rain"}, {67, "freezing rain"}, {71, "light snow"}, {73, "snow"},
      {75, "heavy snow"}, {77, "snow grains"}, {80, "rain showers"}, {81, "rain showers"},
      {82, "rain showers"}, {85, "snow showers"}, {86, "snow showers"}, {95, "thunderstorm"},
      {96, "thunderstorm with hail"}, {99, "thunderstorm with hail"}, {4, "unknown (WMO code 4)"}};
  std::vector<int> daily;
  for (const auto& [code, _] : codes) daily.push_back(code);
  server.set_responder([&](const recorded_request&) { return json_reply(forecast(95, daily)); });
  auto r = call_tool(registry, "weather", {{"latitude", 0.0}, {"longitude", 0.0}, {"days", 16}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  const auto& d = (*r.structured_content)["daily"];
  ASSERT_EQ(d.size(), codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) EXPECT_EQ(d[i]["conditions"], codes[i].second) << codes[i].first;
  EXPECT_EQ((*r.structured_content)["current"]["conditions"], "thunderstorm");
  EXPECT_EQ((*r.structured_content)["location"]["name"], "given coordinates");
  EXPECT_NE(server.requests()[0].target.find("forecast_days=16"), std::string::npos);
}

TEST_F(web_edges, missing_fields_show_as_question_marks_and_default_units) {
  server.push(json_reply(R"({"current":{},"daily":{"time":["2024-02-01"]}})"));
  auto r = call_tool(registry, "weather", {{"location", "Home"}, {"latitude", 10.0}, {"longitude", 20.0},
                                           {"units", "imperial"}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  const auto& d = *r.structured_content;
  EXPECT_EQ(d["location"]["name"], "Home");
  EXPECT_EQ(d["units"]["temperature"], "°F");
  EXPECT_EQ(d["units"]["wind_speed"], "mp/h");
  EXPECT_EQ(d["current"]["conditions"], "unknown (WMO code -1)");
  EXPECT_TRUE(d["current"]["temperature"].is_null());
  ASSERT_EQ(d["daily"].size(), 1u);
  EXPECT_EQ(d["daily"][0]["conditions"], "unknown (WMO code -1)");
  EXPECT_TRUE(d["daily"][0]["max"].is_null());
  std::string text = r.all_text();
  EXPECT_NE(text.find("Weather in Home (local time ?, ):"), std::string::npos) << text;
  EXPECT_NE(text.find("now: unknown (WMO code -1), ?°F (feels like ?°F), humidity ?%, wind ? mp/h"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("2024-02-01: unknown (WMO code -1), ? to ?°F, precipitation ?  (?%)"), std::string::npos)
      << text;
  EXPECT_NE(server.requests()[0].target.find("latitude=10.0&longitude=20.0"), std::string::npos);
}

TEST_F(web_edges, geocoding_failures_stop_before_the_forecast) {
  server.push(json_reply("down", 500));
  auto r = call_tool(registry, "weather", {{"location", "Paris"}, {"language", "fr"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.all_text().find("Open-Meteo geocoding answered HTTP 500: down"), std::string::npos) << r.all_text();
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].target, "/geo/v1/search?name=Paris&count=1&format=json&language=fr");
}

TEST_F(web_edges, a_geocoded_place_without_details_keeps_the_asked_name) {
  server.set_responder([](const recorded_request& req) -> scripted_response {
    if (req.target.starts_with("/geo/")) return json_reply(R"({"results":[{"latitude":1.25,"longitude":-2.5}]})");
    return json_reply(forecast(0, {0}));
  });
  auto r = call_tool(registry, "weather", {{"location", "Nowhere Town"}, {"days", 1}});
  ASSERT_FALSE(r.is_error) << r.all_text();
  const auto& loc = (*r.structured_content)["location"];
  EXPECT_EQ(loc["name"], "Nowhere Town");
  EXPECT_EQ(loc["country"], "");
  EXPECT_NE(r.all_text().find("Weather in Nowhere Town (local time"), std::string::npos) << r.all_text();
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].target, "/geo/v1/search?name=Nowhere%20Town&count=1&format=json&language=en");
  EXPECT_TRUE(reqs[1].target.starts_with("/meteo/v1/forecast?latitude=1.2&longitude=-2.5&")) << reqs[1].target;
}

TEST_F(web_edges, weather_arguments_out_of_range_are_refused) {
  EXPECT_TRUE(call_tool(registry, "weather", {{"latitude", 91.0}, {"longitude", 0.0}}).is_error);
  EXPECT_TRUE(call_tool(registry, "weather", {{"latitude", 0.0}, {"longitude", 181.0}}).is_error);
  EXPECT_TRUE(call_tool(registry, "weather", {{"location", "x"}, {"days", 17}}).is_error);
  EXPECT_TRUE(call_tool(registry, "weather", {{"location", "x"}, {"units", "kelvin"}}).is_error);
  auto only_lat = call_tool(registry, "weather", {{"latitude", 1.0}});
  EXPECT_TRUE(only_lat.is_error);
  EXPECT_NE(only_lat.all_text().find("give a location"), std::string::npos) << only_lat.all_text();
  EXPECT_TRUE(server.requests().empty());
}

}  // namespace
