#pragma once
// Shared by `tooluse run` and `tooluse chat`: model flags, the TOML config, .env loading,
// provider construction, approval prompts.

#include <memory>
#include <optional>
#include <string>

#include "cli.hpp"
#include "provider_setup.hpp"
#include "tooluse/agent/agent.hpp"
#include "tooluse/agent/spinner.hpp"
#include "tooluse/exec/approval.hpp"
#include "tooluse/exec/events.hpp"
#include "tooluse/llm/provider.hpp"

namespace tooluse::cli {

/// model_flags are the options naming the model and shaping the loop. Empty/unset fields are
/// filled from the config file, then from defaults.
struct model_flags {
  std::string provider;  ///< openai | openai-responses | anthropic | gemini
  std::string base_url;
  std::string model;
  std::string api_key_env;
  std::string config;  ///< path of the TOML config; empty: ~/.config/tooluse/config.toml
  std::string system;
  std::string tool_choice;
  std::string record;
  std::string replay;
  std::string tool_format;  ///< raw-text tool calling (hermes, pythonic, ..., auto); empty: native
  std::optional<int> max_turns;
  std::optional<int> max_tokens;
  std::optional<double> max_cost;
  bool stream = false;
  bool no_stream = false;
  bool no_parallel = false;
  bool strict = false;
  bool yes = false;        ///< approve dangerous tools without asking
  provider_extras extras;  ///< prices, tool search, allowed tools (provider_setup.hpp)
};

/// add_model_flags adds the flags above to `cmd`.
void add_model_flags(CLI::App& cmd, model_flags& flags);

/// resolved_model is what the flags, config and environment amount to.
struct resolved_model {
  std::unique_ptr<llm::provider> provider;
  agent_options options;
  std::optional<llm::price> price;  ///< the model's, from the price catalog
};

/// resolve_model builds the provider and agent options. Errors carry the message to print
/// (no provider configured: how to configure one; a key variable unset; a bad config file).
result<resolved_model> resolve_model(model_flags& flags, registry_flags& registry);

/// usage_summary is the "[usage] N requests, N input tokens, N output tokens, cost $X" line
/// (with its newline) that `run` prints after an answer and chat's /cost prints for the session;
/// without a price the cost says how to give one.
std::string usage_summary(const llm::usage& u, bool priced);

/// check_tool_choice refuses a --tool-choice that is not auto, none, required or a tool of
/// `registry` (the message lists the choices).
status check_tool_choice(const model_flags& flags, const tool_registry& registry);

/// note_strict_drops prints, with --strict, a note on stderr for each tool whose schema holds
/// what OpenAI's strict mode cannot express, naming the keyword (the model sees the schema
/// without it; calls are still checked against the full schema).
void note_strict_drops(const model_flags& flags, const tool_registry& registry);

/// progress_lines returns an executor event callback that prints each progress report of a
/// running tool (MCP notifications/progress of mounted servers included) as
/// "[progress] NAME 3/10 message" through the spinner, only when stderr is a terminal.
exec::event_callback progress_lines(tool_spinner* spinner);

/// trace_header is the first line of a --trace file: {"event":"run","ts","question","provider",
/// "model","tools":[...]} (the trace viewer's title).
json trace_header(const std::string& question, const model_flags& flags,
                  const tool_registry& registry);

/// write_trace_line writes `j` with "ts" (Unix time in ms) as one JSON line and flushes, so a
/// reader (tooluse trace serve) sees it at once.
void write_trace_line(std::ostream& out, json j);

/// approval_prompt returns a policy that asks on the terminal (or rejects when stdin is not a
/// terminal), unless `yes` approves everything. Prompts are asked one at a time; `spinner`, if
/// given, is suspended while asking.
exec::approval_policy approval_prompt(bool yes, tool_spinner* spinner = nullptr);

/// make_stderr_spinner returns the spinner `run` and `chat` show while tools run: on stderr,
/// drawn only when stderr is a terminal.
std::unique_ptr<tool_spinner> make_stderr_spinner();

/// one_line replaces newlines by spaces and cuts `s` to `n` characters (with "...").
std::string one_line(std::string s, size_t n = 200);

/// tool_call_line and tool_result_line are the progress lines both commands print on stderr:
/// "[tool] NAME ARGS\n" and "[tool] NAME -> RESULT (N ms)\n" (or "failed: ...").
std::string tool_call_line(const agent_event& e);
std::string tool_result_line(const agent_event& e);

}  // namespace tooluse::cli
