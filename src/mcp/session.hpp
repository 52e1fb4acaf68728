#pragma once
// The state of one MCP session (internal): negotiated version, client capabilities, log
// level, subscriptions, requests the server sent and awaits, and requests it is running.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/mcp/protocol.hpp"
#include "tooluse/result.hpp"

namespace tooluse::mcp {

/// thread_stops: the stop sources of a shared session (the HTTP server's root of stateless POSTs),
/// one per thread that serves it. Every request of a shared session needs a stop token that the
/// session's close requests; copies of one token would all change one reference count, which
/// the I/O threads would pass between their caches several times per request. Each thread's
/// requests here share only their thread's source. request_stop() stops every source, and a
/// source made afterwards starts stopped.
class thread_stops {
 public:
  std::stop_token token() {
    thread_local struct slot {
      std::uint64_t owner = 0;
      std::shared_ptr<std::stop_source> source;
    } slots[4];
    thread_local unsigned next = 0;
    for (auto& s : slots)
      if (s.owner == serial_) return s.source->get_token();
    std::shared_ptr<std::stop_source> mine;
    {
      std::lock_guard lock(mu_);
      const auto me = std::this_thread::get_id();
      for (auto& [who, src] : all_)
        if (who == me) mine = src;  // this thread's, evicted from its slots by other sessions
      if (!mine) {
        mine = std::make_shared<std::stop_source>();
        if (stopped_) mine->request_stop();
        all_.emplace_back(me, mine);
      }
    }
    auto& s = slots[next++ % 4];
    s.owner = serial_;
    s.source = mine;
    return mine->get_token();
  }
  void request_stop() {
    std::lock_guard lock(mu_);
    stopped_ = true;
    for (auto& [who, src] : all_) src->request_stop();
  }

 private:
  static std::uint64_t next_serial() {
    static std::atomic<std::uint64_t> n{0};
    return ++n;
  }
  const std::uint64_t serial_ = next_serial();  // never reused: a slot never names another session
  std::mutex mu_;
  bool stopped_ = false;
  std::vector<std::pair<std::thread::id, std::shared_ptr<std::stop_source>>> all_;
};

/// pending_reply is a server-to-client request waiting for its response.
struct pending_reply {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  result<json> value = json(nullptr);
};

class session {
 public:
  session() = default;
  /// per_request: the pseudo-session of one 2026-07-28 request (server_context.cpp), made for
  /// each such request: nothing of it is stopped as a whole (stop_all stays empty) and the
  /// request gives its client capabilities, so neither is allocated first; its client info is
  /// null unless the request gives one.
  struct per_request_t {};
  explicit session(per_request_t)
      : stop_all(std::nostopstate), client_capabilities(nullptr), client_info(nullptr), last_used() {
    stateless = true;
    initialized = true;
  }

  std::mutex mu;
  std::string id;                ///< HTTP session id (empty for stdio and stateless)
  std::string protocol_version;  ///< negotiated, or the request's for stateless
  bool stateless = false;        ///< a per-request pseudo-session (2026-07-28)
  bool initialized = false;      ///< initialize was answered
  bool closed = false;
  /// shared marks the HTTP server's root of stateless POSTs: requests of many clients, whose
  /// ids may collide, so they are not kept in `running`; they stop with stop_all instead.
  /// Set once, before the session is used.
  bool shared = false;
  std::stop_source stop_all;  ///< requested when the session closes
  thread_stops stops;         ///< a shared session's: requested with stop_all
  json client_capabilities = json::object();
  json client_info = json::object();
  std::optional<log_level> level;  ///< null: everything passes (sessions) / nothing (stateless)
  std::set<std::string> subscriptions;
  std::function<void(const json&)> outbound;  ///< messages not tied to a request
  std::map<std::string, std::shared_ptr<pending_reply>> pending;  ///< by id_to_string
  std::map<std::string, std::stop_source> running;                ///< by id_to_string
  std::int64_t next_request_id = 0;
  std::string task_key;  ///< random; owns the tasks this session created (set on first use)
  /// last_used: for the reaper of HTTP sessions (a per-request session is never reaped: unset)
  std::chrono::steady_clock::time_point last_used = std::chrono::steady_clock::now();

 private:
  int sending = 0;  ///< send_outbound calls running their writer (guarded by mu)
  std::condition_variable sent;
  static int& sending_here() {
    thread_local int n = 0;
    return n;
  }

 public:

  /// send_outbound delivers a message on the session stream if there is one. The writer runs
  /// outside the lock; close_outbound waits for it, so a task finishing on its own thread never
  /// writes through a stream that its owner has closed and destroyed.
  void send_outbound(const json& message) {
    std::function<void(const json&)> out;
    {
      std::lock_guard lock(mu);
      if (closed || !outbound) return;
      out = outbound;
      ++sending;
    }
    ++sending_here();
    out(message);
    --sending_here();
    std::lock_guard lock(mu);
    if (--sending == 0) sent.notify_all();
  }
  /// close_outbound marks the session closed, drops its writer and waits for sends in flight
  /// (not for one this thread is inside: a writer that closes its own session). `lock` holds mu.
  void close_outbound(std::unique_lock<std::mutex>& lock) {
    closed = true;
    outbound = nullptr;
    if (sending_here() == 0) sent.wait(lock, [&] { return sending == 0; });
  }
  /// allows tells whether a log message at `l` passes the session threshold.
  bool allows(log_level l) {
    std::lock_guard lock(mu);
    if (!level) return !stateless;
    return static_cast<int>(l) >= static_cast<int>(*level);
  }
};

}  // namespace tooluse::mcp
