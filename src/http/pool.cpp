// The process's HTTP connection pool: one libcurl multi handle driven by one Asio event loop on
// its own thread (curl_multi_socket_action with CURLMOPT_SOCKETFUNCTION/TIMERFUNCTION). The
// multi handle owns the connection cache, so keep-alive, HTTP/2 multiplexing and the per-host
// connection bound are libcurl's; a share handle adds TLS session resumption across easy
// handles. This file adds what libcurl does not: a per-host queue bounding requests in flight,
// per-request deadlines that name the option that fired, cancellation from any thread, and
// counters. The asynchronous requests' completions (and http::post's work) run on a second
// thread, the completion thread, so the I/O thread only moves bytes while the work that
// follows a reply (decoding it, the next request) runs beside it. design/http-pool.md has the
// reasons.
#include <curl/curl.h>
#include <poll.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "transfer.hpp"
#include "tooluse/http/pool.hpp"

namespace tooluse::http {
namespace detail {
namespace {

namespace asio = boost::asio;

// A socket libcurl asked the pool to watch. The descriptor never owns the fd: libcurl opens
// and closes it. A connection's socket stays registered with the reactor between the requests
// it carries (libcurl says CURL_POLL_REMOVE at the end of each) and is forgotten when libcurl
// closes it (on_close_socket); any other socket is forgotten at CURL_POLL_REMOVE.
struct watched {
  explicit watched(asio::io_context& io, curl_socket_t fd) : desc(io, fd) {}
  asio::posix::stream_descriptor desc;
  int want = 0;
  bool reading = false;
  bool writing = false;
  bool gone = false;
};

struct host_queue {
  long active = 0;
  std::deque<std::shared_ptr<transfer>> waiting;
};

// Per-transfer state that only the loop touches.
struct entry {
  std::shared_ptr<transfer> t;
  std::unique_ptr<asio::steady_timer> timer;
  std::unique_ptr<std::stop_callback<std::function<void()>>> on_stop;
};

class pool {
 public:
  pool() : work_(io_.get_executor()), done_work_(done_io_.get_executor()), curl_timer_(io_) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    multi_ = curl_multi_init();
    share_ = curl_share_init();
    curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &pool::on_socket);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &pool::on_timer);
    curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
    curl_multi_setopt(multi_, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
    apply(options_);
    thread_ = run_thread(io_, thread_id_);
    done_thread_ = run_thread(done_io_, done_thread_id_);
  }

  // The pool lives until the process ends (see instance()); nothing destroys it.
  static pool& instance() {
    static pool* p = new pool();
    return *p;
  }

  // run_thread runs `io` on a thread of its own; `id` is that thread's once it returns. Nothing
  // destroys the pool, so its threads are never joined.
  static std::thread run_thread(asio::io_context& io, std::thread::id& id) {
    std::promise<void> started;
    auto ready = started.get_future();
    std::thread t([&io, &id, started = std::move(started)]() mutable {
      id = std::this_thread::get_id();
      started.set_value();
      io.run();
    });
    ready.wait();
    return t;
  }

  asio::io_context& io() { return io_; }
  /// done_io runs completions and posted work on the completion thread.
  asio::io_context& done_io() { return done_io_; }
  bool on_thread() const {
    const auto me = std::this_thread::get_id();
    return me == thread_id_ || me == done_thread_id_;
  }

  status configure(const pool_options& o) {
    for (auto [v, name] : {std::pair{o.max_requests_per_host, "max_requests_per_host"},
                           {o.max_connections_per_host, "max_connections_per_host"},
                           {o.max_idle_connections, "max_idle_connections"}})
      if (v < 1)
        return fail(errc::invalid_argument, std::string("http::pool_options::") + name +
                                                " must be at least 1, got " + std::to_string(v));
    asio::post(io_, [this, o] {
      options_ = o;
      apply(o);
      for (auto& [key, q] : hosts_) admit(q);
    });
    return {};
  }

  pool_stats stats() const {
    std::lock_guard lock(stats_mu_);
    return stats_;
  }

  void submit(std::shared_ptr<transfer> t, std::stop_token stop) {
    auto e = std::make_shared<entry>();
    e->t = t;
    if (stop.stop_possible()) {
      std::weak_ptr<transfer> weak = t;
      e->on_stop = std::make_unique<std::stop_callback<std::function<void()>>>(
          stop, std::function<void()>([this, weak] {
            asio::post(io_, [this, weak] {
              if (auto t = weak.lock()) finish(t.get(), fail(t->cancelled_error()));
            });
          }));
    }
    asio::post(io_, [this, e] { enqueue(e); });
  }

  void resume(const std::shared_ptr<transfer>& t) {
    asio::post(io_, [this, t] {
      if (t->finished || !t->paused || !t->easy) return;
      t->paused = false;
      t->last_byte = clock::now();  // time spent paused is the reader's, not the peer's
      curl_easy_pause(t->easy, CURLPAUSE_CONT);
      drain();
    });
  }

  void abort(const std::shared_ptr<transfer>& t) {
    asio::post(io_, [this, t] {
      finish(t.get(), fail(errc::cancelled, "http request to " + t->host + " was aborted"));
    });
  }

 private:
  void apply(const pool_options& o) {
    curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, o.max_connections_per_host);
    curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, o.max_idle_connections);
  }

  void count(auto&& fn) {
    std::lock_guard lock(stats_mu_);
    fn(stats_);
  }

  void enqueue(const std::shared_ptr<entry>& e) {
    transfer* t = e->t.get();
    if (t->finished) return;  // cancelled before it got here
    entries_[t] = e;
    arm_deadline(t);
    host_queue& q = hosts_[t->host_key];
    q.waiting.push_back(e->t);
    count([&](pool_stats& s) {
      ++s.queued;
      s.peak_queued = std::max(s.peak_queued, s.queued);
    });
    admit(q);
  }

  void admit(host_queue& q) {
    while (q.active < options_.max_requests_per_host && !q.waiting.empty()) {
      auto t = std::move(q.waiting.front());
      q.waiting.pop_front();
      count([](pool_stats& s) { --s.queued; });
      if (!t->finished) start(t.get(), q);
    }
  }

  void start(transfer* t, host_queue& q) {
    CURL* easy = nullptr;
    if (!spare_.empty()) {
      easy = spare_.back();
      spare_.pop_back();
    } else {
      easy = curl_easy_init();
    }
    if (!easy) {
      finish(t, fail(errc::internal, "curl_easy_init failed"));
      return;
    }
    t->configure(easy);
    t->opened = &pool::on_opened;
    t->opened_context = this;
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, &pool::on_close_socket);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETDATA, this);
    curl_easy_setopt(easy, CURLOPT_SHARE, share_);
    t->started = true;
    t->began = clock::now();
    ++q.active;
    count([](pool_stats& s) { ++s.in_flight; });
    arm_deadline(t);
    if (curl_multi_add_handle(multi_, easy) != CURLM_OK)
      finish(t, fail(errc::internal, "http request to " + t->host + ": curl_multi_add_handle failed"));
  }

  // finish ends `t` once: its handle leaves the multi (never from inside a libcurl callback),
  // the next queued request of its host starts, and its sink gets `out`.
  void finish(transfer* t, result<response> out) {
    if (t->finished) return;
    t->finished = true;
    auto it = entries_.find(t);
    std::shared_ptr<entry> e;
    if (it != entries_.end()) {
      e = std::move(it->second);
      entries_.erase(it);
    }
    if (e && e->timer) e->timer->cancel();
    if (t->started) {
      long connects = 0;
      curl_easy_getinfo(t->easy, CURLINFO_NUM_CONNECTS, &connects);
      curl_multi_remove_handle(multi_, t->easy);
      curl_easy_reset(t->easy);
      if (spare_.size() < 64)
        spare_.push_back(t->easy);
      else
        curl_easy_cleanup(t->easy);
      t->easy = nullptr;
      t->release();
      count([&](pool_stats& s) {
        --s.in_flight;
        s.connections_opened += static_cast<std::uint64_t>(connects);
        if (connects == 0 && out) ++s.connections_reused;
      });
      host_queue& q = hosts_[t->host_key];
      --q.active;
      admit(q);
    }
    count([](pool_stats& s) { ++s.requests; });
    auto done = std::move(t->out.done);
    const bool later = t->out.later;
    t->out = {};
    if (e) e->on_stop.reset();
    if (!done) return;
    if (!later) return done(std::move(out));
    // The entry (its timer is the I/O thread's) ends here; the transfer with the completion.
    std::shared_ptr<transfer> keep = e ? std::move(e->t) : nullptr;
    e.reset();
    asio::post(done_io_, [done = std::move(done), out = std::move(out),
                          keep = std::move(keep)]() mutable { done(std::move(out)); });
  }

  void arm_deadline(transfer* t) {
    auto it = entries_.find(t);
    if (it == entries_.end()) return;
    entry& e = *it->second;
    auto at = t->next_deadline();
    if (at == clock::time_point::max()) return;
    if (!e.timer) e.timer = std::make_unique<asio::steady_timer>(io_);
    e.timer->expires_at(at);
    std::weak_ptr<transfer> weak = e.t;
    e.timer->async_wait([this, weak](const boost::system::error_code& ec) {
      auto t = weak.lock();
      if (ec || !t || t->finished) return;
      if (t->check_deadlines(clock::now()))
        finish(t.get(), fail(*t->failure));
      else
        arm_deadline(t.get());  // bytes came meanwhile: wait for the next deadline
    });
  }

  // drain reads libcurl's finished transfers.
  void drain() {
    int left = 0;
    while (CURLMsg* m = curl_multi_info_read(multi_, &left)) {
      if (m->msg != CURLMSG_DONE) continue;
      transfer* t = nullptr;
      curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&t));
      CURLcode code = m->data.result;
      if (t) finish(t, t->outcome(code));
    }
  }

  void act(curl_socket_t fd, int events) {
    int running = 0;
    curl_multi_socket_action(multi_, fd, events, &running);
    drain();
  }

  // watch waits for what libcurl wants of `w`. Asio's reactor is edge-triggered, so readiness
  // that came before the wait is checked with poll() first; libcurl may leave bytes unread.
  void watch(const std::shared_ptr<watched>& w, curl_socket_t fd) {
    if ((w->want & CURL_POLL_IN) && !w->reading) wait_for(w, fd, true);
    if ((w->want & CURL_POLL_OUT) && !w->writing) wait_for(w, fd, false);
  }

  void wait_for(const std::shared_ptr<watched>& w, curl_socket_t fd, bool in) {
    (in ? w->reading : w->writing) = true;
    auto on_ready = [this, w, fd, in](const boost::system::error_code& ec) {
      (in ? w->reading : w->writing) = false;
      if (w->gone) return;
      // A wait cancelled at CURL_POLL_REMOVE ends here, after libcurl may have asked again.
      if (ec == asio::error::operation_aborted) return watch(w, fd);
      if (ec) return;
      act(fd, in ? CURL_CSELECT_IN : CURL_CSELECT_OUT);
      if (!w->gone) watch(w, fd);
    };
    pollfd p{fd, static_cast<short>(in ? POLLIN : POLLOUT), 0};
    if (::poll(&p, 1, 0) > 0) {
      asio::post(io_, [on_ready] { on_ready({}); });
      return;
    }
    w->desc.async_wait(in ? asio::posix::descriptor_base::wait_read
                          : asio::posix::descriptor_base::wait_write,
                       on_ready);
  }

  static int on_socket(CURL*, curl_socket_t fd, int what, void* user, void*) {
    auto* self = static_cast<pool*>(user);
    auto it = self->sockets_.find(fd);
    if (what == CURL_POLL_REMOVE) {
      if (!self->connections_.count(fd)) {
        self->forget(fd);
      } else if (it != self->sockets_.end()) {  // kept registered for the connection's next request
        it->second->want = 0;
        boost::system::error_code ignored;
        it->second->desc.cancel(ignored);
      }
      return 0;
    }
    if (it == self->sockets_.end())
      it = self->sockets_.emplace(fd, std::make_shared<watched>(self->io_, fd)).first;
    it->second->want = what;
    self->watch(it->second, fd);
    return 0;
  }

  // forget stops watching `fd` and drops its registration (the fd stays open).
  void forget(curl_socket_t fd) {
    auto it = sockets_.find(fd);
    if (it == sockets_.end()) return;
    it->second->gone = true;
    boost::system::error_code ignored;
    it->second->desc.cancel(ignored);
    (void)it->second->desc.release();
    sockets_.erase(it);
  }

  // on_opened and on_close_socket follow a connection's socket from libcurl opening it to
  // libcurl closing it, so that it can stay registered in between (see `watched`). libcurl keeps
  // the close callback with the connection, so it is called whichever transfer closes it.
  static void on_opened(void* context, curl_socket_t fd) {
    auto* self = static_cast<pool*>(context);
    self->forget(fd);  // a registration left under this number is stale: the fd is new
    self->connections_.insert(fd);
  }
  static int on_close_socket(void* context, curl_socket_t fd) {
    auto* self = static_cast<pool*>(context);
    self->connections_.erase(fd);
    self->forget(fd);
    return ::close(fd) == 0 ? 0 : 1;
  }

  // on_timer: libcurl's one timeout for the whole multi. Re-arming Asio's timer moves its
  // timerfd (a system call, costly in a VM) and libcurl changes its timeout at nearly every
  // action, so the timer only ever moves earlier: a later or removed timeout leaves it armed,
  // and a wake-up that comes early asks libcurl for its current timeout (curl_multi_timeout) and
  // re-arms for that. A zero timeout is a post, not a timer.
  static int on_timer(CURLM*, long timeout_ms, void* user) {
    static_cast<pool*>(user)->arm_curl_timer(timeout_ms);
    return 0;
  }

  void arm_curl_timer(long timeout_ms) {
    if (timeout_ms < 0) return;
    if (timeout_ms == 0) {
      if (!timeout_posted_) {
        timeout_posted_ = true;
        asio::post(io_, [this] {
          timeout_posted_ = false;
          on_curl_timeout();
        });
      }
      return;
    }
    const auto due = clock::now() + std::chrono::milliseconds(timeout_ms);
    if (curl_timer_armed_ && curl_due_ <= due) return;
    curl_timer_armed_ = true;
    curl_due_ = due;
    curl_timer_.expires_at(due);  // a wait already pending ends with operation_aborted
    curl_timer_.async_wait([this](const boost::system::error_code& ec) {
      if (ec) return;
      curl_timer_armed_ = false;
      on_curl_timeout();
    });
  }

  void on_curl_timeout() {
    act(CURL_SOCKET_TIMEOUT, 0);
    long next = -1;
    if (curl_multi_timeout(multi_, &next) == CURLM_OK) arm_curl_timer(next);
  }

  asio::io_context io_{1};
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  asio::io_context done_io_{1};
  asio::executor_work_guard<asio::io_context::executor_type> done_work_;
  asio::steady_timer curl_timer_;
  clock::time_point curl_due_{};
  bool curl_timer_armed_ = false;
  bool timeout_posted_ = false;
  CURLM* multi_ = nullptr;
  CURLSH* share_ = nullptr;
  pool_options options_;
  std::thread thread_;
  std::thread::id thread_id_;
  std::thread done_thread_;
  std::thread::id done_thread_id_;
  std::map<curl_socket_t, std::shared_ptr<watched>> sockets_;
  std::unordered_set<curl_socket_t> connections_;  ///< connection sockets libcurl has open
  std::unordered_map<std::string, host_queue> hosts_;
  std::unordered_map<transfer*, std::shared_ptr<entry>> entries_;
  std::vector<CURL*> spare_;
  mutable std::mutex stats_mu_;
  pool_stats stats_;
};

}  // namespace

void submit(std::shared_ptr<transfer> t, std::stop_token stop) {
  pool::instance().submit(std::move(t), std::move(stop));
}
void resume(const std::shared_ptr<transfer>& t) { pool::instance().resume(t); }
void abort(const std::shared_ptr<transfer>& t) { pool::instance().abort(t); }

}  // namespace detail

status configure_pool(const pool_options& options) {
  return detail::pool::instance().configure(options);
}

pool_stats pool_statistics() { return detail::pool::instance().stats(); }

bool on_pool_thread() { return detail::pool::instance().on_thread(); }

void post(std::function<void()> fn, std::chrono::milliseconds delay, std::stop_token stop) {
  auto& io = detail::pool::instance().done_io();
  if (delay.count() <= 0) {
    boost::asio::post(io, std::move(fn));
    return;
  }
  struct waiting {
    explicit waiting(boost::asio::io_context& io) : timer(io) {}
    boost::asio::steady_timer timer;
    std::function<void()> fn;
    std::unique_ptr<std::stop_callback<std::function<void()>>> on_stop;
  };
  auto w = std::make_shared<waiting>(io);
  w->fn = std::move(fn);
  // Everything that touches `w` runs on the loop, the stop callback's registration included.
  boost::asio::post(io, [&io, w, delay, stop = std::move(stop)] {
    w->timer.expires_after(delay);
    w->timer.async_wait([w](const boost::system::error_code&) {
      auto fn = std::move(w->fn);
      w->on_stop.reset();
      if (fn) fn();
    });
    if (!stop.stop_possible()) return;
    std::weak_ptr<waiting> weak = w;
    w->on_stop = std::make_unique<std::stop_callback<std::function<void()>>>(
        stop, std::function<void()>([&io, weak] {
          boost::asio::post(io, [weak] {
            if (auto w = weak.lock()) w->timer.cancel();
          });
        }));
  });
}

}  // namespace tooluse::http
