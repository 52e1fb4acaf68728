#pragma once
/// \file shared_state.hpp
/// The state that replicas of an MCP HTTP server share through one store (a SQLite file for
/// replicas on one machine, a postgresql:// URL for replicas anywhere): the sessions of the
/// handshake revisions (mcp::session_store) and the task records (mcp::task_store), so that
/// any replica serves any request of any session. `tooluse mcp serve --http ADDR --store LOC`.
///
///   auto shared = mcp_store::open_shared_state("postgresql://db/mcp");
///   if (!shared) return report(shared.error());
///   mcp::server srv(info, &registry, {.tasks = {.store = shared->tasks}});
///   mcp::http_server http(srv, {.port = 8080, .session_store = shared->sessions});
///
/// Notifications between replicas: LISTEN/NOTIFY on PostgreSQL; on SQLite each replica polls
/// an events table every `poll_interval` (and is woken at once by its own writes).
/// docs/deploy.md, design/mcp-replicas.md.

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "tooluse/error.hpp"
#include "tooluse/mcp/session_store.hpp"
#include "tooluse/mcp/tasks.hpp"
#include "tooluse/result.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::mcp_store {

/// shared_state_options tune open_shared_state.
struct shared_state_options {
  store::store_options store;
  /// SQLite: how often a replica reads the messages other replicas published.
  std::chrono::milliseconds poll_interval{50};
  /// on_error is told of a failed read or write after opening; default: ignored.
  std::function<void(const error&)> on_error;
};

/// shared_state is what open_shared_state returns.
struct shared_state {
  std::shared_ptr<mcp::session_store> sessions;  ///< for http_options::session_store
  std::shared_ptr<mcp::task_store> tasks;        ///< for task_options::store (opened shared)
};

/// open_shared_state opens the sessions and tasks at `location`, creating the schema if
/// needed. Errors: those of store::open_store (errc::io_error, errc::unsupported, ...).
result<shared_state> open_shared_state(const std::string& location,
                                       shared_state_options options = {});

/// open_session_store opens the sessions alone.
result<std::shared_ptr<mcp::session_store>> open_session_store(const std::string& location,
                                                               shared_state_options options = {});

}  // namespace tooluse::mcp_store
