#pragma once
/// \file tasks.hpp
/// MCP tasks: a long-running tools/call answered at once with a task handle; the caller polls
/// (tasks/get), answers input requests (tasks/update, 2026-07-28), fetches the result and may
/// cancel. Two wire revisions: the experimental core feature of 2025-11-25 (`params.task`,
/// tasks/result, tasks/list, notifications/tasks/status) and the 2026-07-28 extension
/// `io.modelcontextprotocol/tasks` (SEP-2663: server-directed creation, result inlined on
/// tasks/get, ttlMs / pollIntervalMs).
///
/// Task records live in a task_store. The server keeps them in memory by default
/// (make_memory_task_store); a durable store (SQLite, PostgreSQL) implements the same interface
/// so that finished tasks survive a restart.

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/jsonrpc/message.hpp"

namespace tooluse::mcp {

/// The 2026-07-28 extension identifier, under capabilities.extensions.
inline constexpr std::string_view tasks_extension = "io.modelcontextprotocol/tasks";
/// The 2025-11-25 `_meta` key relating a message to a task.
inline constexpr std::string_view meta_related_task = "io.modelcontextprotocol/related-task";

/// task_status is where a task is in its life; completed, failed and cancelled are terminal.
enum class task_status { working, input_required, completed, failed, cancelled };
std::string_view to_string(task_status s) noexcept;
std::optional<task_status> parse_task_status(std::string_view s) noexcept;
inline bool is_terminal(task_status s) noexcept {
  return s == task_status::completed || s == task_status::failed || s == task_status::cancelled;
}

/// long_running_tag is the tool tag (tool::tags) that declares a registry tool long-running:
/// a server made over the registry exposes it with taskSupport optional (clients that support
/// tasks get a task; others a plain call), unless server_options::task_tools says otherwise.
inline constexpr std::string_view long_running_tag = "long-running";

/// task_support says whether the server runs a tool's calls as tasks: never (forbidden, the
/// default), when the client supports tasks (optional), or always (required: clients without
/// task support are refused). Advertised as the tool's `execution.taskSupport`.
enum class task_support { forbidden, optional, required };

/// to_string / parse for task_support ("forbidden", "optional", "required").
std::string_view to_string(task_support s) noexcept;
std::optional<task_support> parse_task_support(std::string_view s) noexcept;

/// task_record is one task as stored: identity, owner, status and, once terminal, the outcome.
struct task_record {
  std::string id;        ///< 128 random bits, hex: the capability to read the task
  std::string owner;     ///< the creating session ("" for 2026-07-28 requests); scopes tasks/list
  /// principal is the authorization context of the creating request (request_context::principal,
  /// "" without one). Only requests under the same principal see the task.
  std::string principal;
  std::string tool;      ///< the tool that runs
  std::string revision;  ///< the protocol revision the task was created under
  task_status status = task_status::working;
  std::string status_message;
  std::chrono::system_clock::time_point created_at;
  std::chrono::system_clock::time_point updated_at;
  std::optional<long long> ttl_ms;  ///< retention from creation; nullopt: unlimited
  long long poll_interval_ms = 1000;
  json result;                                 ///< the tool result (completed), else null
  std::optional<jsonrpc::error_object> error;  ///< the protocol error (failed)
  json input_requests = json::object();        ///< pending input requests (input_required)
};

/// task_store keeps task records. Implementations must be thread-safe.
class task_store {
 public:
  virtual ~task_store() = default;
  /// put inserts or replaces a record.
  virtual void put(const task_record& r) = 0;
  /// get returns the record with `id`, if any.
  virtual std::optional<task_record> get(const std::string& id) = 0;
  /// list returns the records of `owner`, oldest first.
  virtual std::vector<task_record> list(const std::string& owner) = 0;
  /// erase removes a record; false if unknown.
  virtual bool erase(const std::string& id) = 0;
};

/// make_memory_task_store returns the default, in-process store.
std::shared_ptr<task_store> make_memory_task_store();

/// task_options configure the server's tasks.
struct task_options {
  std::shared_ptr<task_store> store;           ///< null: make_memory_task_store()
  long long default_ttl_ms = 60 * 60 * 1000;   ///< retention when the client asks none
  long long max_ttl_ms = 24 * 60 * 60 * 1000;  ///< a larger requested ttl is lowered to this
  long long poll_interval_ms = 500;            ///< suggested to clients
  std::size_t max_live_per_client = 64;        ///< non-terminal tasks per session / client
};

/// task_to_json renders a record's Task fields for `revision` (2026-07-28: ttlMs and
/// pollIntervalMs; earlier: ttl and pollInterval). The outcome is not included.
json task_to_json(const task_record& r, std::string_view revision);

/// format_time renders an ISO 8601 UTC timestamp with milliseconds.
std::string format_time(std::chrono::system_clock::time_point t);

}  // namespace tooluse::mcp
