// wikipedia_search and wikipedia_page over the MediaWiki Action API (exact titles, sections,
// length limits, language).
#include "builtin/tool_util.hpp"
#include "builtin/web_impl.hpp"
#include "tooluse/tools/typed.hpp"

namespace tooluse::builtin::detail {
namespace {

result<std::string> api_base(const web_options& o, const std::string& lang) {
  bool ok = lang.size() >= 2 && lang.size() <= 12;
  for (char c : lang)
    if (!std::islower(static_cast<unsigned char>(c)) && c != '-') ok = false;
  if (!ok)
    return fail(errc::invalid_argument,
                "language \"" + lang + "\" is not a Wikipedia code such as \"en\", \"de\", \"zh\"");
  std::string base = o.wikipedia_url;
  if (auto p = base.find("{lang}"); p != std::string::npos) base.replace(p, 6, lang);
  return base + "/w/api.php?format=json&formatversion=2&";
}

struct wikipedia_search_args {
  std::string query;
  std::int64_t max_results = 5;
  std::string language = "en";
};
TOOLUSE_DESCRIBE(wikipedia_search_args,
                 (query, "Words to search for, e.g. \"Eliud Kipchoge\"", tooluse::min_length(1)),
                 (max_results, "Number of titles. Default 5", tooluse::minimum(1),
                  tooluse::maximum(20)),
                 (language,
                  "Wikipedia language code: \"en\", \"de\", \"fr\", \"zh\"... Default \"en\""))

struct wikipedia_page_args {
  std::string title;
  std::optional<std::string> section;
  std::int64_t max_chars = 8000;
  std::int64_t start_char = 0;
  std::string language = "en";
};
TOOLUSE_DESCRIBE(wikipedia_page_args,
                 (title, "Exact page title, e.g. \"Moon\" or \"Eliud Kipchoge\"",
                  tooluse::min_length(1)),
                 (section, "Only this section, by its heading, e.g. \"Orbit\""),
                 (max_chars, "Characters of text to return. Default 8000", tooluse::minimum(100),
                  tooluse::maximum(100000)),
                 (start_char, "Offset to continue a cut page. Default 0", tooluse::minimum(0),
                  tooluse::default_value(0)),
                 (language, "Wikipedia language code. Default \"en\""))

tool_result wikipedia_search(const web_state& s, const wikipedia_search_args& args) {
  const std::string& query = args.query;
  if (query.empty()) return tool_result::error("give a query, e.g. \"Moon perigee\"");
  int n = static_cast<int>(std::clamp<std::int64_t>(args.max_results, 1, 20));
  auto base = api_base(s.options, args.language);
  if (!base) return error_result(base.error());
  http::request req{.url = *base + "action=query&list=search&srprop=snippet%7Cwordcount&srlimit=" +
                           std::to_string(n) + "&srsearch=" + url_encode(query)};
  auto j = get_json(s, req, "Wikipedia");
  if (!j) return error_result(j.error());
  json results = json::array();
  std::string text;
  const json q = j->value("query", json::object());
  for (const auto& r : q.value("search", json::array())) {
    std::string snippet = strip_tags(r.value("snippet", ""));
    results.push_back({{"title", r.value("title", "")},
                       {"snippet", snippet},
                       {"words", r.value("wordcount", 0)}});
    text += "- " + r.value("title", "") + ": " + snippet + "\n";
  }
  if (results.empty())
    text = "no Wikipedia pages match \"" + query + "\"\n";
  else
    text += "(read one with wikipedia_page and its exact title)\n";
  return text_and_data(std::move(text), {{"query", query}, {"results", results}});
}

// sections lists "== Heading ==" lines of a plain-text extract; section_text cuts one out.
std::vector<std::string> section_names(const std::string& text) {
  std::vector<std::string> out;
  std::size_t p = 0;
  while ((p = text.find("\n==", p)) != std::string::npos) {
    auto end = text.find('\n', p + 1);
    std::string line = text.substr(p + 1, end - p - 1);
    auto a = line.find_first_not_of("= "), b = line.find_last_not_of("= ");
    if (a != std::string::npos) out.push_back(line.substr(a, b - a + 1));
    p = end == std::string::npos ? text.size() : end;
  }
  return out;
}

std::optional<std::string> section_text(const std::string& text, const std::string& name) {
  std::size_t p = 0;
  while ((p = text.find("\n==", p)) != std::string::npos) {
    auto end = text.find('\n', p + 1);
    std::string line = text.substr(p + 1, end - p - 1);
    int level = 0;
    while (level < static_cast<int>(line.size()) && line[static_cast<std::size_t>(level)] == '=')
      ++level;
    auto a = line.find_first_not_of("= "), b = line.find_last_not_of("= ");
    if (a != std::string::npos && line.substr(a, b - a + 1) == name) {
      std::size_t stop = end;
      // The section runs to the next heading of the same or a higher level.
      while ((stop = text.find("\n=", stop)) != std::string::npos) {
        int l = 0;
        while (stop + 1 + static_cast<std::size_t>(l) < text.size() &&
               text[stop + 1 + static_cast<std::size_t>(l)] == '=')
          ++l;
        if (l <= level) break;
        ++stop;
      }
      return text.substr(end == std::string::npos ? text.size() : end + 1,
                         stop == std::string::npos ? std::string::npos : stop - end - 1);
    }
    p = end == std::string::npos ? text.size() : end;
  }
  return std::nullopt;
}

tool_result wikipedia_page(const web_state& s, const wikipedia_page_args& args) {
  const std::string& title = args.title;
  if (title.empty())
    return tool_result::error(
        "give the exact page title, e.g. \"Moon\" (find it with wikipedia_search)");
  auto max_chars = static_cast<std::size_t>(std::clamp<std::int64_t>(args.max_chars, 100, 100000));
  auto start = static_cast<std::size_t>(std::max<std::int64_t>(0, args.start_char));
  auto base = api_base(s.options, args.language);
  if (!base) return error_result(base.error());
  // redirects=1 follows explicit redirects ("USA" -> "United States"); there is no fuzzy
  // auto-suggest: a title that does not exist is reported as missing.
  http::request req{.url = *base +
                           "action=query&prop=extracts%7Cpageprops%7Cinfo&inprop=url&explaintext=1&"
                           "exsectionformat=wiki&redirects=1&titles=" +
                           url_encode(title)};
  auto j = get_json(s, req, "Wikipedia");
  if (!j) return error_result(j.error());
  const json q = j->value("query", json::object());
  const json pages = q.value("pages", json::array());
  if (pages.empty() || pages[0].value("missing", false) || pages[0].value("invalid", false))
    return tool_result::error(
        "Wikipedia has no page titled \"" + title +
        "\"; titles must be exact: use wikipedia_search to find the right one");
  const json& page = pages[0];
  std::string text = "\n" + page.value("extract", "");
  json data = {{"title", page.value("title", title)}, {"url", page.value("fullurl", "")}};
  for (const auto& r : q.value("redirects", json::array()))
    data["redirected_from"] = r.value("from", "");
  if (page.contains("pageprops") && page["pageprops"].contains("disambiguation"))
    data["disambiguation"] = true;
  data["sections"] = section_names(text);
  if (std::string section = args.section.value_or(""); !section.empty()) {
    auto cut = section_text(text, section);
    if (!cut)
      return tool_result::error("page \"" + data["title"].get<std::string>() +
                                "\" has no section \"" + section + "\"; its sections are " +
                                data["sections"].dump());
    text = *cut;
    data["section"] = section;
  }
  while (!text.empty() && text.front() == '\n') text.erase(0, 1);
  data["total_chars"] = text.size();
  data["start_char"] = start;
  text = start < text.size() ? text.substr(start, max_chars) : std::string();
  bool truncated = start + text.size() < data["total_chars"].get<std::size_t>();
  data["truncated"] = truncated;
  data["text"] = text;
  std::string out =
      "# " + data["title"].get<std::string>() + "\n" + data["url"].get<std::string>() + "\n";
  if (data.contains("redirected_from"))
    out += "(redirected from \"" + data["redirected_from"].get<std::string>() + "\")\n";
  if (data.contains("disambiguation"))
    out += "(this is a disambiguation page: pick one of the titles it lists)\n";
  out += "\n" + text;
  if (truncated)
    out += "\n[cut at " + std::to_string(max_chars) +
           " characters; more with start_char=" + std::to_string(start + text.size()) +
           ", or ask for one section of " + data["sections"].dump() + "]";
  return text_and_data(std::move(out), std::move(data));
}

}  // namespace

void register_wikipedia_tools(tool_registry& registry, std::shared_ptr<const web_state> state) {
  auto timeout = state->options.timeout + std::chrono::seconds(5);
  add_tool(registry, web_tool("wikipedia_search", timeout),
           [state](const wikipedia_search_args& a) { return wikipedia_search(*state, a); });
  add_tool(registry, web_tool("wikipedia_page", timeout),
           [state](const wikipedia_page_args& a) { return wikipedia_page(*state, a); });
}

}  // namespace tooluse::builtin::detail
