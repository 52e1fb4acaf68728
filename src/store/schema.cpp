// The store's schema, created and migrated by tooluse: migrations run in order, each once,
// recorded in tooluse_meta.schema_version; PostgreSQL takes an advisory lock so that two
// processes opening a new database at once do not race.
#include "store/schema.hpp"

#include <iterator>
#include <string>
#include <string_view>

namespace tooluse::store::detail {
namespace {

// Version 1: runs, their journal, approvals. Portable SQL (SQLite 3.24+ and PostgreSQL 9.5+).
const char* v1 = R"sql(
CREATE TABLE IF NOT EXISTS tooluse_runs (
  id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  settings TEXT NOT NULL,
  question TEXT NOT NULL DEFAULT '',
  answer TEXT NOT NULL DEFAULT '',
  error TEXT NOT NULL DEFAULT '',
  created_ms BIGINT NOT NULL,
  updated_ms BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS tooluse_steps (
  run_id TEXT NOT NULL REFERENCES tooluse_runs(id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  kind TEXT NOT NULL,
  turn INTEGER NOT NULL,
  call_id TEXT NOT NULL DEFAULT '',
  data TEXT NOT NULL,
  ts_ms BIGINT NOT NULL,
  PRIMARY KEY (run_id, seq));
CREATE TABLE IF NOT EXISTS tooluse_approvals (
  run_id TEXT NOT NULL REFERENCES tooluse_runs(id) ON DELETE CASCADE,
  call_id TEXT NOT NULL,
  status TEXT NOT NULL,
  call TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  message TEXT NOT NULL DEFAULT '',
  updated_ms BIGINT NOT NULL,
  PRIMARY KEY (run_id, call_id));
CREATE INDEX IF NOT EXISTS tooluse_runs_created ON tooluse_runs (created_ms);
)sql";

// Version 2 (PostgreSQL only): the tool-call queue, see queue.cpp.
const char* v2_postgres = R"sql(
CREATE TABLE IF NOT EXISTS tooluse_queue (
  id BIGSERIAL PRIMARY KEY,
  queue TEXT NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  run_id TEXT NOT NULL DEFAULT '',
  call TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'queued',
  attempts INTEGER NOT NULL DEFAULT 0,
  worker TEXT NOT NULL DEFAULT '',
  lease_until TIMESTAMPTZ,
  result TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  finished_at TIMESTAMPTZ);
CREATE INDEX IF NOT EXISTS tooluse_queue_ready ON tooluse_queue (queue, status, id);
CREATE TABLE IF NOT EXISTS tooluse_queue_limits (
  queue TEXT NOT NULL,
  tool TEXT NOT NULL,
  window_start TIMESTAMPTZ NOT NULL,
  calls INTEGER NOT NULL,
  total BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (queue, tool));
)sql";

// Version 3 (PostgreSQL only): workers claim through a partial index of the calls not
// finished (it stays as small as the backlog, and an ordered scan of it with LIMIT feeds
// FOR UPDATE SKIP LOCKED). Its predicate is on finished_at, which only finishing sets, so that
// claiming and heartbeats change no indexed column and PostgreSQL updates the row in place
// (a HOT update, no index writes) in the room fillfactor leaves on each page.
const char* v3_postgres = R"sql(
CREATE INDEX IF NOT EXISTS tooluse_queue_open ON tooluse_queue (queue, id) WHERE finished_at IS NULL;
DROP INDEX IF EXISTS tooluse_queue_ready;
ALTER TABLE tooluse_queue SET (fillfactor = 50);
)sql";

// Version 4: records of other modules, by kind (MCP task records: tooluse::mcp_store).
const char* v4 = R"sql(
CREATE TABLE IF NOT EXISTS tooluse_records (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  owner TEXT NOT NULL DEFAULT '',
  data TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  PRIMARY KEY (kind, id));
CREATE INDEX IF NOT EXISTS tooluse_records_owner ON tooluse_records (kind, owner, created_ms);
)sql";

// Version 5: events for other processes (event_log, events.cpp): the MCP servers that share a
// store tell each other what a session's stream must carry. SQLite and PostgreSQL spell the
// ever-growing key differently (SERIAL_KEY, see spelled_for).
const char* v5 = R"sql(
CREATE TABLE IF NOT EXISTS tooluse_events (
  seq SERIAL_KEY,
  topic TEXT NOT NULL,
  data TEXT NOT NULL,
  created_ms BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS tooluse_events_created ON tooluse_events (created_ms);
)sql";

// The migrations in order, version 1 first.
struct migration {
  const char* sql;
  bool postgres_only;
};
const migration k_migrations[] = {
    {v1, false}, {v2_postgres, true}, {v3_postgres, true}, {v4, false}, {v5, false},
};

// spelled_for writes a migration's SERIAL_KEY as `db` spells an ever-growing integer key.
std::string spelled_for(const sql_db& db, std::string sql) {
  constexpr std::string_view placeholder = "SERIAL_KEY";
  if (auto at = sql.find(placeholder); at != std::string::npos)
    sql.replace(at, placeholder.size(),
                db.postgres() ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT");
  return sql;
}

}  // namespace

int schema_version_known() { return static_cast<int>(std::size(k_migrations)); }

status migrate(sql_db& db) {
  std::lock_guard lock(db.mutex);
  if (db.postgres())
    if (auto s = db.script("SELECT pg_advisory_lock(741852)"); !s) return s;
  auto done = [&](status s) {
    if (db.postgres()) (void)db.script("SELECT pg_advisory_unlock(741852)");
    return s;
  };
  if (auto s = db.script(
          "CREATE TABLE IF NOT EXISTS tooluse_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      !s)
    return done(s);
  auto v = db.exec("SELECT value FROM tooluse_meta WHERE key = 'schema_version'");
  if (!v) return done(fail(v.error()));
  int version = v->empty() || !(*v)[0][0] ? 0 : std::stoi(*(*v)[0][0]);
  if (version > schema_version_known())
    return done(
        fail(errc::unsupported, "the store \"" + db.location() + "\" has schema version " +
                                    std::to_string(version) + ", newer than this tooluse (" +
                                    std::to_string(schema_version_known()) + "); upgrade tooluse"));
  for (int next = version + 1; next <= schema_version_known(); ++next) {
    if (auto s = db.begin(); !s) return done(s);
    const migration& m = k_migrations[size_t(next - 1)];
    status s = m.postgres_only && !db.postgres() ? status{} : db.script(spelled_for(db, m.sql));
    if (s) {
      auto r = db.exec(version == 0 && next == 1
                           ? "INSERT INTO tooluse_meta (key, value) VALUES ('schema_version', $1)"
                           : "UPDATE tooluse_meta SET value = $1 WHERE key = 'schema_version'",
                       {std::to_string(next)});
      if (!r) s = fail(r.error());
    }
    if (!s) {
      db.rollback();
      return done(s);
    }
    if (auto c = db.commit(); !c) return done(c);
  }
  return done({});
}

result<std::unique_ptr<sql_db>> open_migrated(const std::string& location,
                                              const store_options& options,
                                              const std::string& no_store) {
  if (location.empty()) return fail(errc::invalid_argument, no_store);
  auto d = resolve_durability(options.durability);
  if (!d) return fail(d.error());
  auto db = is_postgres(location) ? open_postgres(location, *d) : open_sqlite(location, *d);
  if (!db) return fail(db.error());
  if (auto s = migrate(**db); !s) return fail(s.error());
  return db;
}

}  // namespace tooluse::store::detail
