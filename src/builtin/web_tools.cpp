// register_web_tools: fills keys from the environment and registers the network tools.
#include <cstdlib>

#include "builtin/tool_util.hpp"
#include "builtin/web_impl.hpp"

namespace tooluse::builtin {

tool detail::web_tool(std::string_view name, std::chrono::milliseconds timeout,
                      int calls_per_minute) {
  const detail::tool_text& text = detail::text_of(name);
  return detail::builtin_tool(
      text, {.category = "web",
             .tags = {"web", std::string(text.tag), "network"},
             .timeout = timeout,
             .rate = {.calls = calls_per_minute, .window = std::chrono::minutes(1)}});
}

void register_web_tools(tool_registry& registry, const web_options& options) {
  auto state = std::make_shared<detail::web_state>();
  state->options = options;
  auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return std::string(v ? v : "");
  };
  web_options& o = state->options;
  if (o.tavily_api_key.empty()) o.tavily_api_key = env("TAVILY_API_KEY");
  if (o.brave_api_key.empty()) o.brave_api_key = env("BRAVE_API_KEY");
  if (o.searxng_url.empty()) o.searxng_url = env("SEARXNG_URL");
  if (o.search_provider.empty()) o.search_provider = env("TOOLUSE_SEARCH_PROVIDER");
  for (std::string* u : {&o.tavily_url, &o.brave_url, &o.searxng_url, &o.wikipedia_url, &o.open_meteo_url, &o.geocoding_url})
    while (!u->empty() && u->back() == '/') u->pop_back();
  state->transport = http::default_transport();
  std::shared_ptr<const detail::web_state> shared = state;
  detail::register_search_tools(registry, shared);
  detail::register_wikipedia_tools(registry, shared);
  detail::register_fetch_tool(registry, shared);
  detail::register_weather_tool(registry, shared);
}

}  // namespace tooluse::builtin
