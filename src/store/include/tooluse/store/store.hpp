#pragma once
/// \file store.hpp
/// tooluse::store::run_store, where durable agent runs live: a run's settings, its journal of
/// steps (each written in its own transaction before the step takes effect) and the approval
/// decisions people give. Two backends behind one interface: SQLite (a file, WAL mode; the
/// embedded default) and PostgreSQL (a `postgresql://` URL). tooluse creates and migrates the
/// schema itself. design/store.md describes the schema and why resuming never repeats work.
/// Example:
///   auto store = tooluse::store::open_store("runs.db");            // or "postgresql://..."
///   auto journal = (*store)->create_run({.settings = {{"model", "m"}}});
///   tooluse::agent a(model, registry, {.journal = *journal});
///   auto r = a.run("question");
///   // ... after a crash, in another process:
///   auto j = (*store)->open_run(id);  auto snap = (*store)->snapshot(id);
///   tooluse::agent b(model, registry, {.journal = *j});  b.resume(*snap);

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tooluse/agent/journal.hpp"
#include "tooluse/json.hpp"
#include "tooluse/result.hpp"

namespace tooluse::store {

/// run_status is where a run is: running (or crashed while running), waiting for an approval,
/// done (answered), failed (stopped with an error; it may be resumed).
enum class run_status { running, waiting, done, failed };

/// to_string returns "running", "waiting", "done" or "failed".
std::string_view to_string(run_status s) noexcept;

/// run_info is a run's row.
struct run_info {
  std::string id;
  run_status status = run_status::running;
  json settings = json::object();  ///< what `runs resume` needs besides secrets
  std::string question;
  std::string answer;
  std::string error;
  std::int64_t created_ms = 0;
  std::int64_t updated_ms = 0;
};

/// step is one journal entry. kind: started, model_request, model_response, tool_started,
/// tool_finished, approval_waiting, answered, failed.
struct step {
  std::int64_t seq = 0;
  std::string kind;
  int turn = 0;
  std::string call_id;
  json data;
  std::int64_t ts_ms = 0;
};

/// decision is a person's answer to a waiting call.
enum class decision { none, approved, denied };

/// new_run describes a run to create. An empty id gets a fresh one ("run-" + 16 hex digits).
struct new_run {
  std::string id;
  json settings = json::object();
};

/// run_store is one connection to a store. Thread-safe (calls are serialised). Many processes
/// may use one store at once.
class run_store {
 public:
  virtual ~run_store() = default;

  /// create_run adds a run and returns its journal (its run_id() is the id).
  /// Errors: errc::already_exists if the id is taken; database errors as errc::io_error.
  virtual result<std::shared_ptr<run_journal>> create_run(const new_run& run) = 0;
  /// open_run returns the journal of an existing run, to resume it.
  /// Errors: errc::not_found naming the run.
  virtual result<std::shared_ptr<run_journal>> open_run(const std::string& id) = 0;
  /// snapshot rebuilds the run from its journal (run_journal.hpp, run_snapshot).
  virtual result<run_snapshot> snapshot(const std::string& id) = 0;
  /// run returns a run's row. Errors: errc::not_found.
  virtual result<run_info> run(const std::string& id) = 0;
  /// runs lists runs, newest first, at most `limit`.
  virtual result<std::vector<run_info>> runs(int limit = 100) = 0;
  /// steps returns a run's journal in order.
  virtual result<std::vector<step>> steps(const std::string& id) = 0;
  /// waiting returns the calls the run waits for: (call, reason), in call order.
  virtual result<std::vector<std::pair<tool_call, std::string>>> waiting(const std::string& id) = 0;
  /// decide records approve or deny for a waiting call; `message` is shown to the model on a
  /// denial. Errors: errc::not_found if the run does not wait for that call.
  virtual status decide(const std::string& id, const std::string& call_id, decision d,
                        const std::string& message = {}) = 0;
  /// decision_for returns the decision recorded for a call (decision::none if none yet) and
  /// its message.
  virtual result<std::pair<decision, std::string>> decision_for(const std::string& id,
                                                                const std::string& call_id) = 0;
  /// location returns where the store is (a path or a URL without its password).
  virtual std::string location() const = 0;
};

/// durability says what a committed journal step survives (docs/durable-runs.md, "Durability").
///  - process (the default): the tooluse process being killed at any moment (kill -9, a crash,
///    a deploy). SQLite: WAL with synchronous=NORMAL, a commit is written to the -wal file
///    without an fsync; an OS crash or power loss may lose the last steps (never corrupts the
///    file). PostgreSQL: the session's synchronous_commit is off, a commit returns before the
///    server flushed it (it does within 3 x wal_writer_delay, 600 ms by default); a crash of the
///    server, the OS or power may lose the steps of that last moment, in order.
///  - full: also an OS crash, power loss and a database server crash: every commit waits for
///    its fsync (SQLite synchronous=FULL; PostgreSQL keeps the server's synchronous_commit, on
///    by default), a few milliseconds a step on common disks.
/// A lost step means a resumed run redoes it: a model request is asked again, and a tool call
/// whose result was lost runs again with the same idempotency key.
enum class durability { process, full };

/// store_options tune open_store.
struct store_options {
  /// unset: $TOOLUSE_STORE_DURABILITY ("process" or "full"), else durability::process.
  std::optional<store::durability> durability;
};

/// open_store opens (creating and migrating the schema if needed) the store at `location`: a
/// file path for SQLite, or a `postgresql://` / `postgres://` URL (libpq's syntax; a password
/// may come from PGPASSWORD or ~/.pgpass instead of the URL).
/// Errors: errc::io_error when the database cannot be opened or the schema not created, with
/// the backend's message; errc::unsupported for a schema newer than this tooluse knows;
/// errc::invalid_argument for a bad $TOOLUSE_STORE_DURABILITY.
result<std::unique_ptr<run_store>> open_store(const std::string& location,
                                              const store_options& options = {});

/// is_postgres tells whether `location` names a PostgreSQL database.
bool is_postgres(const std::string& location) noexcept;

/// new_run_id returns a fresh run id, "run-" followed by 16 random hex digits.
std::string new_run_id();

}  // namespace tooluse::store
