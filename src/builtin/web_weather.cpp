// weather: current conditions and a daily forecast from Open-Meteo (no key), with geocoding.
#include <cstdio>

#include "builtin/tool_util.hpp"
#include "builtin/web_impl.hpp"
#include "tooluse/tools/typed.hpp"

namespace tooluse::builtin::detail {
namespace {

std::string wmo_text(int code) {
  switch (code) {
    case 0:
      return "clear sky";
    case 1:
      return "mainly clear";
    case 2:
      return "partly cloudy";
    case 3:
      return "overcast";
    case 45:
    case 48:
      return "fog";
    case 51:
    case 53:
    case 55:
      return "drizzle";
    case 56:
    case 57:
      return "freezing drizzle";
    case 61:
      return "light rain";
    case 63:
      return "rain";
    case 65:
      return "heavy rain";
    case 66:
    case 67:
      return "freezing rain";
    case 71:
      return "light snow";
    case 73:
      return "snow";
    case 75:
      return "heavy snow";
    case 77:
      return "snow grains";
    case 80:
    case 81:
    case 82:
      return "rain showers";
    case 85:
    case 86:
      return "snow showers";
    case 95:
      return "thunderstorm";
    case 96:
    case 99:
      return "thunderstorm with hail";
    default:
      return "unknown (WMO code " + std::to_string(code) + ")";
  }
}

std::string num(const json& v) {
  if (!v.is_number()) return "?";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v.get<double>());
  return buf;
}

result<json> geocode(const web_state& s, const std::string& place, const std::string& lang) {
  http::request req{.url = s.options.geocoding_url + "/v1/search?name=" + url_encode(place) +
                           "&count=1&format=json&language=" + url_encode(lang)};
  auto j = get_json(s, req, "Open-Meteo geocoding");
  if (!j) return fail(j.error());
  auto results = j->value("results", json::array());
  if (results.empty())
    return fail(errc::not_found, "no place named \"" + place +
                                     "\" was found; try the city name alone (\"Paris\"), in "
                                     "English, or give latitude and longitude");
  return results[0];
}

struct weather_args {
  std::optional<std::string> location;
  std::optional<double> latitude;
  std::optional<double> longitude;
  std::int64_t days = 3;
  std::string units = "metric";
  std::string language = "en";
};
TOOLUSE_DESCRIBE(weather_args, (location, "City or place name, e.g. \"Tokyo\", \"San Francisco\""),
                 (latitude, "Latitude in degrees (with longitude, instead of location)",
                  tooluse::minimum(-90), tooluse::maximum(90)),
                 (longitude, "Longitude in degrees", tooluse::minimum(-180), tooluse::maximum(180)),
                 (days, "Days of forecast including today. Default 3", tooluse::minimum(1),
                  tooluse::maximum(16)),
                 (units, "Default \"metric\"", tooluse::one_of({"metric", "imperial"})),
                 (language, "Language of place names for geocoding. Default \"en\""))

result<json> place_of(const web_state& s, const weather_args& args) {
  std::string location = args.location.value_or("");
  if (args.latitude && args.longitude)
    return json{{"name", location.empty() ? "given coordinates" : location},
                {"latitude", *args.latitude},
                {"longitude", *args.longitude}};
  if (location.empty())
    return fail(errc::invalid_argument,
                "give a location (a city name such as \"Berlin\") or latitude and longitude");
  auto g = geocode(s, location, args.language);
  if (!g) return fail(g.error());
  return json{{"name", g->value("name", location)},
              {"country", g->value("country", "")},
              {"admin1", g->value("admin1", "")},
              {"latitude", g->value("latitude", 0.0)},
              {"longitude", g->value("longitude", 0.0)}};
}

tool_result weather(const web_state& s, const weather_args& args) {
  bool imperial = args.units == "imperial";
  int days = static_cast<int>(std::clamp<std::int64_t>(args.days, 1, 16));
  auto found = place_of(s, args);
  if (!found) return error_result(found.error());
  json place = std::move(*found);
  std::string url =
      s.options.open_meteo_url + "/v1/forecast?latitude=" + num(place["latitude"]) +
      "&longitude=" + num(place["longitude"]) +
      "&current=temperature_2m,relative_humidity_2m,apparent_temperature,precipitation,"
      "weather_code,wind_speed_10m,wind_direction_10m"
      "&daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,"
      "precipitation_probability_max,wind_speed_10m_max&timezone=auto&forecast_days=" +
      std::to_string(days);
  if (imperial) url += "&temperature_unit=fahrenheit&wind_speed_unit=mph&precipitation_unit=inch";
  auto j = get_json(s, http::request{.url = url}, "Open-Meteo");
  if (!j) return error_result(j.error());
  const json cur = j->value("current", json::object()),
             cu = j->value("current_units", json::object());
  const json daily = j->value("daily", json::object()),
             du = j->value("daily_units", json::object());
  std::string t_unit = cu.value("temperature_2m", imperial ? "°F" : "°C");
  std::string w_unit = cu.value("wind_speed_10m", imperial ? "mp/h" : "km/h");
  std::string where = place.value("name", "") +
                      (place.value("country", "").empty() ? "" : ", " + place.value("country", ""));
  json current = {{"time", cur.value("time", "")},
                  {"temperature", cur.value("temperature_2m", json())},
                  {"feels_like", cur.value("apparent_temperature", json())},
                  {"humidity_percent", cur.value("relative_humidity_2m", json())},
                  {"precipitation", cur.value("precipitation", json())},
                  {"wind_speed", cur.value("wind_speed_10m", json())},
                  {"wind_direction_degrees", cur.value("wind_direction_10m", json())},
                  {"conditions", wmo_text(cur.value("weather_code", -1))}};
  std::string text =
      "Weather in " + where + " (local time " + cur.value("time", "?") + ", " +
      j->value("timezone", "") + "):\nnow: " + current["conditions"].get<std::string>() + ", " +
      num(current["temperature"]) + t_unit + " (feels like " + num(current["feels_like"]) + t_unit +
      "), humidity " + num(current["humidity_percent"]) + "%, wind " + num(current["wind_speed"]) +
      " " + w_unit + "\n";
  json forecast = json::array();
  auto col = [&](const char* k) { return daily.value(k, json::array()); };
  auto dates = col("time");
  for (std::size_t i = 0; i < dates.size(); ++i) {
    auto at = [&](const char* k) {
      auto c = col(k);
      return i < c.size() ? c[i] : json();
    };
    json d = {{"date", dates[i]},
              {"conditions",
               wmo_text(at("weather_code").is_number() ? at("weather_code").get<int>() : -1)},
              {"min", at("temperature_2m_min")},
              {"max", at("temperature_2m_max")},
              {"precipitation", at("precipitation_sum")},
              {"precipitation_probability", at("precipitation_probability_max")},
              {"max_wind", at("wind_speed_10m_max")}};
    text += dates[i].get<std::string>() + ": " + d["conditions"].get<std::string>() + ", " +
            num(d["min"]) + " to " + num(d["max"]) + t_unit + ", precipitation " +
            num(d["precipitation"]) + " " + du.value("precipitation_sum", "") + " (" +
            num(d["precipitation_probability"]) + "%)\n";
    forecast.push_back(std::move(d));
  }
  return text_and_data(std::move(text), {{"location", place},
                                         {"timezone", j->value("timezone", "")},
                                         {"units",
                                          {{"temperature", t_unit},
                                           {"wind_speed", w_unit},
                                           {"precipitation", du.value("precipitation_sum", "")}}},
                                         {"current", current},
                                         {"daily", forecast}});
}

}  // namespace

void register_weather_tool(tool_registry& registry, std::shared_ptr<const web_state> state) {
  add_tool(registry, web_tool("weather", state->options.timeout * 2 + std::chrono::seconds(5)),
           [state](const weather_args& a) { return weather(*state, a); });
}

}  // namespace tooluse::builtin::detail
