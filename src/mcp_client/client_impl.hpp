#pragma once
// Private state of tooluse::mcp::client, shared by the client_*.cpp files.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "tooluse/mcp/client.hpp"
#include "tooluse/mcp/tasks.hpp"
#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp {

using clock_type = std::chrono::steady_clock;
using input_request_map = std::map<std::string, wire::input_request>;

// pending_call is one request of ours waiting for its response.
struct pending_call {
  std::mutex mu;
  std::condition_variable cv;
  std::optional<json> response;  // the whole JSON-RPC response
  std::optional<error> failure;  // the transport gave up on it
  std::function<void(const progress_update&)> on_progress;
  clock_type::time_point last_activity = clock_type::now();
};

// task_watch collects the notifications/tasks/status of one task a wait_task is waiting for.
struct task_watch {
  std::mutex mu;
  std::condition_variable_any cv;
  std::vector<json> statuses;  // Task JSON, oldest first; drained by the waiter
};

// worker is a thread answering one server request.
struct worker {
  std::jthread thread;
  std::atomic<bool> done{false};
};

struct client::impl {
  std::unique_ptr<client_transport> transport;
  client_options options;

  mutable std::mutex mu;
  std::unordered_map<std::string, std::shared_ptr<pending_call>> pending;  // by id_key
  std::unordered_map<std::string, std::stop_source> incoming;  // server requests by id_key
  std::list<std::shared_ptr<worker>> workers;
  std::unordered_map<std::string, std::shared_ptr<task_watch>> task_watches;  // by task id
  std::atomic<std::int64_t> next_id{1};
  bool closed = false;
  bool closed_reported = false;
  bool carries_headers = false;  // the transport sends outgoing::headers (its start() said)

  // What negotiation learnt (guarded by mu).
  std::string version;
  bool stateless = false;
  implementation server;
  json caps = json::object();
  std::string instructions;
  std::optional<log_level> level;                // 2026-07-28: sent as _meta
  std::optional<std::vector<json>> tools_cache;  // dropped on list_changed
  std::map<std::string, json> tool_schemas;      // name -> inputSchema (x-mcp-header)
  int generation = 0;                            // handshakes done
  mutable json unsupported_data;                 // data of the last -32022 error
  std::mutex handshake_mu;                       // one handshake at a time

  // client.cpp
  status handshake();
  status initialize(std::string_view version);
  status discover();
  status redo_handshake(int seen_generation);
  std::string protocol_version_locked() const;
  json unsupported_data_locked() const;
  json client_capabilities() const;
  json stateless_meta() const;
  void fail_all(const error& e);
  /// write writes `message` through the transport with the revision the client speaks (none
  /// before the handshake settled one) and the rest of the envelope.
  status write(const json& message, const json* request = nullptr,
               const header_list* headers = nullptr);

  // client_request.cpp
  result<json> request(std::string_view method, json params, const call_options& options);
  result<json> round_trip(std::string_view method, json params, const call_options& options,
                          std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  result<json> wait_for(const std::string& key, const json& id, std::string_view method,
                        const std::shared_ptr<pending_call>& call, const call_options& options,
                        std::chrono::milliseconds timeout);
  /// resolve_input answers 2026-07-28 input requests with the handlers; `root` is their path.
  result<json> resolve_input(const input_request_map& requests, const std::string& root);
  int options_rounds() const;
  header_list param_headers(std::string_view method, const json& params) const;
  error rpc_error(std::string_view method, const json& err) const;

  // client_incoming.cpp
  void on_message(json message);
  void on_send_failed(const json& id, const error& reason);
  void on_closed(const error& reason);
  void on_response(const json& message);
  void on_notification(const json& message);
  /// handle_notification acts on one notification; false: it did not decode (logged, dropped).
  bool handle_notification(const std::string& method, const json& params);
  void on_server_request(const json& message);
  /// run_handler answers a server request (or a 2026-07-28 input request) after decoding its
  /// params; `root` names them in a -32602 error.
  result<json> run_handler(std::string_view method, const json& params, std::stop_token stop,
                           const std::string& root = "params");
  /// warn reports a dropped message or a new session (client_options::on_warning).
  void warn(std::string_view line) const;
  /// spawn runs `fn` on a worker; false (and nothing run) when max_server_requests are busy.
  bool spawn(std::function<void()> fn);
};

// created_task_id returns the task id of a tools/call result that created a task (2026-07-28
// flat CreateTaskResult, or 2025-11-25 {"task": {...}}), or "" for an ordinary result.
std::string created_task_id(const json& r);

// str_of returns j[key] when j is an object and that member a string; "" otherwise.
inline std::string str_of(const json& j, std::string_view key) {
  if (!j.is_object()) return {};
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// implementation_of reads a clientInfo/serverInfo object; missing fields stay empty.
inline implementation implementation_of(const json& info) {
  return {.name = str_of(info, "name"),
          .version = str_of(info, "version"),
          .title = str_of(info, "title"),
          .description = str_of(info, "description")};
}

// id_key renders a request id as a map key ("1", "\"a\"").
std::string id_key(const json& id);

// validate_header_tools drops tools whose x-mcp-header annotations are invalid (2026-07-28).
std::vector<json> valid_header_tools(std::vector<json> tools, std::string* warnings);

// encode_header_value renders a value for an HTTP header (2026-07-28 Base64 sentinel rules).
std::string encode_header_value(std::string_view value);

}  // namespace tooluse::mcp
