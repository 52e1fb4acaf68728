#pragma once
// store_journal: a run_journal writing one row per step to tooluse_steps, each in its own
// transaction, before the agent lets the step take effect.
#include <atomic>
#include <memory>

#include "store/db.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::store::detail {

std::int64_t now_ms();

class store_journal final : public run_journal {
 public:
  /// `lock` is the run's lock (sql_db::lock_run), released with the journal.
  store_journal(std::shared_ptr<sql_db> db, std::string id, std::int64_t next_seq,
                std::shared_ptr<void> lock)
      : db_(std::move(db)), id_(std::move(id)), next_seq_(next_seq), lock_(std::move(lock)) {}

  std::string run_id() const override { return id_; }
  status started(const std::vector<llm::message>& history) override;
  status model_request(int turn) override;
  status model_response(int turn, const llm::chat_response& reply) override;
  status tool_started(int turn, const tool_call& call) override;
  status tool_finished(int turn, const tool_call& call, const tool_result& result,
                       std::chrono::milliseconds duration) override;
  status approval_waiting(int turn, const tool_call& call, const std::string& reason) override;
  status answered(int turn, const std::string& answer, const llm::usage& total) override;
  status failed(const error& e) override;

 private:
  struct run_update {
    std::string status;
    std::string column;  ///< "question", "answer" or "error"; empty: none
    std::string value;
  };
  status append(const std::string& kind, int turn, const std::string& call_id, const json& data,
                const run_update* update = nullptr, bool approval = false);

  std::shared_ptr<sql_db> db_;
  std::string id_;
  std::int64_t next_seq_;
  std::shared_ptr<void> lock_;  // after db_: released before the connection goes
};

}  // namespace tooluse::store::detail
