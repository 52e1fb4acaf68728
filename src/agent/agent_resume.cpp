// agent::resume: continue a journaled run from its snapshot without repeating completed work.
#include "tool_offer.hpp"
#include "tooluse/agent/agent.hpp"
#include "tooluse/agent/journal.hpp"

namespace tooluse {

result<run_result> agent::resume(const run_snapshot& snapshot, std::stop_token stop) {
  last_ = {};
  journal_error_.reset();
  seen_calls_.clear();
  previous_usage_.reset();
  history_ = snapshot.history;
  offer_->restore(history_);  // the tools earlier searches loaded are offered again
  last_.turns = snapshot.turns;
  last_.usage = snapshot.usage;
  last_.tool_calls = snapshot.tool_calls;
  if (snapshot.done) {
    last_.answer = snapshot.answer;
    return last_;
  }
  if (history_.empty())
    return fail(errc::invalid_argument, "agent: the run's journal holds no conversation to resume");
  // The latest response asked for tools: run those without a journaled result, then go on.
  if (history_.back().role == llm::role::assistant && !history_.back().tool_calls.empty()) {
    const std::vector<tool_call> calls = history_.back().tool_calls;
    auto results = run_calls(snapshot.turns, calls, stop, &snapshot.results);
    if (auto s = finish_calls(snapshot.turns, calls, results); !s) return fail_run(s.error());
  }
  return loop(snapshot.turns + 1, stop);
}

}  // namespace tooluse
