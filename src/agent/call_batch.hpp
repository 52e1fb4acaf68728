#pragma once
// agent::call_batch: one model reply's tool calls between their three phases (prepare, run,
// conclude; agent_calls.cpp), so an asynchronous run can run the middle one elsewhere.
#include <memory>
#include <vector>

#include "agent/journal_hooks.hpp"
#include "tooluse/agent/agent.hpp"

namespace tooluse {

struct agent::call_batch {
  std::vector<tool_result> results;  ///< one per call of the reply, in call order
  std::vector<tool_call> to_run;     ///< the calls that go to the engine
  std::vector<size_t> slots;         ///< where each of to_run's results goes in `results`
  std::vector<char> replayed;        ///< calls answered from the journal
  std::unique_ptr<journal_hooks> hooks;
};

}  // namespace tooluse
