#include "tool_offer.hpp"

#include <algorithm>
#include <cstdio>

namespace tooluse::agent_detail {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

tool_offer::tool_offer(const tool_registry& tools, tool_search_options options,
                       bool provider_native)
    : tools_(tools), options_(std::move(options)), provider_native_(provider_native) {}

void tool_offer::reindex(const std::vector<tool>& all) {
  std::vector<std::string> names;
  for (const auto& t : all) names.push_back(t.name);
  if (names == indexed_names_) return;
  index_ = tool_index(all);
  indexed_names_ = std::move(names);
}

tool tool_offer::search_tool() const {
  std::size_t hidden =
      indexed_names_.size() - std::min(indexed_names_.size(), options_.always_loaded.size());
  return {.name = options_.tool_name,
          .description =
              "Search the " + std::to_string(hidden) +
              " tools that are available but not loaded yet, by keywords (what you want to do, "
              "the objects and actions involved). The best " +
              std::to_string(options_.max_results) +
              " matches are loaded and can be called from your next step on. Call it whenever "
              "you need a tool you do not see.",
          .input_schema = {
              {"type", "object"},
              {"properties",
               {{"query",
                 {{"type", "string"}, {"description", "keywords describing the tool you need"}}}}},
              {"required", {"query"}}}};
}

void tool_offer::prepare(llm::chat_request& req, const std::vector<std::string>& allowed) {
  using mode = tool_search_options::mode;
  std::vector<tool> all;
  for (const auto& entry : tools_.list()) all.push_back(entry->definition);
  bool many = all.size() > options_.threshold;
  searching_ = options_.use == mode::always ||
               ((options_.use == mode::automatic || options_.use == mode::native) && many);
  if (searching_ && options_.use == mode::native && provider_native_) {
    // The provider searches: every tool goes, all but the always-loaded ones deferred.
    searching_ = false;
    for (const auto& t : all)
      if (!contains(options_.always_loaded, t.name)) req.deferred_tools.push_back(t.name);
    req.native_tool_search = "bm25";
    req.tools = std::move(all);
  } else if (!searching_) {
    req.tools = std::move(all);
  } else {
    reindex(all);
    req.tools.clear();
    for (const auto& t : all)
      if (contains(options_.always_loaded, t.name)) req.tools.push_back(t);
    for (const auto& name : loaded_)
      for (const auto& t : all)
        if (t.name == name && !contains(options_.always_loaded, name)) req.tools.push_back(t);
    req.tools.push_back(search_tool());
  }
  if (!allowed.empty()) {
    for (const auto& name : allowed)
      for (const auto& t : req.tools)
        if (t.name == name) req.allowed_tools.push_back(name);
    if (searching_) req.allowed_tools.push_back(options_.tool_name);
  }
}

void tool_offer::restore(const std::vector<llm::message>& history) {
  loaded_.clear();
  llm::chat_request probe;
  prepare(probe, {});  // decides whether tooluse searches, and indexes the tools
  if (!searching_) return;
  for (const auto& m : history)
    if (m.role == llm::role::assistant)
      for (const auto& c : m.tool_calls)
        if (is_search_call(c)) (void)run_search(c);
}

bool tool_offer::is_search_call(const tool_call& c) const {
  return searching_ && c.name == options_.tool_name && !tools_.find(c.name);
}

tool_result tool_offer::run_search(const tool_call& c) {
  if (!c.arguments.is_object() || !c.arguments.contains("query") ||
      !c.arguments["query"].is_string())
    return tool_result::error(
        "\"" + options_.tool_name +
        "\" needs {\"query\": \"keywords\"}, e.g. {\"query\": \"send email\"}");
  std::string query = c.arguments["query"].get<std::string>();
  auto hits = index_.search(query, options_.max_results);
  if (hits.empty())
    return tool_result::text("No tool matches \"" + query +
                             "\". Try other words (synonyms, the "
                             "action or the object involved).");
  std::string text = "Loaded " + std::to_string(hits.size()) + " tools; call them directly:\n";
  for (const auto& h : hits) {
    if (!contains(loaded_, h.name) && !contains(options_.always_loaded, h.name))
      loaded_.push_back(h.name);
    auto entry = tools_.find(h.name);
    std::string description = entry ? entry->definition.description : "";
    if (description.size() > 200) {
      std::size_t cut = 200;  // not inside a UTF-8 sequence: the text goes to a model as JSON
      while (cut > 0 && (static_cast<unsigned char>(description[cut]) & 0xC0) == 0x80) --cut;
      description = description.substr(0, cut) + "...";
    }
    text += "- " + h.name + ": " + description + "\n";
  }
  return tool_result::text(text);
}

double estimate_cost(const llm::chat_request& req, const std::optional<llm::usage>& previous,
                     std::size_t new_messages_from, const llm::price& p) {
  std::size_t chars = 0;
  auto count = [&](const llm::message& m) {
    chars += m.text().size() + m.reasoning.size();
    for (const auto& c : m.tool_calls) chars += c.name.size() + c.raw_arguments.size();
  };
  llm::usage u;
  if (previous) {
    for (std::size_t i = new_messages_from; i < req.messages.size(); ++i) count(req.messages[i]);
    u.input_tokens =
        previous->input_tokens + previous->output_tokens + static_cast<std::int64_t>(chars / 4);
    u.output_tokens = previous->output_tokens;
  } else {
    for (const auto& m : req.messages) count(m);
    for (const auto& t : req.tools)
      chars += t.name.size() + t.description.size() + dump_json(t.input_schema).size();
    u.input_tokens = static_cast<std::int64_t>(chars / 4);
  }
  return llm::cost_of(u, p);
}

std::string usd(double amount) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "$%.6f", amount);
  return buf;
}

}  // namespace tooluse::agent_detail
