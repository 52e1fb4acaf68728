// The PostgreSQL backend over libpq: one connection, text parameters, statements prepared once
// per connection (named by a counter) so a journal step is one round trip.
#include <libpq-fe.h>
#include <poll.h>

#include <boost/url.hpp>
#include <map>

#include "store/db.hpp"

namespace tooluse::store::detail {

std::string redact_url(const std::string& url) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed)
    return url.find('@') == std::string::npos ? url : "(a connection URL that does not parse)";
  boost::urls::url u(*parsed);
  if (u.has_password()) u.set_password("***");
  return std::string(u.buffer());
}

namespace {

class pg_db final : public sql_db {
 public:
  pg_db(PGconn* c, std::string url) : conn_(c), url_(redact_url(url)) {}
  ~pg_db() override { PQfinish(conn_); }

  result<rows> exec(const std::string& sql, const std::vector<param>& params) override {
    auto it = prepared_.find(sql);
    if (it == prepared_.end()) {
      std::string name = "tooluse_" + std::to_string(prepared_.size());
      PGresult* p = PQprepare(conn_, name.c_str(), sql.c_str(), 0, nullptr);
      bool ok = PQresultStatus(p) == PGRES_COMMAND_OK;
      std::string msg = ok ? "" : PQresultErrorMessage(p);
      PQclear(p);
      if (!ok) return fail(errc::io_error, "PostgreSQL store " + url_ + ": " + trim(msg));
      it = prepared_.emplace(sql, name).first;
    }
    std::vector<const char*> values;
    for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
    PGresult* r = PQexecPrepared(conn_, it->second.c_str(), int(values.size()), values.data(),
                                 nullptr, nullptr, 0);
    return take(r);
  }

  status script(const std::string& sql) override {
    auto r = take(PQexec(conn_, sql.c_str()));
    if (!r) return fail(r.error());
    return {};
  }

  /// session runs `sql` (SET, LISTEN) now and again on every new connection after a reset.
  status session(const std::string& sql) override {
    if (auto s = script(sql); !s) return s;
    session_.push_back(sql);
    return {};
  }

  status begin() override { return script("BEGIN"); }
  status commit() override { return script("COMMIT"); }
  void rollback() override { (void)script("ROLLBACK"); }
  bool postgres() const override { return true; }

  bool wait_notification(std::chrono::milliseconds timeout, int wake_fd) override {
    if (drain()) return true;
    pollfd p[2] = {{PQsocket(conn_), POLLIN, 0}, {wake_fd, POLLIN, 0}};
    if (::poll(p, wake_fd < 0 ? 1 : 2, int(timeout.count())) <= 0) return false;
    if (p[0].revents) PQconsumeInput(conn_);
    return drain();
  }
  std::string location() const override { return url_; }

  result<std::shared_ptr<void>> lock_run_impl(const std::string& id) override {
    std::lock_guard lock(mutex);
    // A session lock: held until unlocked or the connection ends (the process died). The wait
    // covers a killed process whose server backend has not noticed yet.
    if (auto s = script("SET lock_timeout = '5s'"); !s) return fail(s.error());
    auto r = exec("SELECT pg_advisory_lock(hashtextextended($1, 18))", {id});
    (void)script("RESET lock_timeout");
    if (!r) {
      if (r.error().code == errc::timeout) return fail(errc::already_exists, busy(id));
      return fail(r.error());
    }
    return std::shared_ptr<void>(static_cast<void*>(this), [this, id](void*) {
      std::lock_guard l(mutex);
      (void)exec("SELECT pg_advisory_unlock(hashtextextended($1, 18))", {id});
    });
  }

 private:
  bool drain() {
    bool got = false;
    while (PGnotify* n = PQnotifies(conn_)) {
      got = true;
      PQfreemem(n);
    }
    return got;
  }

  static std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
  }

  result<rows> take(PGresult* r) {
    auto st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
      std::string msg = trim(PQresultErrorMessage(r));
      const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
      bool unique = state && std::string(state) == "23505";
      bool lock_timeout = state && std::string(state) == "55P03";
      PQclear(r);
      if (PQstatus(conn_) == CONNECTION_BAD) {  // the next call runs on a new connection
        PQreset(conn_);
        prepared_.clear();
        if (PQstatus(conn_) == CONNECTION_OK)
          for (const auto& q : session_) PQclear(PQexec(conn_, q.c_str()));
      }
      return fail(unique         ? errc::already_exists
                  : lock_timeout ? errc::timeout
                                 : errc::io_error,
                  "PostgreSQL store " + url_ + ": " + msg);
    }
    rows out;
    int n = PQntuples(r), m = PQnfields(r);
    out.reserve(size_t(n));
    for (int i = 0; i < n; ++i) {
      row row_;
      for (int c = 0; c < m; ++c)
        row_.push_back(PQgetisnull(r, i, c)
                           ? std::nullopt
                           : std::optional<std::string>(
                                 std::string(PQgetvalue(r, i, c), size_t(PQgetlength(r, i, c)))));
      out.push_back(std::move(row_));
    }
    PQclear(r);
    return out;
  }

  PGconn* conn_;
  std::string url_;
  std::map<std::string, std::string> prepared_;
  std::vector<std::string> session_;
};

}  // namespace

result<std::unique_ptr<sql_db>> open_postgres(const std::string& url, durability d) {
  PGconn* c = PQconnectdb(url.c_str());
  if (PQstatus(c) != CONNECTION_OK) {
    std::string m = PQerrorMessage(c);
    PQfinish(c);
    while (!m.empty() && m.back() == '\n') m.pop_back();
    return fail(errc::io_error, "cannot connect to the PostgreSQL store " + redact_url(url) + ": " +
                                    m + "; check the URL, that the server runs, and PGPASSWORD");
  }
  auto out = std::make_unique<pg_db>(c, url);
  // durability::process: a commit returns before the server flushed its WAL (the server does
  // within 3 x wal_writer_delay, 600 ms by default). A step survives the tooluse process being
  // killed; a crash of the server or the machine may lose the last steps, in order.
  std::string set = "SET client_min_messages = warning";
  if (d == durability::process) set += "; SET synchronous_commit = off";
  if (auto s = out->session(set); !s) return fail(s.error());
  return std::unique_ptr<sql_db>(std::move(out));
}

}  // namespace tooluse::store::detail
