// The SQLite backend: one connection in WAL mode (readers never block the writer, and other
// processes may read and approve while a run writes), prepared statements cached by text.
#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "store/db.hpp"

namespace tooluse::store::detail {
namespace {

// to_sqlite turns $N placeholders into ?N (SQLite numbers ?N explicitly, as PostgreSQL does $N).
std::string to_sqlite(const std::string& sql) {
  std::string out = sql;
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i] == '$' && i + 1 < out.size() && std::isdigit(static_cast<unsigned char>(out[i + 1])))
      out[i] = '?';
  return out;
}

class sqlite_db final : public sql_db {
 public:
  sqlite_db(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~sqlite_db() override {
    for (auto& [_, st] : cache_) sqlite3_finalize(st);
    sqlite3_close(db_);
  }

  result<rows> exec(const std::string& sql, const std::vector<param>& params) override {
    sqlite3_stmt* st = nullptr;
    if (auto it = cache_.find(sql); it != cache_.end()) {
      st = it->second;
    } else {
      std::string text = to_sqlite(sql);
      if (sqlite3_prepare_v2(db_, text.c_str(), -1, &st, nullptr) != SQLITE_OK)
        return fail(err("prepare"));
      cache_[sql] = st;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    for (size_t i = 0; i < params.size(); ++i) {
      int rc = params[i] ? sqlite3_bind_text(st, int(i + 1), params[i]->data(),
                                             int(params[i]->size()), SQLITE_TRANSIENT)
                         : sqlite3_bind_null(st, int(i + 1));
      if (rc != SQLITE_OK) return fail(err("bind"));
    }
    rows out;
    for (;;) {
      int rc = sqlite3_step(st);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) {
        auto e = err("step");
        sqlite3_reset(st);
        return fail(std::move(e));
      }
      row r;
      int n = sqlite3_column_count(st);
      for (int c = 0; c < n; ++c) {
        if (sqlite3_column_type(st, c) == SQLITE_NULL) {
          r.push_back(std::nullopt);
        } else {
          auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
          r.push_back(std::string(p, size_t(sqlite3_column_bytes(st, c))));
        }
      }
      out.push_back(std::move(r));
    }
    sqlite3_reset(st);
    return out;
  }

  status script(const std::string& sql) override {
    char* msg = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
      std::string m = msg ? msg : "unknown error";
      sqlite3_free(msg);
      return fail(errc::io_error, "SQLite store \"" + path_ + "\": " + m);
    }
    return {};
  }

  status begin() override { return script("BEGIN IMMEDIATE"); }
  status commit() override { return script("COMMIT"); }
  void rollback() override { (void)script("ROLLBACK"); }
  bool postgres() const override { return false; }
  bool wait_notification(std::chrono::milliseconds, int) override { return false; }
  std::string location() const override { return path_; }

  result<std::shared_ptr<void>> lock_run_impl(const std::string& id) override {
    if (path_.empty() || path_ == ":memory:") return std::shared_ptr<void>();
    const std::string file = path_ + "-runs.lock";
    // O_CLOEXEC: tool processes the run starts must not inherit (and keep) the lock.
    int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
      return fail(errc::io_error, "cannot open the run lock file \"" + file +
                                      "\": " + std::strerror(errno) +
                                      "; check the store folder's permissions");
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a: the byte the run's lock covers
    for (unsigned char c : id) h = (h ^ c) * 1099511628211ull;
    struct flock l {};
    l.l_type = F_WRLCK;
    l.l_whence = SEEK_SET;
    l.l_start = off_t(h >> 2);
    l.l_len = 1;
    if (::fcntl(fd, F_OFD_SETLK, &l) != 0) {
      int e = errno;
      ::close(fd);
      if (e == EAGAIN || e == EACCES) return fail(errc::already_exists, busy(id));
      return fail(errc::io_error,
                  "cannot lock the run " + id + " in \"" + file + "\": " + std::strerror(e));
    }
    return std::shared_ptr<void>(new int(fd), [](int* p) {
      ::close(*p);  // releases the lock
      delete p;
    });
  }

 private:
  tooluse::error err(const char* what) const {
    int code = sqlite3_extended_errcode(db_);
    errc c = (code & 0xff) == SQLITE_CONSTRAINT ? errc::already_exists : errc::io_error;
    return {c, "SQLite store \"" + path_ + "\": " + what + ": " + sqlite3_errmsg(db_)};
  }

  sqlite3* db_;
  std::string path_;
  std::map<std::string, sqlite3_stmt*> cache_;
};

}  // namespace

result<std::unique_ptr<sql_db>> open_sqlite(const std::string& path, durability d) {
  sqlite3* db = nullptr;
  int rc =
      sqlite3_open_v2(path.c_str(), &db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string m = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return fail(errc::io_error, "cannot open the SQLite store \"" + path + "\": " + m +
                                    "; check the path and its folder's permissions");
  }
  sqlite3_busy_timeout(db, 10000);
  auto out = std::make_unique<sqlite_db>(db, path);
  // WAL: a commit appends to the -wal file. synchronous=NORMAL (durability::process) writes it
  // without an fsync: the step survives the process being killed (the data is in the OS), a
  // power loss or OS crash may lose the last steps but never corrupts the file. FULL
  // (durability::full) fsyncs the WAL at every commit.
  std::string pragmas = std::string("PRAGMA journal_mode=WAL; PRAGMA synchronous=") +
                        (d == durability::full ? "FULL" : "NORMAL") + "; PRAGMA foreign_keys=ON";
  if (auto s = out->script(pragmas); !s) return fail(s.error());
  return std::unique_ptr<sql_db>(std::move(out));
}

}  // namespace tooluse::store::detail
