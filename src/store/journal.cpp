#include "store/journal.hpp"

#include <chrono>

#include "store/codec.hpp"

namespace tooluse::store::detail {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

status store_journal::append(const std::string& kind, int turn, const std::string& call_id,
                             const json& data, const run_update* update, bool approval) {
  std::lock_guard lock(db_->mutex);
  const std::string ts = std::to_string(now_ms());
  const std::string insert =
      "INSERT INTO tooluse_steps (run_id, seq, kind, turn, call_id, data, ts_ms) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7)";
  std::vector<param> p = {id_,     std::to_string(next_seq_), kind, std::to_string(turn),
                          call_id, dump_json(data),           ts};
  const bool tx = update || approval;
  if (tx)
    if (auto s = db_->begin(); !s) return s;
  auto r = db_->exec(insert, p);
  if (r && approval)
    r = db_->exec(
        "INSERT INTO tooluse_approvals (run_id, call_id, status, call, reason, updated_ms) "
        "VALUES ($1, $2, 'waiting', $3, $4, $5) ON CONFLICT (run_id, call_id) DO NOTHING",
        {id_, call_id, dump_json(data["call"]), data.value("reason", ""), ts});
  if (r && update) {
    std::string sql = "UPDATE tooluse_runs SET status = $1, updated_ms = $2";
    if (!update->column.empty()) sql += ", " + update->column + " = $4";
    if (update->column != "error") sql += ", error = ''";
    sql += " WHERE id = $3";
    std::vector<param> up = {update->status, ts, id_};
    if (!update->column.empty()) up.push_back(update->value);
    r = db_->exec(sql, up);
  }
  if (!r) {
    if (tx) db_->rollback();
    // A run deleted meanwhile fails the step's foreign key, which SQLite reports as a
    // constraint like a step number taken by another writer: say what really happened.
    auto run = db_->exec("SELECT 1 FROM tooluse_runs WHERE id = $1", {id_});
    if (run && run->empty())
      return fail(errc::not_found, "run " + id_ + " was deleted from the store " + db_->location() +
                                       " while it ran; step " + std::to_string(next_seq_) + " (" +
                                       kind + ") was not written; start the run again");
    if (r.error().code == errc::already_exists)
      return fail(errc::already_exists, "run " + id_ + ": step " + std::to_string(next_seq_) +
                                            " was written by another process; one process at a "
                                            "time may run or resume a run");
    return fail(r.error());
  }
  if (tx)
    if (auto s = db_->commit(); !s) return s;
  ++next_seq_;
  return {};
}

status store_journal::started(const std::vector<llm::message>& history) {
  json msgs = json::array();
  std::string question;
  for (const auto& m : history) {
    msgs.push_back(llm::encode_message(m));
    if (m.role == llm::role::user) question = m.text();
  }
  run_update u{"running", "question", question};
  return append("started", 0, "", {{"messages", msgs}}, &u);
}

status store_journal::model_request(int turn) {
  return append("model_request", turn, "", json::object());
}

status store_journal::model_response(int turn, const llm::chat_response& reply) {
  return append("model_response", turn, "",
                {{"message", llm::encode_message(reply.reply)},
                 {"usage", llm::encode_usage(reply.usage)},
                 {"finish", std::string(llm::to_string(reply.finish))}});
}

status store_journal::tool_started(int turn, const tool_call& call) {
  return append("tool_started", turn, call.id, {{"call", llm::encode_tool_call(call)}});
}

status store_journal::tool_finished(int turn, const tool_call& call, const tool_result& result,
                                    std::chrono::milliseconds duration) {
  return append(
      "tool_finished", turn, call.id,
      {{"call", llm::encode_tool_call(call)}, {"result", result_to_json(result)}, {"ms", duration.count()}});
}

status store_journal::approval_waiting(int turn, const tool_call& call, const std::string& reason) {
  run_update u{"waiting", "", ""};
  return append("approval_waiting", turn, call.id,
                {{"call", llm::encode_tool_call(call)}, {"reason", reason}}, &u, true);
}

status store_journal::answered(int turn, const std::string& answer, const llm::usage& total) {
  run_update u{"done", "answer", answer};
  return append("answered", turn, "", {{"answer", answer}, {"usage", llm::encode_usage(total)}}, &u);
}

status store_journal::failed(const error& e) {
  run_update u{"failed", "error", e.message};
  return append("failed", 0, "", {{"error", e.message}, {"code", std::string(to_string(e.code))}},
                &u);
}

}  // namespace tooluse::store::detail
