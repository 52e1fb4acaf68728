#pragma once
/// \file task_store.hpp
/// A durable mcp::task_store: the MCP server's task records in the durable run store (a SQLite
/// file or a PostgreSQL database), so that a finished task's result can still be fetched after
/// the server restarts.
///
///   auto tasks = mcp_store::open_task_store("tasks.db");
///   if (!tasks) return report(tasks.error());
///   mcp::server srv(info, &registry, {.tasks = {.store = *tasks}});
///
/// A task cannot go on running across a restart: opening the store marks every record that was
/// still working (or waiting for input) failed, with a message that says the server restarted
/// and to call the tool again. So one server process uses a given store at a time, unless it
/// is opened `shared` (replicas: see shared_state.hpp).

#include <functional>
#include <memory>
#include <string>

#include "tooluse/error.hpp"
#include "tooluse/mcp/tasks.hpp"
#include "tooluse/result.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::mcp_store {

/// task_store_options tune open_task_store.
struct task_store_options {
  store::store_options store;
  /// on_error is told of a failed write or read after opening (the task_store interface
  /// cannot return errors: a failed read answers "unknown task"); default: ignored.
  std::function<void(const error&)> on_error;
  /// shared: other server processes (replicas) use the store at the same time, so the records
  /// still running are theirs and are left alone when opening (mcp_store/shared_state.hpp).
  bool shared = false;
};

/// open_task_store opens the task records at `location` (a file path for SQLite, or a
/// postgresql:// URL) and fails the records a previous process left running.
/// Errors: those of store::open_store (errc::io_error, errc::unsupported, ...).
result<std::shared_ptr<mcp::task_store>> open_task_store(const std::string& location,
                                                         task_store_options options = {});

/// task_record_to_json / task_record_from_json: the stored form of a record (every field).
json task_record_to_json(const mcp::task_record& r);
std::optional<mcp::task_record> task_record_from_json(const json& j);

}  // namespace tooluse::mcp_store
