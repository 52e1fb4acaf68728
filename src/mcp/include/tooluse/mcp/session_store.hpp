#pragma once
/// \file session_store.hpp
/// session_store: where the HTTP server keeps its 2025-11-25-era sessions when several
/// replicas serve one endpoint (behind a load balancer, without sticky routing). Each replica
/// looks a session it does not hold up in the store, so any replica serves any request of any
/// session; the messages a session must get (list changes, resource updates, task status, log
/// messages) are published through the store and written by whichever replica holds the
/// session's GET stream. tooluse::mcp_store implements it over SQLite and PostgreSQL
/// (mcp_store/shared_state.hpp); without one (http_options::session_store null) sessions live
/// in the server's memory. docs/deploy.md.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"

namespace tooluse::mcp {

/// session_record is what a replica needs to serve a session it did not initialize.
struct session_record {
  std::string id;                ///< the Mcp-Session-Id
  std::string protocol_version;  ///< negotiated at initialize
  json client_capabilities = json::object();
  json client_info = json::object();
  json initialize_result;                  ///< the server's answer to initialize
  std::optional<std::string> log_level;    ///< logging/setLevel; nullopt: not set
  std::vector<std::string> subscriptions;  ///< resources/subscribe URIs
  std::string task_key;                    ///< owns the session's tasks (tasks/list)
};

/// session_store keeps session records and carries messages to sessions. Thread-safe.
class session_store {
 public:
  virtual ~session_store() = default;
  /// put inserts or replaces a record.
  virtual status put(const session_record& r) = 0;
  /// get returns the record with `id`; nullopt if there is none (never made, or deleted).
  virtual result<std::optional<session_record>> get(const std::string& id) = 0;
  /// erase deletes a record (HTTP DELETE of the session).
  virtual status erase(const std::string& id) = 0;
  /// publish sends `message` to session `id`'s stream, wherever it is held.
  virtual status publish(const std::string& id, const json& message) = 0;
  /// listen calls `deliver(session id, message)` for every message published from now on, by
  /// any replica, on a thread of its own, until the returned handle is destroyed.
  virtual result<std::shared_ptr<void>> listen(
      std::function<void(const std::string& id, const json& message)> deliver) = 0;
};

}  // namespace tooluse::mcp
