#pragma once
/// \file journal.hpp
/// tooluse::run_journal, the agent's checkpoint hook: a durable run tells its journal about
/// every step before the step takes effect (the model request, the model's response, each tool
/// call's start and result, an approval it waits for, the answer), and a journal that failed to
/// record a step stops the run. tooluse::run_snapshot is what a journal gives back to resume a
/// run with agent::resume. The store module (tooluse/store/store.hpp) implements both on SQLite
/// and PostgreSQL; design/store.md explains why a resumed run never repeats completed work.

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "tooluse/agent/agent.hpp"

namespace tooluse {

/// run_journal receives a run's steps, each before it takes effect. tool_started and
/// tool_finished may be called from executor threads, concurrently for different calls; the
/// other members are called on the thread running the agent. A failed status stops the run.
class run_journal {
 public:
  virtual ~run_journal() = default;

  /// run_id names the run; tool calls get the idempotency key "RUN_ID/CALL_ID".
  virtual std::string run_id() const = 0;
  /// started records a new run's first messages (system prompt, question).
  virtual status started(const std::vector<llm::message>& history) = 0;
  /// model_request is called before request number `turn` is sent.
  virtual status model_request(int turn) = 0;
  /// model_response records the model's reply to request `turn` before the agent acts on it.
  virtual status model_response(int turn, const llm::chat_response& reply) = 0;
  /// tool_started is called before the tool's handler runs.
  virtual status tool_started(int turn, const tool_call& call) = 0;
  /// tool_finished records a call's result before the model sees it.
  virtual status tool_finished(int turn, const tool_call& call, const tool_result& result,
                               std::chrono::milliseconds duration) = 0;
  /// approval_waiting records that `call` waits for a person's decision; the run stops.
  virtual status approval_waiting(int turn, const tool_call& call, const std::string& reason) = 0;
  /// answered records the final answer; the run is done.
  virtual status answered(int turn, const std::string& answer, const llm::usage& total) = 0;
  /// failed records that the run stopped with `e` (it may be resumed).
  virtual status failed(const error& e) = 0;
};

/// run_snapshot is a run rebuilt from its journal. `history` ends with the latest model
/// response; when that response asked for tools, `results` holds those of its calls whose
/// result was journaled (by call id) and the rest run again on resume.
struct run_snapshot {
  std::vector<llm::message> history;
  int turns = 0;  ///< model responses journaled
  llm::usage usage;
  std::vector<tool_call_record> tool_calls;  ///< every journaled result, in order
  std::map<std::string, tool_result> results;
  bool done = false;
  std::string answer;
};

}  // namespace tooluse
