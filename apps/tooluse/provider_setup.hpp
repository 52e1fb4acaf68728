#pragma once
// Provider choice for `run` and `chat`: each provider's defaults (base URL, model, key
// variables), constructing it, the price catalog, and the flags for tool search, allowed tools
// and prices. Kept apart from agent_setup.cpp.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "tooluse/agent/agent.hpp"
#include "tooluse/llm/prices.hpp"
#include "tooluse/llm/provider.hpp"

namespace tooluse::cli {

/// provider_names are the accepted --provider values.
const std::vector<std::string>& provider_names();

/// provider_defaults are what an unset flag falls back to for one provider.
struct provider_defaults {
  std::string base_url;
  std::string model;
  std::vector<std::string> key_envs;  ///< tried in order
};
provider_defaults defaults_for(const std::string& provider);

/// make_provider constructs the adapter named `provider` ("openai", "openai-responses",
/// "anthropic", "gemini").
std::unique_ptr<llm::provider> make_provider(const std::string& provider, llm::provider_options po);

/// provider_extras are the flags of this file.
struct provider_extras {
  std::string prices;         ///< --prices FILE
  std::string allowed_tools;  ///< --allowed-tools a,b
  std::string tool_search = "auto";
  std::optional<std::size_t> tool_search_threshold;
  std::string always_load;  ///< --always-load a,b
};
void add_provider_flags(CLI::App& cmd, provider_extras& extras);

/// load_prices returns the built-in catalog overlaid with ~/.config/tooluse/prices.json,
/// $TOOLUSE_PRICES and --prices, each when present. Errors: an unreadable or bad file.
result<llm::price_catalog> load_prices(const std::string& flag_path);

/// apply_extras sets the tool search, allowed tools and price of `options` from the flags.
/// `price` is the model's price (nullopt: not catalogued); with --max-cost set and no price,
/// an error says how to add one.
status apply_extras(const provider_extras& extras, const std::optional<llm::price>& price,
                    const std::string& model, agent_options& options);

/// split_list splits "a,b,c" into its non-empty names.
std::vector<std::string> split_list(const std::string& text);

}  // namespace tooluse::cli
