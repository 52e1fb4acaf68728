#pragma once
/// \file events.hpp
/// event_log: short-lived events between the processes that share a store (a SQLite file on
/// one machine, or a PostgreSQL database). A process publishes an event on a topic; every
/// process listening on the store, the publisher included, gets it once, in order of
/// publication per publisher. Used by the MCP servers that share sessions
/// (tooluse::mcp_store): a notification made on one replica reaches the replica that holds the
/// session's stream.
///
/// How a listener learns of new events: PostgreSQL wakes it with LISTEN/NOTIFY (latency: one
/// round trip); SQLite has no notifications across processes, so a listener polls the events
/// table every `poll_interval` and is woken at once by a publish in its own process.
/// Events older than `retention` are deleted: a listener that was gone longer misses them.
/// Example:
///   auto log = tooluse::store::open_events("state.db");
///   auto handle = (*log)->listen([](const store::event& e) { use(e.topic, e.data); });
///   (*log)->publish("session-1", {{"method", "notifications/tools/list_changed"}});

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::store {

/// event is one published event.
struct event {
  std::int64_t seq = 0;  ///< increasing within the store
  std::string topic;
  json data;
};

/// event_options tune open_events.
struct event_options {
  store_options store;
  std::chrono::milliseconds poll_interval{50};  ///< SQLite: how often other processes are read
  std::chrono::milliseconds retention{std::chrono::minutes(1)};  ///< events older are deleted
};

/// event_log publishes and delivers events. Thread-safe.
class event_log {
 public:
  virtual ~event_log() = default;
  /// publish stores an event on `topic` and wakes the listeners.
  /// Errors: database errors as errc::io_error.
  virtual status publish(const std::string& topic, const json& data) = 0;
  /// listen calls `deliver` on a thread of its own for every event published from now on, by
  /// any process, until the returned handle is destroyed (which waits for a running call).
  /// `on_error` (may be empty) hears of a failed read; the listener retries.
  /// Errors: those of opening the listener's own connection.
  virtual result<std::shared_ptr<void>> listen(std::function<void(const event&)> deliver,
                                               std::function<void(const error&)> on_error = {}) = 0;
  /// location is where the events live (a path, or a URL without its password).
  virtual std::string location() const = 0;
};

/// open_events opens the events of the store at `location` (a SQLite file or a postgresql://
/// URL), creating and migrating the schema if needed, as open_store does.
/// Errors: those of open_store.
result<std::unique_ptr<event_log>> open_events(const std::string& location,
                                               const event_options& options = {});

}  // namespace tooluse::store
