// event_log over sql_db: the table tooluse_events (seq, topic, data, created_ms). A publish is
// one INSERT (with pg_notify in the same statement on PostgreSQL); each listener has its own
// connection and thread, reads the rows after the last it saw, and waits for a NOTIFY
// (PostgreSQL), a local publish or its poll interval (SQLite). design/mcp-replicas.md.
#include "tooluse/store/events.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "store/db.hpp"
#include "store/schema.hpp"

namespace tooluse::store {
namespace {

using namespace std::chrono;

std::int64_t now_ms() {
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// PostgreSQL hands out sequence values before commit, so a row with a smaller seq can become
// visible after one with a larger: a listener rereads this many seqs back and skips the ones
// it delivered. SQLite writes one at a time, in seq order.
constexpr std::int64_t reread = 1000;

void wake_fd(int fd) {
  std::uint64_t one = 1;
  if (fd >= 0) (void)!::write(fd, &one, sizeof one);
}

// listener is one listen() call: its connection, its thread, the events it delivered.
class listener {
 public:
  listener(std::unique_ptr<detail::sql_db> db, std::function<void(const event&)> deliver,
           std::function<void(const error&)> on_error, milliseconds poll)
      : db_(std::move(db)),
        deliver_(std::move(deliver)),
        on_error_(std::move(on_error)),
        poll_(poll),
        fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}
  ~listener() {
    stop_ = true;
    wake_fd(fd_);
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) ::close(fd_);
  }
  listener(const listener&) = delete;
  listener& operator=(const listener&) = delete;

  status start() {
    if (fd_ < 0) return fail(errc::io_error, "event_log: cannot make an eventfd");
    if (db_->postgres())
      if (auto s = db_->session("LISTEN tooluse_events"); !s) return s;
    // Everything already published is the past: remember it as delivered.
    if (auto s = read(false); !s) return s;
    thread_ = std::thread([this] { loop(); });
    return {};
  }
  void wake() { wake_fd(fd_); }

 private:
  void loop() {
    while (!stop_) {
      if (auto s = read(true); !s && on_error_) on_error_(s.error());
      if (stop_) break;
      if (db_->postgres()) {
        // The NOTIFY wakes it; the timeout bounds how late a lost wake-up is noticed.
        db_->wait_notification(milliseconds(1000), fd_);
      } else {
        pollfd p{fd_, POLLIN, 0};
        (void)::poll(&p, 1, static_cast<int>(poll_.count()));
      }
      std::uint64_t n = 0;
      (void)!::read(fd_, &n, sizeof n);
    }
  }

  status read(bool deliver) {
    const bool pg = db_->postgres();
    const std::int64_t floor = pg ? std::max<std::int64_t>(0, last_ - reread) : last_;
    auto rows = [&] {
      std::lock_guard lock(db_->mutex);
      return db_->exec("SELECT seq, topic, data FROM tooluse_events WHERE seq > $1 ORDER BY seq",
                       {std::to_string(floor)});
    }();
    if (!rows) return fail(rows.error());
    for (const auto& row : *rows) {
      event e;
      e.seq = row[0] ? std::stoll(*row[0]) : 0;
      if (pg && !seen_.insert(e.seq).second) continue;
      last_ = std::max(last_, e.seq);
      if (!deliver) continue;
      e.topic = row[1].value_or("");
      auto data = parse_json(row[2].value_or("null"));
      e.data = data ? std::move(*data) : json();
      deliver_(e);
    }
    if (pg) seen_.erase(seen_.begin(), seen_.lower_bound(last_ - reread));
    return {};
  }

  std::unique_ptr<detail::sql_db> db_;
  std::function<void(const event&)> deliver_;
  std::function<void(const error&)> on_error_;
  milliseconds poll_;
  int fd_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::int64_t last_ = 0;
  std::set<std::int64_t> seen_;  ///< PostgreSQL: delivered seqs within `reread` of last_
};

class sql_events final : public event_log {
 public:
  sql_events(std::unique_ptr<detail::sql_db> db, std::string location, durability d,
             event_options o)
      : db_(std::move(db)),
        location_(std::move(location)),
        durability_(d),
        options_(std::move(o)) {}

  status publish(const std::string& topic, const json& data) override {
    const std::int64_t now = now_ms();
    {
      std::lock_guard lock(db_->mutex);
      auto out = db_->postgres()
                     ? db_->exec(
                           "WITH ins AS (INSERT INTO tooluse_events (topic, data, created_ms) "
                           "VALUES ($1, $2, $3) RETURNING seq) "
                           "SELECT pg_notify('tooluse_events', '') FROM ins",
                           {topic, dump_json(data), std::to_string(now)})
                     : db_->exec(
                           "INSERT INTO tooluse_events (topic, data, created_ms) VALUES ($1, "
                           "$2, $3)",
                           {topic, dump_json(data), std::to_string(now)});
      if (!out) return fail(out.error());
      if (now - last_sweep_ms_ > 5000) {
        last_sweep_ms_ = now;
        (void)db_->exec("DELETE FROM tooluse_events WHERE created_ms < $1",
                        {std::to_string(now - options_.retention.count())});
      }
    }
    std::lock_guard lock(mu_);
    std::erase_if(listeners_, [](const auto& w) { return w.expired(); });
    for (auto& w : listeners_)
      if (auto l = w.lock()) l->wake();
    return {};
  }

  result<std::shared_ptr<void>> listen(std::function<void(const event&)> deliver,
                                       std::function<void(const error&)> on_error) override {
    auto db = is_postgres(location_) ? detail::open_postgres(location_, durability_)
                                     : detail::open_sqlite(location_, durability_);
    if (!db) return fail(db.error());
    auto l = std::make_shared<listener>(std::move(*db), std::move(deliver), std::move(on_error),
                                        options_.poll_interval);
    if (auto s = l->start(); !s) return fail(s.error());
    std::lock_guard lock(mu_);
    listeners_.push_back(l);
    return std::shared_ptr<void>(l);
  }

  std::string location() const override { return db_->location(); }

 private:
  std::unique_ptr<detail::sql_db> db_;
  std::string location_;
  durability durability_;
  event_options options_;
  std::int64_t last_sweep_ms_ = 0;
  std::mutex mu_;
  std::vector<std::weak_ptr<listener>> listeners_;
};

}  // namespace

result<std::unique_ptr<event_log>> open_events(const std::string& location,
                                               const event_options& options) {
  if (location.empty())
    return fail(errc::invalid_argument,
                "no store given: pass a SQLite file or a postgresql:// URL");
  auto d = detail::resolve_durability(options.store.durability);
  if (!d) return fail(d.error());
  auto db = is_postgres(location) ? detail::open_postgres(location, *d)
                                  : detail::open_sqlite(location, *d);
  if (!db) return fail(db.error());
  if (auto s = detail::migrate(**db); !s) return fail(s.error());
  return std::unique_ptr<event_log>(
      std::make_unique<sql_events>(std::move(*db), location, *d, options));
}

}  // namespace tooluse::store
