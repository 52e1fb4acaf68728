#pragma once
// sql_db: the little SQL the store needs, over SQLite and PostgreSQL alike. Statements use
// $1, $2, ... placeholders and text parameters; rows come back as optional strings (NULL is
// nullopt). Not thread-safe: the store serialises calls with `mutex`.
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tooluse/result.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::store::detail {

using param = std::optional<std::string>;
using row = std::vector<std::optional<std::string>>;
using rows = std::vector<row>;

class sql_db {
 public:
  virtual ~sql_db() = default;
  /// exec runs one statement.
  virtual result<rows> exec(const std::string& sql, const std::vector<param>& params = {}) = 0;
  /// script runs several statements without parameters (schema creation).
  virtual status script(const std::string& sql) = 0;
  /// session runs a statement that sets up the connection (SET, LISTEN): now, and again on the
  /// new connection after a reset.
  virtual status session(const std::string& sql) { return script(sql); }
  /// begin starts a write transaction (SQLite: BEGIN IMMEDIATE).
  virtual status begin() = 0;
  virtual status commit() = 0;
  virtual void rollback() = 0;
  virtual bool postgres() const = 0;
  /// wait_notification waits up to `timeout` for a NOTIFY on a LISTENed channel (PostgreSQL);
  /// true if one or more arrived. SQLite: false at once.
  /// `wake_fd`, when not -1, ends the wait early once readable (a stop request); false then.
  virtual bool wait_notification(std::chrono::milliseconds timeout, int wake_fd = -1) = 0;
  virtual std::string location() const = 0;
  /// lock_run takes the lock that lets one process at a time run (or resume) run `id`. It is
  /// held until the returned handle is destroyed or the process dies (kill -9 included): an
  /// OFD byte-range lock on the file "<store>-runs.lock" (SQLite), a session advisory lock
  /// (PostgreSQL; a lock held by a connection that just died is waited for, up to 5 s).
  /// The handle must not outlive this sql_db. Within one process the lock is shared: a second
  /// journal of a run this connection holds gets the same lock (the process coordinates its
  /// own journals; the `(run_id, seq)` key still refuses interleaved writes).
  /// Errors: errc::already_exists when another process holds it.
  result<std::shared_ptr<void>> lock_run(const std::string& id) {
    std::lock_guard lock(mutex);
    if (auto it = locked_runs_.find(id); it != locked_runs_.end())
      if (auto held = it->second.lock()) return held;
    auto held = lock_run_impl(id);
    if (!held) return fail(held.error());
    std::shared_ptr<void> out(static_cast<void*>(this), [this, id, h = *held](void*) mutable {
      std::lock_guard l(mutex);
      h.reset();
      if (auto it = locked_runs_.find(id); it != locked_runs_.end() && it->second.expired())
        locked_runs_.erase(it);
    });
    locked_runs_[id] = out;
    return out;
  }

 protected:
  virtual result<std::shared_ptr<void>> lock_run_impl(const std::string& id) = 0;
  std::string busy(const std::string& id) const {
    return "the run " + id + " is being run by another process (it holds the run's lock in " +
           location() + "); wait for it to end or stop it, then `tooluse runs resume " + id + "`";
  }

 private:
  std::map<std::string, std::weak_ptr<void>> locked_runs_;

 public:
  std::recursive_mutex mutex;
};

/// open_sqlite: WAL mode; durability::process is synchronous=NORMAL, durability::full FULL.
result<std::unique_ptr<sql_db>> open_sqlite(const std::string& path, durability d);
/// open_postgres: durability::process sets synchronous_commit=off for the session;
/// durability::full keeps the server's setting (on unless configured otherwise).
result<std::unique_ptr<sql_db>> open_postgres(const std::string& url, durability d);

/// resolve_durability returns `d` if set, else $TOOLUSE_STORE_DURABILITY ("process" or "full"),
/// else durability::process. Errors: errc::invalid_argument for another value of the variable.
result<durability> resolve_durability(std::optional<durability> d);

/// redact_url drops the password of a postgresql:// URL.
std::string redact_url(const std::string& url);

}  // namespace tooluse::store::detail
