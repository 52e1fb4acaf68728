// run_store over sql_db: creating and opening runs, rebuilding a run from its journal, the
// approval decisions.
#include <cstdlib>
#include <random>

#include "store/codec.hpp"
#include "store/journal.hpp"
#include "store/schema.hpp"
#include "tooluse/enum_names.hpp"

namespace tooluse::store {

TOOLUSE_ENUM_NAMES(run_status, (running), (waiting), (done), (failed))

std::string_view to_string(run_status s) noexcept { return enum_name(s, "running"); }

bool is_postgres(const std::string& location) noexcept {
  return location.rfind("postgresql://", 0) == 0 || location.rfind("postgres://", 0) == 0;
}

std::string new_run_id() {
  static std::mutex mu;
  static std::mt19937_64 rng(std::random_device{}());
  std::lock_guard lock(mu);
  char buf[32];
  std::snprintf(buf, sizeof buf, "run-%016llx", static_cast<unsigned long long>(rng()));
  return buf;
}

namespace detail {
namespace {

run_status status_from(const std::string& s) {
  return enum_from_name<run_status>(s).value_or(run_status::running);
}

std::string str(const std::optional<std::string>& v) { return v ? *v : ""; }
std::int64_t num(const std::optional<std::string>& v) {
  return v && !v->empty() ? std::stoll(*v) : 0;
}

json parse(const std::optional<std::string>& v) {
  if (!v) return json::object();
  return json::parse(*v, nullptr, false);
}

const char* run_columns = "id, status, settings, question, answer, error, created_ms, updated_ms";

run_info info_from(const row& r) {
  return {.id = str(r[0]),
          .status = status_from(str(r[1])),
          .settings = parse(r[2]),
          .question = str(r[3]),
          .answer = str(r[4]),
          .error = str(r[5]),
          .created_ms = num(r[6]),
          .updated_ms = num(r[7])};
}

// rebuild turns journal steps into a snapshot (see run_journal.hpp and design/store.md).
result<run_snapshot> rebuild(const std::vector<step>& steps) {
  run_snapshot s;
  std::vector<tool_call> open_calls;
  auto close_turn = [&] {
    for (const auto& c : open_calls) {
      auto it = s.results.find(c.id);
      tool_result r =
          it != s.results.end() ? it->second : tool_result::error("the call's result was lost");
      s.history.push_back(llm::message::tool_result(c, r));
    }
    open_calls.clear();
    s.results.clear();
  };
  for (const auto& st : steps) {
    if (st.kind == "started") {
      s.history.clear();
      for (const auto& m : st.data.value("messages", json::array())) {
        auto msg = journal_message_from(m);
        if (!msg) return fail(msg.error());
        s.history.push_back(std::move(*msg));
      }
    } else if (st.kind == "model_response") {
      close_turn();
      auto msg = journal_message_from(st.data.value("message", json::object()));
      if (!msg) return fail(msg.error());
      open_calls = msg->tool_calls;
      s.history.push_back(std::move(*msg));
      s.turns = st.turn;
      s.usage += llm::decode_usage(st.data.value("usage", json::object()));
    } else if (st.kind == "tool_finished") {
      tool_call c = llm::decode_tool_call(st.data.value("call", json::object()));
      auto r = result_from_json(st.data.value("result", json::object()));
      if (!r) return fail(r.error());
      r->duration = std::chrono::milliseconds(st.data.value("ms", 0));
      s.results[c.id] = *r;
      s.tool_calls.push_back({c, *r, std::chrono::milliseconds(st.data.value("ms", 0)), st.turn});
    } else if (st.kind == "answered") {
      s.done = true;
      s.answer = st.data.value("answer", "");
    }
  }
  return s;
}

class sql_store final : public run_store {
 public:
  explicit sql_store(std::shared_ptr<sql_db> db) : db_(std::move(db)) {}

  result<std::shared_ptr<run_journal>> create_run(const new_run& run) override {
    std::string id = run.id.empty() ? new_run_id() : run.id;
    std::lock_guard lock(db_->mutex);
    std::string ts = std::to_string(now_ms());
    auto r = db_->exec(
        "INSERT INTO tooluse_runs (id, status, settings, created_ms, updated_ms) "
        "VALUES ($1, 'running', $2, $3, $3)",
        {id, dump_json(run.settings), ts});
    if (!r) {
      if (r.error().code == errc::already_exists)
        return fail(errc::already_exists,
                    "the run " + id + " exists already in " + db_->location() +
                        "; pick another --run-id or resume it with `tooluse runs resume " + id +
                        "`");
      return fail(r.error());
    }
    auto held = db_->lock_run(id);  // a new run's lock is free unless someone resumes it now
    if (!held) return fail(held.error());
    return std::shared_ptr<run_journal>(
        std::make_shared<store_journal>(db_, id, 1, std::move(*held)));
  }

  result<std::shared_ptr<run_journal>> open_run(const std::string& id) override {
    std::lock_guard lock(db_->mutex);
    if (auto i = run(id); !i) return fail(i.error());
    // One process at a time: the lock is taken before the journal is read, so the journal
    // cannot grow under a process that resumes.
    auto held = db_->lock_run(id);
    if (!held) return fail(held.error());
    auto r = db_->exec("SELECT MAX(seq) FROM tooluse_steps WHERE run_id = $1", {id});
    if (!r) return fail(r.error());
    std::int64_t next = r->empty() ? 1 : num((*r)[0][0]) + 1;
    if (auto u = db_->exec("UPDATE tooluse_runs SET status = 'running', updated_ms = $2 "
                           "WHERE id = $1 AND status <> 'done'",
                           {id, std::to_string(now_ms())});
        !u)
      return fail(u.error());
    return std::shared_ptr<run_journal>(
        std::make_shared<store_journal>(db_, id, next, std::move(*held)));
  }

  result<run_snapshot> snapshot(const std::string& id) override {
    auto st = steps(id);
    if (!st) return fail(st.error());
    return rebuild(*st);
  }

  result<run_info> run(const std::string& id) override {
    std::lock_guard lock(db_->mutex);
    auto r =
        db_->exec(std::string("SELECT ") + run_columns + " FROM tooluse_runs WHERE id = $1", {id});
    if (!r) return fail(r.error());
    if (r->empty())
      return fail(errc::not_found, "no run " + id + " in the store " + db_->location() +
                                       "; `tooluse runs list` shows the runs it has");
    return info_from((*r)[0]);
  }

  result<std::vector<run_info>> runs(int limit) override {
    std::lock_guard lock(db_->mutex);
    auto r = db_->exec(std::string("SELECT ") + run_columns +
                           " FROM tooluse_runs ORDER BY created_ms DESC, id LIMIT $1",
                       {std::to_string(limit)});
    if (!r) return fail(r.error());
    std::vector<run_info> out;
    for (const auto& row_ : *r) out.push_back(info_from(row_));
    return out;
  }

  result<std::vector<step>> steps(const std::string& id) override {
    std::lock_guard lock(db_->mutex);
    if (auto i = run(id); !i) return fail(i.error());
    auto r = db_->exec(
        "SELECT seq, kind, turn, call_id, data, ts_ms FROM tooluse_steps "
        "WHERE run_id = $1 ORDER BY seq",
        {id});
    if (!r) return fail(r.error());
    std::vector<step> out;
    for (const auto& x : *r)
      out.push_back({.seq = num(x[0]),
                     .kind = str(x[1]),
                     .turn = int(num(x[2])),
                     .call_id = str(x[3]),
                     .data = parse(x[4]),
                     .ts_ms = num(x[5])});
    return out;
  }

  result<std::vector<std::pair<tool_call, std::string>>> waiting(const std::string& id) override {
    std::lock_guard lock(db_->mutex);
    auto r = db_->exec(
        "SELECT a.call, a.reason FROM tooluse_approvals a JOIN tooluse_runs r "
        "ON r.id = a.run_id WHERE a.run_id = $1 AND a.status = 'waiting' "
        "AND r.status = 'waiting' ORDER BY a.updated_ms, a.call_id",
        {id});
    if (!r) return fail(r.error());
    std::vector<std::pair<tool_call, std::string>> out;
    for (const auto& x : *r) out.emplace_back(llm::decode_tool_call(parse(x[0])), str(x[1]));
    return out;
  }

  status decide(const std::string& id, const std::string& call_id, decision d,
                const std::string& message) override {
    std::lock_guard lock(db_->mutex);
    auto r = db_->exec(
        "UPDATE tooluse_approvals SET status = $3, message = $4, updated_ms = $5 "
        "WHERE run_id = $1 AND call_id = $2 AND status = 'waiting' RETURNING call_id",
        {id, call_id, d == decision::approved ? "approved" : "denied", message,
         std::to_string(now_ms())});
    if (!r) return fail(r.error());
    if (r->empty())
      return fail(errc::not_found, "the run " + id + " does not wait for a decision on call \"" +
                                       call_id + "\"; `tooluse runs show " + id +
                                       "` lists the calls it waits for");
    return {};
  }

  result<std::pair<decision, std::string>> decision_for(const std::string& id,
                                                        const std::string& call_id) override {
    std::lock_guard lock(db_->mutex);
    auto r = db_->exec(
        "SELECT status, message FROM tooluse_approvals WHERE run_id = $1 AND call_id = $2",
        {id, call_id});
    if (!r) return fail(r.error());
    if (r->empty()) return std::pair{decision::none, std::string()};
    std::string s = str((*r)[0][0]);
    decision d = s == "approved" ? decision::approved
                 : s == "denied" ? decision::denied
                                 : decision::none;
    return std::pair{d, str((*r)[0][1])};
  }

  std::string location() const override { return db_->location(); }

 private:
  std::shared_ptr<sql_db> db_;
};

}  // namespace
}  // namespace detail

namespace detail {

result<durability> resolve_durability(std::optional<durability> d) {
  if (d) return *d;
  const char* e = std::getenv("TOOLUSE_STORE_DURABILITY");
  if (!e || !*e || std::string_view(e) == "process") return durability::process;
  if (std::string_view(e) == "full") return durability::full;
  return fail(errc::invalid_argument, std::string("TOOLUSE_STORE_DURABILITY is \"") + e +
                                          "\"; set it to \"process\" (the default) or \"full\"");
}

}  // namespace detail

result<std::unique_ptr<run_store>> open_store(const std::string& location,
                                              const store_options& options) {
  auto db = detail::open_migrated(location, options,
                                  "no store given; pass --store FILE (SQLite) or --store "
                                  "postgresql://... or set TOOLUSE_STORE");
  if (!db) return fail(db.error());
  std::shared_ptr<detail::sql_db> shared(std::move(*db));
  return std::unique_ptr<run_store>(std::make_unique<detail::sql_store>(shared));
}

}  // namespace tooluse::store
