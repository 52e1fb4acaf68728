#pragma once
// journal_hooks: how one batch of tool calls reaches the run's journal. Starts and results are
// journaled from the executor's events (on worker threads, as each call starts and ends), so a
// crash in the middle of a parallel batch keeps the results already in; calls the agent answers
// itself, and runs with a custom runner, are journaled from the agent's thread. The first
// journal failure is kept and stops the run after the batch.
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "tooluse/agent/journal.hpp"
#include "tooluse/exec/approval.hpp"
#include "tooluse/exec/events.hpp"

namespace tooluse {

class journal_hooks {
 public:
  /// `cap` is applied to a result before it is journaled, as before the model sees it.
  journal_hooks(run_journal* journal, int turn, std::size_t calls,
                std::function<void(tool_result&)> cap)
      : journal_(journal), turn_(turn), cap_(std::move(cap)), journaled_(calls, 0) {}

  void started(const tool_call& c) {
    if (journal_) note(journal_->tool_started(turn_, c));
  }

  void on_event(const exec::call_event& e) {
    if (!journal_ || !e.call) return;
    if (e.kind == exec::event_kind::start) {
      note(journal_->tool_started(turn_, *e.call));
    } else if (e.kind == exec::event_kind::end && e.result &&
               !exec::pending_from_result(*e.result)) {
      note(journal_->tool_finished(
          turn_, *e.call, *e.result,
          std::chrono::duration_cast<std::chrono::milliseconds>(e.duration)));
      std::lock_guard lock(mutex_);
      if (e.index < journaled_.size()) journaled_[e.index] = 1;
    }
  }

  // finished journals the k-th call of the batch unless its end event did already.
  void finished(std::size_t k, const tool_call& c, const tool_result& r) {
    if (!journal_ || exec::pending_from_result(r)) return;
    {
      std::lock_guard lock(mutex_);
      if (k < journaled_.size() && journaled_[k]) return;
    }
    tool_result capped = r;
    if (cap_) cap_(capped);
    finished_here(c, capped);
  }

  void finished_here(const tool_call& c, const tool_result& r) {
    if (journal_)
      note(journal_->tool_finished(
          turn_, c, r, std::chrono::duration_cast<std::chrono::milliseconds>(r.duration)));
  }

  std::optional<tooluse::error> error() const {
    std::lock_guard lock(mutex_);
    return error_;
  }

 private:
  void note(const status& s) {
    if (s) return;
    std::lock_guard lock(mutex_);
    if (!error_) error_ = s.error();
  }

  run_journal* journal_;
  int turn_;
  std::function<void(tool_result&)> cap_;
  mutable std::mutex mutex_;
  std::vector<char> journaled_;
  std::optional<tooluse::error> error_;
};

}  // namespace tooluse
