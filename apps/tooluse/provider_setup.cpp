#include "provider_setup.hpp"

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "tooluse/llm/anthropic_messages.hpp"
#include "tooluse/llm/gemini.hpp"
#include "tooluse/llm/openai_chat.hpp"
#include "tooluse/llm/openai_responses.hpp"

namespace tooluse::cli {
namespace {

std::string env_value(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

const std::vector<std::string>& provider_names() {
  static const std::vector<std::string> names = {"openai", "openai-responses", "anthropic",
                                                 "gemini"};
  return names;
}

provider_defaults defaults_for(const std::string& provider) {
  if (provider == "anthropic")
    return {"https://api.anthropic.com", "claude-sonnet-4-5", {"ANTHROPIC_API_KEY"}};
  if (provider == "gemini")
    return {"https://generativelanguage.googleapis.com",
            "gemini-2.5-flash",
            {"GEMINI_API_KEY", "GOOGLE_API_KEY"}};
  return {"https://api.openai.com/v1", "gpt-4.1-mini", {"OPENAI_API_KEY"}};
}

std::unique_ptr<llm::provider> make_provider(const std::string& provider,
                                             llm::provider_options po) {
  if (provider == "anthropic") return std::make_unique<llm::anthropic_messages>(std::move(po));
  if (provider == "gemini") return std::make_unique<llm::gemini>(std::move(po));
  if (provider == "openai-responses") return std::make_unique<llm::openai_responses>(std::move(po));
  return std::make_unique<llm::openai_chat>(std::move(po));
}

void add_provider_flags(CLI::App& cmd, provider_extras& x) {
  cmd.add_option("--prices", x.prices,
                 "Price catalog JSON overriding the built-in one ({\"models\":{NAME:{\"input\","
                 "\"cached_input\",\"output\"}}}, USD per million tokens; also $TOOLUSE_PRICES)");
  cmd.add_option("--allowed-tools", x.allowed_tools,
                 "Comma-separated tools the model may call, through the provider's allowed-tools "
                 "mode (the tool list, and so the prompt cache, stays the same)");
  cmd.add_option("--tool-search", x.tool_search,
                 "auto (search above the threshold), off, always, or native (the provider's own "
                 "tool search where it has one: Anthropic)")
      ->check(CLI::IsMember({"auto", "off", "always", "native"}));
  cmd.add_option("--tool-search-threshold", x.tool_search_threshold,
                 "Above this many tools, offer a search tool instead of every tool (default 32)");
  cmd.add_option("--always-load", x.always_load,
                 "Comma-separated tools always offered when tool search is on");
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string name; std::getline(ss, name, ',');)
    if (!name.empty()) out.push_back(name);
  return out;
}

result<llm::price_catalog> load_prices(const std::string& flag_path) {
  llm::price_catalog catalog = llm::price_catalog::builtin();
  std::vector<std::pair<std::string, bool>> layers;  // path, must exist
  std::string config = env_value("XDG_CONFIG_HOME");
  if (config.empty() && !env_value("HOME").empty()) config = env_value("HOME") + "/.config";
  if (!config.empty()) layers.push_back({config + "/tooluse/prices.json", false});
  if (auto e = env_value("TOOLUSE_PRICES"); !e.empty()) layers.push_back({e, true});
  if (!flag_path.empty()) layers.push_back({flag_path, true});
  for (const auto& [path, required] : layers) {
    if (!required && !std::filesystem::exists(path)) continue;
    auto more = llm::price_catalog::load(path);
    if (!more) return fail(more.error());
    catalog.merge(*more);
  }
  return catalog;
}

status apply_extras(const provider_extras& x, const std::optional<llm::price>& price,
                    const std::string& model, agent_options& options) {
  auto mode = parse_tool_search_mode(x.tool_search);
  if (!mode) return fail(mode.error());
  options.tool_search.use = *mode;
  if (x.tool_search_threshold) options.tool_search.threshold = *x.tool_search_threshold;
  options.tool_search.always_loaded = split_list(x.always_load);
  options.allowed_tools = split_list(x.allowed_tools);
  options.price = price;
  if (options.max_cost > 0 && !price)
    return fail(errc::invalid_argument,
                "--max-cost needs the price of \"" + model +
                    "\", which is not in the price catalog; give it with --prices FILE, e.g. "
                    "{\"models\":{\"" +
                    model +
                    "\":{\"input\":1.0,\"output\":4.0}}} (USD per "
                    "million tokens)");
  return {};
}

}  // namespace tooluse::cli
