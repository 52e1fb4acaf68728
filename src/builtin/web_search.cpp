// web_search: Tavily, Brave Search or SearXNG behind one tool, results normalised.
#include "builtin/tool_util.hpp"
#include "builtin/web_impl.hpp"
#include "tooluse/tools/typed.hpp"

namespace tooluse::builtin::detail {
namespace {

struct hit {
  std::string title, url, snippet;
  double score = 0;
};

result<std::vector<hit>> tavily(const web_state& s, const std::string& query, int n) {
  const auto& o = s.options;
  http::request req{.method = "POST", .url = o.tavily_url + "/search"};
  req.headers = {{"Authorization", "Bearer " + o.tavily_api_key},
                 {"Content-Type", "application/json"}};
  req.body = json{
      {"query", query},
      {"max_results", n},
      {"search_depth", "basic"},
      {"topic", "general"},
      {"include_answer",
       false}}.dump();
  auto j = get_json(s, req, "Tavily", {o.tavily_api_key}, "TAVILY_API_KEY");
  if (!j) return fail(j.error());
  std::vector<hit> out;
  for (const auto& r : j->value("results", json::array()))
    out.push_back(
        {r.value("title", ""), r.value("url", ""), r.value("content", ""), r.value("score", 0.0)});
  return out;
}

result<std::vector<hit>> brave(const web_state& s, const std::string& query, int n) {
  const auto& o = s.options;
  http::request req{.url = o.brave_url + "/res/v1/web/search?q=" + url_encode(query) +
                           "&count=" + std::to_string(n)};
  req.headers = {{"X-Subscription-Token", o.brave_api_key}};
  auto j = get_json(s, req, "Brave Search", {o.brave_api_key}, "BRAVE_API_KEY");
  if (!j) return fail(j.error());
  std::vector<hit> out;
  json results = j->contains("web") ? (*j)["web"].value("results", json::array()) : json::array();
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    // Brave gives no score: rank order becomes a score in (0, 1].
    out.push_back({strip_tags(r.value("title", "")), r.value("url", ""),
                   strip_tags(r.value("description", "")),
                   1.0 - static_cast<double>(i) / static_cast<double>(results.size())});
  }
  return out;
}

result<std::vector<hit>> searxng(const web_state& s, const std::string& query, int n) {
  http::request req{.url =
                        s.options.searxng_url + "/search?q=" + url_encode(query) + "&format=json"};
  auto j =
      get_json(s, req, "SearXNG", {}, "SEARXNG_URL (and that the instance enables format=json)");
  if (!j) return fail(j.error());
  std::vector<hit> out;
  for (const auto& r : j->value("results", json::array())) {
    if (static_cast<int>(out.size()) >= n) break;
    out.push_back(
        {r.value("title", ""), r.value("url", ""), r.value("content", ""), r.value("score", 0.0)});
  }
  return out;
}

std::string provider_of(const web_options& o) {
  if (!o.search_provider.empty()) return o.search_provider;
  if (!o.tavily_api_key.empty()) return "tavily";
  if (!o.brave_api_key.empty()) return "brave";
  if (!o.searxng_url.empty()) return "searxng";
  return "";
}

struct web_search_args {
  std::string query;
  std::int64_t max_results = 5;
};
TOOLUSE_DESCRIBE(web_search_args,
                 (query,
                  "Search keywords, specific: names, products, places, years. E.g. \"OpenAI GPT-4 "
                  "pricing 2024\"",
                  tooluse::min_length(1)),
                 (max_results, "Number of results. Default 5", tooluse::minimum(1),
                  tooluse::maximum(20)))

tool_result web_search(const web_state& s, const web_search_args& args) {
  const std::string& query = args.query;
  if (query.empty())
    return tool_result::error("give a query, e.g. \"Eliud Kipchoge marathon record time\"");
  int n = static_cast<int>(std::clamp<std::int64_t>(args.max_results, 1, 20));
  std::string provider = provider_of(s.options);
  result<std::vector<hit>> hits = fail(errc::invalid_argument, "");
  if (provider == "tavily" && !s.options.tavily_api_key.empty())
    hits = tavily(s, query, n);
  else if (provider == "brave" && !s.options.brave_api_key.empty())
    hits = brave(s, query, n);
  else if (provider == "searxng" && !s.options.searxng_url.empty())
    hits = searxng(s, query, n);
  else
    return tool_result::error(
        "web search is not configured" +
        (provider.empty() ? std::string() : " for provider \"" + provider + "\"") +
        ": the user must set TAVILY_API_KEY, BRAVE_API_KEY or SEARXNG_URL; answer without web "
        "search "
        "or use wikipedia_search");
  if (!hits) return error_result(hits.error());
  json results = json::array();
  std::string text;
  int i = 0;
  for (const auto& h : *hits) {
    results.push_back(
        {{"title", h.title}, {"url", h.url}, {"snippet", h.snippet}, {"score", h.score}});
    text += std::to_string(++i) + ". " + h.title + "\n   " + h.url + "\n   " + h.snippet + "\n";
  }
  if (hits->empty()) text = "no results for \"" + query + "\"\n";
  return text_and_data(std::move(text),
                       {{"provider", provider}, {"query", query}, {"results", results}});
}

}  // namespace

void register_search_tools(tool_registry& registry, std::shared_ptr<const web_state> state) {
  tool definition = web_tool("web_search", state->options.timeout + std::chrono::seconds(5), 30);
  definition.cost_per_call = 0.008;  // Tavily basic search: 1 credit, about USD 0.008
  definition.requires_auth = true;
  add_tool(registry, std::move(definition),
           [state](const web_search_args& a) { return web_search(*state, a); });
}

}  // namespace tooluse::builtin::detail
