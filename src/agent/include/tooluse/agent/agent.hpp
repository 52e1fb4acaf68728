#pragma once
/// \file agent.hpp
/// tooluse::agent, the tool-use loop: send the conversation and the tools to a model; when it
/// asks for tools, append its message, run the calls (in parallel, through the execution
/// engine), append one result per call with the matching id in call order, and ask again;
/// stop on a final answer, max_turns, a budget or cancellation (seed 000's run_step).

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

#include "tooluse/agent/events.hpp"
#include "tooluse/agent/tool_search.hpp"
#include "tooluse/llm/provider.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse {

namespace exec {
class executor;
}
class run_journal;
struct run_snapshot;
namespace agent_detail {
class tool_offer;
}

/// tool_runner runs a batch of calls and returns one result per call, in call order.
using tool_runner =
    std::function<std::vector<tool_result>(std::span<const tool_call> calls, std::stop_token stop)>;

/// agent_options tune the loop. Defaults suit an interactive run.
struct agent_options {
  std::string system;  ///< system prompt; empty: none
  int max_turns = 10;  ///< model requests per run
  /// choice applies to the first request of a run only; later requests use auto, otherwise a
  /// forced tool choice would never let the model answer.
  llm::tool_choice choice;
  std::optional<bool> parallel_tool_calls;
  bool strict = false;  ///< OpenAI strict schemas
  bool stream = false;
  std::optional<int> max_tokens;
  std::optional<double> temperature;
  /// max_cost stops the run before a request that would take its cost past this (estimated
  /// with `price`), and after a response that did; 0: no limit.
  double max_cost = 0;
  /// price of the model, for the estimate above (the provider computes each response's cost
  /// from its own provider_options::price). Unset: the run stops only once over budget.
  std::optional<llm::price> price;
  /// tool_search: with many tools, offer a search tool and load what it finds (tool_search.hpp).
  tool_search_options tool_search;
  /// allowed_tools narrows the tools the model may call through the provider's allowed-tools
  /// mode, keeping the tool list (and the prompt cache) unchanged. Empty: all.
  std::vector<std::string> allowed_tools;
  /// allowed_tools_for overrides allowed_tools per request (1-based turn), if set.
  std::function<std::vector<std::string>(int turn)> allowed_tools_for;
  std::int64_t max_total_tokens = 0;  ///< stop when the run's tokens exceed this; 0: no limit
  int loop_limit = 2;  ///< identical calls (same tool, same arguments) run before the model is told
  /// max_tool_calls_per_turn bounds the calls run for one model reply; the calls past it are
  /// answered with an error result naming this limit (the model may ask again next turn).
  int max_tool_calls_per_turn = 32;
  /// max_tool_result_bytes bounds each tool result kept in the conversation (text, images and
  /// resources together); a larger result is cut, with a note naming this limit, so one tool
  /// or peer cannot grow every later request without bound.
  std::size_t max_tool_result_bytes = 256u << 10;
  agent_event_handler on_event;
  /// executor runs the calls; null: the agent makes its own small one. Share one executor
  /// between many agents (it owns threads).
  exec::executor* executor = nullptr;
  /// runner overrides the executor entirely (tests, custom engines).
  tool_runner runner;
  /// journal, when set, makes the run durable: every step is recorded before it takes effect
  /// (tooluse/agent/journal.hpp), tool calls get idempotency keys, and a dangerous call the
  /// approval policy defers stops the run as waiting instead of answering the model.
  std::shared_ptr<run_journal> journal;
};

/// tool_call_record is one call of a run with its outcome.
struct tool_call_record {
  tool_call call;
  tool_result result;
  std::chrono::milliseconds duration{0};
  int turn = 0;
};

/// run_result is a finished run.
struct run_result {
  std::string answer;
  int turns = 0;
  std::vector<tool_call_record> tool_calls;
  llm::usage usage;
  llm::finish_reason finish = llm::finish_reason::stop;
  /// waiting holds the calls a journaled run stopped for, waiting for approval.
  std::vector<tool_call> waiting;
};

/// run_completion receives the outcome of agent::run_async, exactly once.
using run_completion = std::function<void(result<run_result>)>;

/// agent holds a conversation with one model over one registry. Not thread-safe: one run at a
/// time per agent; make one agent per concurrent conversation (they may share provider,
/// registry and executor, which are thread-safe).
/// Example:
///   tooluse::llm::openai_chat model({.base_url = url, .api_key = key, .model = "gpt-4.1-mini"});
///   tooluse::agent agent(model, registry, {.max_turns = 8});
///   auto reply = agent.run("What is 2 + 40?");
///   if (reply) std::cout << reply->answer << "\n";
class agent {
 public:
  /// agent keeps references to `model` and `tools`; both must outlive it.
  /// Throws std::invalid_argument if max_turns < 1 or loop_limit < 1.
  agent(llm::provider& model, const tool_registry& tools, agent_options options = {});
  ~agent();
  agent(const agent&) = delete;
  agent& operator=(const agent&) = delete;

  /// run adds `user_text` to the conversation and loops until the model answers.
  /// Errors: errc::budget_exceeded (max_turns, max_cost, max_total_tokens: the message says
  /// which, what was spent, and how to raise it), errc::cancelled, errc::protocol_error (e.g.
  /// tool-call arguments cut at the token limit), and every provider error.
  result<run_result> run(std::string user_text, std::stop_token stop = {});

  /// run_async starts what run() does and returns at once; `done` gets what run() would
  /// have returned. No thread waits for the model: with a provider that has a non-blocking
  /// path (openai_chat) the requests go out on the HTTP pool, and the run goes on on the
  /// pool's threads, where on_event and `done` then run (they must not block). Tool calls go
  /// through the executor as in run(): quick synchronous tools on the run's thread, others
  /// on a thread that waits for the executor. Streaming, approval, journaling, cancellation
  /// (`stop`) and budgets work as in run(). The agent must outlive the run, and the next
  /// run of this agent may start only once `done` was called.
  /// Example:
  ///   agent.run_async("What is 2 + 40?", [](tooluse::result<tooluse::run_result> r) { ... });
  void run_async(std::string user_text, run_completion done, std::stop_token stop = {});

  /// resume continues a journaled run from `snapshot` (run_journal, options().journal): the
  /// conversation is replaced by the snapshot's, the last response's calls without a journaled
  /// result run (the others are not repeated), and the loop goes on. A done snapshot returns
  /// its answer without asking the model. Errors: as run.
  result<run_result> resume(const run_snapshot& snapshot, std::stop_token stop = {});

  /// history returns the conversation so far (system prompt included).
  const std::vector<llm::message>& history() const { return history_; }

  /// last_run returns the latest run's progress, also when it failed.
  const run_result& last_run() const { return last_; }

  /// reset forgets the conversation (the system prompt is kept).
  void reset();

  /// options returns the options in effect.
  const agent_options& options() const { return options_; }

 private:
  struct run_state;   // one run's progress between its steps (agent_loop.cpp)
  struct call_batch;  // one reply's tool calls between their phases (call_batch.hpp)
  using run_ptr = std::shared_ptr<run_state>;
  result<llm::chat_request> make_request(int turn);
  llm::stream_callbacks stream_to_events(int turn) const;
  void start_run(std::string user_text, std::stop_token stop, bool async, run_completion done);
  result<run_result> loop(int first_turn, std::stop_token stop);
  void drive(int first_turn, std::stop_token stop, bool async, run_completion done);
  void advance(const run_ptr& st);
  std::optional<error> begin_turn(run_state& st);
  void ask_model(const run_ptr& st);
  void on_reply(const run_ptr& st, result<llm::chat_response> reply);
  void run_calls_then(const run_ptr& st);
  void after_calls(const run_ptr& st, std::vector<tool_result> results);
  void turn_done(const run_ptr& st);
  void complete(const run_ptr& st, result<run_result> r);
  result<run_result> fail_run(error e);
  std::vector<tool_result> run_calls(int turn, const std::vector<tool_call>& calls,
                                     std::stop_token stop,
                                     const std::map<std::string, tool_result>* done = nullptr);
  call_batch prepare_calls(int turn, const std::vector<tool_call>& calls,
                           const std::map<std::string, tool_result>* done);
  std::vector<tool_result> execute_calls(call_batch& batch, std::stop_token stop);
  bool calls_run_inline(const call_batch& batch) const;
  std::vector<tool_result> execute_inline(call_batch& batch, std::stop_token stop);
  std::vector<tool_result> conclude_calls(int turn, const std::vector<tool_call>& calls,
                                          call_batch& batch, std::vector<tool_result> ran);
  status finish_calls(int turn, const std::vector<tool_call>& calls,
                      std::vector<tool_result>& results);
  status check_budget() const;
  void emit(agent_event e) const;

  llm::provider& model_;
  const tool_registry& tools_;
  agent_options options_;
  std::unique_ptr<exec::executor> own_executor_;
  std::vector<llm::message> history_;
  run_result last_;
  struct loop_entry {
    int count = 0;
    std::string last_text;
  };
  std::map<std::string, loop_entry> seen_calls_;
  std::optional<error> journal_error_;
  std::unique_ptr<agent_detail::tool_offer> offer_;
  std::optional<llm::usage> previous_usage_;  // the last response's, for cost estimates
  std::size_t previous_history_ = 0;          // history length when it was sent
};

}  // namespace tooluse
