// A typed tool: the argument struct is the schema. Register it, show the schema, call it.
#include <iostream>
#include <tooluse/describe.hpp>
#include <tooluse/tools/typed.hpp>
#include <tooluse/tooluse.hpp>

struct weather_args {
  std::string city;
  std::optional<std::string> unit;
  int days = 1;
};
TOOLUSE_DESCRIBE(weather_args,
  (city, "City name, e.g. \"Paris\"", tooluse::min_length(1)),
  (unit, "Temperature unit", tooluse::one_of({"celsius", "fahrenheit"})),
  (days, "Forecast days", tooluse::minimum(1), tooluse::maximum(16)))

int main() {
  tooluse::tool_registry registry;
  tooluse::add_tool(registry, {.name = "weather", .description = "Weather forecast for a city"},
      [](const weather_args& a) -> tooluse::result<std::string> {
        return a.city + ": sunny for " + std::to_string(a.days) + " day(s), in " +
               a.unit.value_or("celsius");
      });

  std::cout << registry.find("weather")->definition.input_schema.dump(2) << "\n";
  tooluse::call_context ctx;
  for (const char* args : {R"({"city":"Paris","days":3})", R"({"city":"Oslo","days":"two"})"}) {
    auto r = registry.call(tooluse::tool_call::from_text("1", "weather", args), ctx);
    std::cout << (r.is_error ? "error: " : "ok: ") << r.all_text() << "\n";
  }
}
