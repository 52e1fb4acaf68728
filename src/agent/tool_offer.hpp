#pragma once
// What the agent offers the model on each request: every tool, or (with tool search) the
// search tool, the always-loaded tools and the tools found so far; the allowed-tools narrowing;
// and the cost estimate --max-cost stops on. Kept apart from agent.cpp's loop.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tooluse/agent/tool_search.hpp"
#include "tooluse/llm/provider.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse::agent_detail {

class tool_offer {
 public:
  tool_offer(const tool_registry& tools, tool_search_options options, bool provider_native);

  /// prepare fills req.tools (and allowed/deferred/native search fields) for one request.
  void prepare(llm::chat_request& req, const std::vector<std::string>& allowed);
  /// is_search_call says whether `c` is a call of tooluse's search tool in the current offer.
  bool is_search_call(const tool_call& c) const;
  /// run_search ranks the tools for the call's query and loads the hits into the next request.
  tool_result run_search(const tool_call& c);
  /// reset forgets the loaded tools (a new conversation).
  void reset() { loaded_.clear(); }
  /// restore reloads the tools the searches in `history` found (a resumed run): each search
  /// call is ranked again against the same registry, so the next request offers what the
  /// model saw loaded before the crash.
  void restore(const std::vector<llm::message>& history);

 private:
  tool search_tool() const;
  void reindex(const std::vector<tool>& all);

  const tool_registry& tools_;
  tool_search_options options_;
  bool provider_native_;
  bool searching_ = false;
  tool_index index_;
  std::vector<std::string> indexed_names_;
  std::vector<std::string> loaded_;  // in the order found
};

/// estimate_cost guesses what the next request costs at `p`: its prompt is the previous
/// request's prompt and answer plus the new messages (4 characters a token); its answer as
/// long as the previous one. Without a previous request the whole request is counted.
double estimate_cost(const llm::chat_request& req, const std::optional<llm::usage>& previous,
                     std::size_t new_messages_from, const llm::price& p);

/// usd formats an amount as "$0.001234".
std::string usd(double amount);

}  // namespace tooluse::agent_detail
