// The PostgreSQL tool-call queue: the run's side (enqueue, wait on LISTEN/NOTIFY) and the
// worker (claim with FOR UPDATE SKIP LOCKED under a lease, heartbeat, finish, notify).
#include "tooluse/store/queue.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <map>
#include <thread>

#include "store/codec.hpp"
#include "store/db.hpp"
#include "store/schema.hpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::store {

struct tool_queue::impl {
  std::unique_ptr<detail::sql_db> db;
  std::string name;
};

namespace {

result<std::unique_ptr<detail::sql_db>> connect(const std::string& url,
                                                std::optional<durability> want) {
  if (!is_postgres(url))
    return fail(errc::invalid_argument,
                "a tool-call queue needs a PostgreSQL store (--store postgresql://...), not \"" +
                    url + "\"");
  auto d = detail::resolve_durability(want);
  if (!d) return fail(d.error());
  auto db = detail::open_postgres(url, *d);
  if (!db) return fail(db.error());
  if (auto s = detail::migrate(**db); !s) return fail(s.error());
  return db;
}

std::string key_of(const std::string& run_id, const tool_call& c) { return run_id + "/" + c.id; }

// stop_fd is an eventfd that becomes readable when `stop` is requested, so that a wait for a
// notification ends at once.
class stop_fd {
 public:
  explicit stop_fd(std::stop_token stop) : fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    cb_.emplace(std::move(stop), [fd = fd_] {
      std::uint64_t one = 1;
      if (fd >= 0) (void)!::write(fd, &one, sizeof one);
    });
  }
  ~stop_fd() {
    cb_.reset();  // before the fd closes: the callback may be running on another thread
    if (fd_ >= 0) ::close(fd_);
  }
  stop_fd(const stop_fd&) = delete;
  stop_fd& operator=(const stop_fd&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
  std::optional<std::stop_callback<std::function<void()>>> cb_;
};

}  // namespace

tool_queue::tool_queue(std::unique_ptr<impl> i) : impl_(std::move(i)) {}
tool_queue::~tool_queue() = default;

result<std::unique_ptr<tool_queue>> tool_queue::open(const std::string& url,
                                                     const std::string& name,
                                                     const store_options& options) {
  auto db = connect(url, options.durability);
  if (!db) return fail(db.error());
  if (auto s = (*db)->session("LISTEN tooluse_done"); !s) return fail(s.error());
  auto i = std::make_unique<impl>();
  i->db = std::move(*db);
  i->name = name;
  return std::unique_ptr<tool_queue>(new tool_queue(std::move(i)));
}

std::vector<tool_result> tool_queue::run(std::span<const tool_call> calls,
                                         const std::string& run_id, std::stop_token stop) {
  std::vector<tool_result> out(calls.size());
  auto& db = *impl_->db;
  std::lock_guard lock(db.mutex);
  json keys = json::array(), rows = json::array();
  std::map<std::string, size_t> slot;
  for (size_t i = 0; i < calls.size(); ++i) {
    std::string key = key_of(run_id, calls[i]);
    keys.push_back(key);
    slot[key] = i;
    rows.push_back({{"k", key}, {"c", dump_json(llm::encode_tool_call(calls[i]))}});
  }
  // One statement (one round trip) for the batch and the workers' wake-up; a key enqueued
  // before (a resumed run) is left as it is.
  auto ins = db.exec(
      "WITH i AS (INSERT INTO tooluse_queue (queue, idempotency_key, run_id, call) "
      "SELECT $1, v.k, $2, v.c FROM json_to_recordset($3::json) AS v(k text, c text) "
      "ON CONFLICT (idempotency_key) DO NOTHING RETURNING 1) "
      "SELECT pg_notify('tooluse_queue', $1)",
      {impl_->name, run_id, dump_json(rows)});
  if (!ins) {
    for (auto& x : out)
      x = tool_result::error("the tool-call queue failed: " + ins.error().message);
    return out;
  }
  size_t done = 0;
  std::vector<char> have(calls.size(), 0);
  stop_fd wake(stop);
  while (done < calls.size()) {
    auto r = db.exec(
        "SELECT idempotency_key, result FROM tooluse_queue WHERE idempotency_key IN "
        "(SELECT json_array_elements_text($1::json)) AND status = 'done'",
        {dump_json(keys)});
    if (r) {
      for (const auto& row : *r) {
        auto at = slot.find(row[0].value_or(""));
        if (at == slot.end()) continue;
        size_t i = at->second;
        if (have[i]) continue;
        auto res = result_from_json(json::parse(row[1].value_or("{}"), nullptr, false));
        out[i] = res ? *res : tool_result::error("the worker's result could not be read");
        have[i] = 1;
        ++done;
      }
    }
    if (done == calls.size()) break;
    keys = json::array();  // ask only for the results still missing
    for (const auto& [k, i] : slot)
      if (!have[i]) keys.push_back(k);
    if (stop.stop_requested()) {
      for (size_t i = 0; i < calls.size(); ++i)
        if (!have[i]) out[i] = tool_result::error("cancelled while the call waited in the queue");
      break;
    }
    // Woken by the worker's NOTIFY; the timeout only bounds how late a lost wake-up is noticed.
    db.wait_notification(std::chrono::milliseconds(500), wake.fd());
  }
  return out;
}

tool_runner tool_queue::runner(std::string run_id) {
  return [this, run_id](std::span<const tool_call> calls, std::stop_token stop) {
    return run(calls, run_id, stop);
  };
}

namespace {

// admit counts a call against `tool`'s rate limit in the queue's shared window; false when the
// window is full. The window restarts when it has passed.
bool admit(detail::sql_db& db, const std::string& queue, const std::string& tool,
           const rate_limit& rate) {
  const std::string window = std::to_string(double(rate.window.count()) / 1000.0);
  auto reset = db.exec(
      "INSERT INTO tooluse_queue_limits (queue, tool, window_start, calls) VALUES ($1, $2, now(), "
      "0) "
      "ON CONFLICT (queue, tool) DO UPDATE SET "
      "calls = CASE WHEN tooluse_queue_limits.window_start <= now() - ($3 || ' seconds')::interval "
      "THEN 0 ELSE tooluse_queue_limits.calls END, "
      "window_start = CASE WHEN tooluse_queue_limits.window_start <= now() - ($3 || ' "
      "seconds')::interval "
      "THEN now() ELSE tooluse_queue_limits.window_start END",
      {queue, tool, window});
  if (!reset) return true;  // the limit cannot be checked: do not stall the queue
  auto r = db.exec(
      "UPDATE tooluse_queue_limits SET calls = calls + 1 WHERE queue = $1 AND tool = $2 "
      "AND calls < $3 RETURNING calls",
      {queue, tool, std::to_string(rate.calls)});
  return !r || !r->empty();
}

}  // namespace

struct queue_worker::impl {
  std::string url, queue;
  exec::executor& executor;
  worker_options options;
  std::atomic<std::uint64_t> completed{0};

  void log(const std::string& s) const {
    if (options.log) options.log(s);
  }
};

queue_worker::queue_worker(std::string url, std::string queue, exec::executor& executor,
                           worker_options options)
    : impl_(new impl{std::move(url), std::move(queue), executor, std::move(options), {}}) {
  if (impl_->options.worker_id.empty()) {
    char host[128] = "host";
    ::gethostname(host, sizeof host - 1);
    impl_->options.worker_id = std::string(host) + "-" + std::to_string(::getpid());
  }
  if (impl_->options.batch < 1) impl_->options.batch = 1;
}

queue_worker::~queue_worker() = default;

std::uint64_t queue_worker::completed() const { return impl_->completed.load(); }

status queue_worker::run(std::stop_token stop) {
  auto& me = *impl_;
  auto dbr = connect(me.url, me.options.durability);
  if (!dbr) return fail(dbr.error());
  auto beat = connect(me.url, me.options.durability);
  if (!beat) return fail(beat.error());
  auto& db = **dbr;
  if (auto s = db.session("LISTEN tooluse_queue"); !s) return s;
  const std::string lease_s = std::to_string(double(me.options.lease.count()) / 1000.0);
  const std::string& wid = me.options.worker_id;
  // The calls this worker runs now, by id, for the heartbeat.
  std::mutex held_mu;
  std::string held;  // a PostgreSQL bigint[] literal, "{1,2}"; empty: none
  // Heartbeat: extend this worker's leases every third of a lease, on its own connection.
  std::jthread heart([&, lease_s](std::stop_token hs) {
    std::mutex m;
    std::condition_variable_any cv;
    while (!hs.stop_requested()) {
      std::unique_lock lk(m);
      cv.wait_for(lk, hs, me.options.lease / 3, [] { return false; });
      if (hs.stop_requested()) break;
      std::string ids;
      {
        std::lock_guard g(held_mu);
        if (held.empty()) continue;
        ids = held;
      }
      (void)(*beat)->exec(
          "UPDATE tooluse_queue SET lease_until = now() + ($2 || ' seconds')::interval "
          "WHERE id = ANY($3::bigint[]) AND worker = $1 "
          "AND status = 'leased'",
          {wid, lease_s, ids});
    }
  });
  stop_fd wake(stop);
  me.log("worker " + wid + " takes calls from queue \"" + me.queue + "\"");
  // The claim: up to `batch` calls that are queued (and not held back by a rate limit) or
  // whose lease expired, oldest first, skipping the rows other workers are locking.
  auto claim_sql = [](const char* also) {
    return std::string(
               "UPDATE tooluse_queue SET status = 'leased', worker = $2, attempts = attempts + 1, "
               "lease_until = now() + ($3 || ' seconds')::interval "
               "WHERE id IN (SELECT id FROM tooluse_queue WHERE queue = $1 AND finished_at IS NULL "
               "AND (lease_until IS NULL OR lease_until <= now())") +
           also +
           " ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED) "
           "RETURNING id, idempotency_key, run_id, call, attempts";
  };
  const std::string claim = claim_sql("");
  const std::string batch = std::to_string(me.options.batch);
  // Finishing a batch and claiming the next is one statement (one round trip, one commit):
  // `d` writes the results and wakes the runs, `c` claims (its snapshot is the statement's, so
  // it must not take the calls `d` finishes, even with an expired lease); the last row carries
  // how many `d` finished.
  const std::string finish_and_claim =
      "WITH d AS (UPDATE tooluse_queue q SET status = 'done', result = v.result, "
      "finished_at = now(), lease_until = NULL "
      "FROM json_to_recordset($5::json) AS v(id bigint, result text) "
      "WHERE q.id = ANY($6::bigint[]) AND q.id = v.id AND q.worker = $2 "
      "AND q.status = 'leased' RETURNING q.id, pg_notify('tooluse_done', $1)), "
      "c AS (" +
      claim_sql(" AND id <> ALL($6::bigint[])") +
      ") "
      "SELECT id::text, idempotency_key, run_id, call, attempts::text FROM c "
      "UNION ALL SELECT NULL, NULL, NULL, NULL, (SELECT count(*) FROM d)::text";
  std::optional<detail::rows> next;  // claimed along with the last batch's results
  while (!stop.stop_requested()) {
    detail::rows claimed;
    if (next) {
      claimed = std::move(*next);
      next.reset();
    } else {
      auto c = db.exec(claim, {me.queue, wid, lease_s, batch});
      if (!c) {
        me.log("claim failed: " + c.error().message);
        db.wait_notification(me.options.lease / 4, wake.fd());
        continue;
      }
      claimed = std::move(*c);
    }
    if (claimed.empty()) {
      // Woken by a run's NOTIFY; the timeout lets this worker take over expired leases.
      db.wait_notification(me.options.lease / 2, wake.fd());
      continue;
    }
    struct job {
      std::string id, key;
      tool_call call;
      std::future<tool_result> result;
    };
    std::vector<job> jobs;
    for (const auto& row : claimed) {
      job j{*row[0],
            *row[1],
            llm::decode_tool_call(json::parse(row[3].value_or("{}"), nullptr, false)),
            {}};
      if (std::stoi(row[4].value_or("1")) > 1)
        me.log("taking over " + j.key + " (attempt " + *row[4] + ")");
      if (me.options.tools)
        if (auto e = me.options.tools->find(j.call.name);
            e && e->definition.rate.calls > 0 &&
            !admit(db, me.queue, j.call.name, e->definition.rate)) {
          // Over the shared limit: back to the queue, not before the window ends.
          (void)db.exec(
              "UPDATE tooluse_queue SET status = 'queued', worker = '', lease_until = "
              "(SELECT window_start + ($3 || ' seconds')::interval FROM tooluse_queue_limits "
              "WHERE queue = $4 AND tool = $5) WHERE id = $1 AND worker = $2",
              {j.id, wid, std::to_string(double(e->definition.rate.window.count()) / 1000.0),
               me.queue, j.call.name});
          continue;
        }
      exec::run_options o{.stop = stop, .idempotency_scope = row[2].value_or("")};
      if (o.idempotency_scope.empty()) {  // not a run's call: the key is the queue's key
        o.idempotency_scope = j.key;
        j.call.id.clear();
      }
      j.result = me.executor.submit(j.call, o);
      jobs.push_back(std::move(j));
    }
    std::string ids = "{";  // a bigint[]: the finish finds its rows by the primary key
    for (auto& j : jobs) ids += (ids.size() > 1 ? "," : "") + j.id;
    ids += "}";
    {
      std::lock_guard g(held_mu);
      held = jobs.empty() ? "" : ids;
    }
    json done = json::array();
    for (auto& j : jobs)
      done.push_back(
          {{"id", std::stoll(j.id)}, {"result", dump_json(result_to_json(j.result.get()))}});
    const bool more = !stop.stop_requested();
    auto fin =
        more ? db.exec(finish_and_claim, {me.queue, wid, lease_s, batch, dump_json(done), ids})
             : db.exec(
                   "WITH d AS (UPDATE tooluse_queue q SET status = 'done', result = "
                   "v.result, finished_at = now(), lease_until = NULL "
                   "FROM json_to_recordset($3::json) AS v(id bigint, result text) "
                   "WHERE q.id = ANY($4::bigint[]) AND q.id = v.id AND q.worker = $2 "
                   "AND q.status = 'leased' RETURNING q.id) "
                   "SELECT NULL, NULL, NULL, NULL, count(*)::text, "
                   "pg_notify('tooluse_done', $1) FROM d",
                   {me.queue, wid, dump_json(done), ids});
    {
      std::lock_guard g(held_mu);
      held.clear();
    }
    if (!fin) {
      me.log("finishing failed: " + fin.error().message);
      continue;
    }
    me.completed += std::stoull(fin->back()[4].value_or("0"));
    fin->pop_back();
    if (more) next = std::move(*fin);
  }
  // Calls claimed with the last results and not started go back to the queue at once.
  if (next && !next->empty()) {
    std::string ids = "{";
    for (const auto& row : *next) ids += (ids.size() > 1 ? "," : "") + *row[0];
    ids += "}";
    (void)db.exec(
        "WITH r AS (UPDATE tooluse_queue SET status = 'queued', worker = '', lease_until = NULL "
        "WHERE id = ANY($2::bigint[]) AND worker = $1 AND status = 'leased' RETURNING id) "
        "SELECT count(*), pg_notify('tooluse_queue', $3) FROM r",
        {wid, ids, me.queue});
  }
  heart.request_stop();
  return {};
}

}  // namespace tooluse::store
