#pragma once
/// \file client.hpp
/// tooluse::mcp::client, an MCP client: connects to one server through a client_transport
/// (stdio child process, Streamable HTTP), negotiates the protocol revision (2026-07-28
/// `server/discover`, falling back to the 2025 `initialize` handshake), and offers tools,
/// resources, prompts, completion and logging, with progress, timeouts and cancellation both
/// ways, and handlers for what the server asks of the client (sampling, elicitation, roots).

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/mcp/client_transport.hpp"
#include "tooluse/mcp/protocol.hpp"
#include "tooluse/result.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse::mcp {

/// progress_update is one `notifications/progress` for a request of ours.
struct progress_update {
  double progress = 0;
  std::optional<double> total;
  std::string message;
};

/// task_update is one status a task-augmented call observed (a tasks/get poll or a
/// notifications/tasks/status): the task's id, status and, when the server said one, message.
struct task_update {
  std::string task_id;
  std::string status;  ///< working, input_required, completed, failed, cancelled
  std::string status_message;
  json task;  ///< the Task JSON as the server sent it
  /// from_notification: a 2025-11-25 `notifications/tasks/status` said it (else a tasks/get poll).
  bool from_notification = false;
};

/// log_entry is one `notifications/message` from the server.
struct log_entry {
  log_level level = log_level::info;
  std::string logger;  ///< empty when the server names none
  json data;
};

/// root is one filesystem root offered to the server (`roots/list`).
struct root {
  std::string uri;  ///< "file:///..."
  std::string name;
};

/// server_request_handler answers one request the server sends (or embeds as an input request
/// in 2026-07-28): it gets the request's params and a stop token that fires when the server
/// cancels; it returns the result object, or an error sent back as a JSON-RPC error.
using server_request_handler =
    std::function<result<json>(const json& params, std::stop_token stop)>;

/// client_options configure a client. All handlers may be empty; a handler that is set also
/// declares the matching client capability (sampling, elicitation, roots).
/// Server-request handlers and the list-changed / resource-updated callbacks run on the
/// client's worker threads, never while a client lock is held, so they may call the client
/// (e.g. list_tools from on_tools_changed). on_log, on_notification and call_options::
/// on_progress run on the transport's thread, in arrival order: keep them short and do not
/// wait on the client from them.
struct client_options {
  implementation client_info{.name = "tooluse", .version = "0.1.0"};
  /// protocol_version: "auto" tries 2026-07-28 (`server/discover`) and falls back to the
  /// `initialize` handshake; an explicit revision ("2026-07-28", "2025-11-25", ...) forces it.
  std::string protocol_version = "auto";
  /// request_timeout fails a request with no answer (and no progress) for this long.
  std::chrono::milliseconds request_timeout{std::chrono::seconds(60)};
  /// reset_timeout_on_progress restarts request_timeout whenever progress arrives ...
  bool reset_timeout_on_progress = true;
  /// ... but never beyond max_request_time after the request was sent (0: no hard bound).
  std::chrono::milliseconds max_request_time{std::chrono::minutes(10)};
  /// discover_timeout bounds the `server/discover` probe of "auto" (a silent legacy server).
  std::chrono::milliseconds discover_timeout{std::chrono::seconds(10)};
  /// max_input_rounds bounds the 2026-07-28 input-required retries of one request.
  int max_input_rounds = 8;
  /// max_list_pages bounds the pages one list_* call follows.
  int max_list_pages = 1000;
  /// max_server_requests bounds the server's requests (sampling, elicitation, roots) and
  /// list-changed callbacks handled at once, each on its own thread; a server sending more is
  /// answered with a JSON-RPC error naming this limit (callbacks are dropped).
  int max_server_requests = 32;
  /// tasks declares the 2026-07-28 tasks extension (io.modelcontextprotocol/tasks) and makes
  /// call_tool wait for a task-augmented call's result (polling tasks/get at the server's
  /// suggested interval); with 2025-11-25 servers, tools that require tasks are called as
  /// tasks. false: tools that require tasks fail.
  bool tasks = true;
  /// max_task_time bounds how long call_tool waits for a task (then cancels it: errc::timeout).
  std::chrono::milliseconds max_task_time{std::chrono::hours(1)};

  server_request_handler on_sampling;     ///< `sampling/createMessage` -> CreateMessageResult
  server_request_handler on_elicitation;  ///< `elicitation/create` -> ElicitResult
  /// roots: the roots `roots/list` answers with (when on_roots is empty and roots non-empty).
  std::vector<root> roots;
  server_request_handler on_roots;  ///< overrides `roots`; returns ListRootsResult
  /// apply_elicitation_defaults fills, on an accepted elicitation, every property of the
  /// requested schema that the handler left out and that has a `default` (SEP-1034).
  bool apply_elicitation_defaults = true;

  std::function<void(const log_entry&)> on_log;  ///< `notifications/message`
  std::function<void()> on_tools_changed;        ///< `notifications/tools/list_changed`
  std::function<void()> on_prompts_changed;      ///< `notifications/prompts/list_changed`
  std::function<void()> on_resources_changed;    ///< `notifications/resources/list_changed`
  std::function<void(const std::string& uri)> on_resource_updated;  ///< resources/updated
  /// on_notification sees every notification (after the specific handlers).
  std::function<void(const json& notification)> on_notification;
  /// on_closed is told once when the connection ends without close() (crash, network).
  std::function<void(const error& reason)> on_closed;
  /// on_warning receives a line about a message from the server dropped because it does not
  /// decode (`notifications/progress dropped: params.progress: expected number, got string
  /// "x"`), or about a session the server forgot and the client renewed. Empty: stderr.
  std::function<void(std::string_view line)> on_warning;
};

/// call_options tune one request.
struct call_options {
  /// on_progress receives progress for this request; when set, a progress token is sent.
  std::function<void(const progress_update&)> on_progress;
  /// timeout overrides client_options::request_timeout for this request.
  std::optional<std::chrono::milliseconds> timeout;
  /// stop cancels the request: the client sends `notifications/cancelled` and returns
  /// errc::cancelled.
  std::stop_token stop;
  /// meta is merged into the request's `_meta`.
  json meta = json::object();
  /// on_task is told every task status a task-augmented tools/call observes while waiting.
  std::function<void(const task_update&)> on_task;
  /// as_task asks a 2025-11-25 server to run the call as a task (params.task) even when the
  /// tool does not require it (it must support it). 2026-07-28 servers decide themselves.
  bool as_task = false;
  /// task_ttl_ms is the retention asked for a 2025-11-25 task (0: the server's default).
  long long task_ttl_ms = 0;
};

/// list_options tune a list_* call.
struct list_options {
  call_options call;
  /// refresh ignores the cached list (tools only; the cache is dropped on list_changed).
  bool refresh = false;
};

/// client is a connection to one MCP server. Thread-safe: any number of requests may be in
/// flight at once from any threads; they are correlated by id.
/// Example:
///   auto c = mcp::client::connect(std::move(transport), {.client_info = {"app", "1.0"}});
///   if (!c) return report(c.error());
///   auto tools = (*c)->list_tools();
///   auto r = (*c)->call_tool("add", {{"a", 2}, {"b", 40}});
class client : public std::enable_shared_from_this<client> {
 public:
  /// connect starts the transport and negotiates the protocol revision.
  /// Errors: the transport's errors (errc::io_error, errc::network_error, errc::http_error);
  /// errc::protocol_error when the server answers the handshake wrongly or offers no revision
  /// in common; errc::timeout when it does not answer.
  static result<std::shared_ptr<client>> connect(std::unique_ptr<client_transport> transport,
                                                 client_options options = {});

  ~client();
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  /// list_tools returns every tool (all pages), each the server's `Tool` JSON verbatim.
  /// Cached until `notifications/tools/list_changed` or options.refresh.
  /// Errors: errc::protocol_error for a malformed page or a cursor repeated by the server.
  result<std::vector<json>> list_tools(const list_options& options = {});

  /// call_tool calls a tool and converts its CallToolResult; a tool that reports isError is
  /// a successful call whose tool_result has is_error set.
  /// Errors: a JSON-RPC error from the server (errc::not_found for -32601/unknown tool is
  /// not guessed: the code is errc::protocol_error with error::jsonrpc_code set),
  /// errc::timeout, errc::cancelled, transport errors.
  result<tool_result> call_tool(std::string_view name, const json& arguments = json::object(),
                                const call_options& options = {});
  /// call_tool_raw is call_tool returning the CallToolResult JSON verbatim.
  result<json> call_tool_raw(std::string_view name, const json& arguments = json::object(),
                             const call_options& options = {});

  /// start_tool_task calls a tool and returns without waiting: the Task JSON (taskId, status,
  /// pollInterval(Ms), ...) when the server made a task, else the CallToolResult (it has
  /// "content"). Errors as call_tool.
  result<json> start_tool_task(std::string_view name, const json& arguments = json::object(),
                               const call_options& options = {});
  /// get_task returns tasks/get's result (2026-07-28: result or error inlined when terminal).
  result<json> get_task(std::string_view task_id, const call_options& options = {});
  /// cancel_task asks the server to cancel a task (tasks/cancel).
  status cancel_task(std::string_view task_id, const call_options& options = {});
  /// wait_task polls a task until it ends and returns its CallToolResult JSON; input the task
  /// asks for (2026-07-28) is answered through the client's handlers. options.stop cancels the
  /// task (errc::cancelled). Errors: errc::cancelled when the task was cancelled; the task's
  /// JSON-RPC error (errc::protocol_error with jsonrpc_code) when it failed; errc::timeout
  /// after client_options::max_task_time.
  result<json> wait_task(std::string_view task_id, const call_options& options = {});

  /// list_resources, list_resource_templates and list_prompts return every item (all pages)
  /// as the server's JSON.
  result<std::vector<json>> list_resources(const list_options& options = {});
  result<std::vector<json>> list_resource_templates(const list_options& options = {});
  result<std::vector<json>> list_prompts(const list_options& options = {});
  /// read_resource returns the ReadResourceResult (`contents`).
  result<json> read_resource(std::string_view uri, const call_options& options = {});
  /// subscribe_resource / unsubscribe_resource ask for `notifications/resources/updated`.
  status subscribe_resource(std::string_view uri, const call_options& options = {});
  status unsubscribe_resource(std::string_view uri, const call_options& options = {});
  /// get_prompt returns the GetPromptResult; `arguments` maps names to strings.
  result<json> get_prompt(std::string_view name, const json& arguments = json::object(),
                          const call_options& options = {});
  /// complete asks for argument completions; `ref` is {"type":"ref/prompt","name":...} or
  /// {"type":"ref/resource","uri":...}; `context` holds already chosen arguments.
  result<completion_result> complete(const json& ref, std::string_view argument,
                                     std::string_view value, const json& context = nullptr,
                                     const call_options& options = {});
  /// set_logging_level asks for log messages at `level` and above (2026-07-28: sent as
  /// `_meta` on later requests instead).
  status set_logging_level(log_level level, const call_options& options = {});
  /// ping checks the server answers (2026-07-28: `server/discover`).
  status ping(const call_options& options = {});

  /// request sends any request and returns its result; for 2026-07-28 the per-request
  /// `_meta` is added and input-required results are resolved through the handlers.
  result<json> request(std::string_view method, json params, const call_options& options = {});
  /// notify sends a notification.
  status notify(std::string_view method, json params = json::object());

  /// server_info, capabilities, protocol_version, instructions: what negotiation learnt.
  implementation server_info() const;
  json capabilities() const;
  std::string protocol_version() const;
  std::string instructions() const;
  /// stateless tells whether the 2026-07-28 per-request protocol is in use.
  bool stateless() const;
  /// describe names the server, as the transport does (for messages).
  std::string describe() const;

  /// close ends the connection (HTTP: DELETE of the session; stdio: the child is stopped);
  /// requests in flight fail with errc::cancelled. Idempotent; also done by the destructor.
  void close();

  struct impl;
  /// client is constructed by connect().
  explicit client(std::shared_ptr<impl> state);

 private:
  std::shared_ptr<impl> impl_;
};

/// apply_schema_defaults returns `content` with every property of `requested_schema` that
/// has a `default` and is absent from `content` filled in (SEP-1034).
json apply_schema_defaults(const json& requested_schema, json content);

}  // namespace tooluse::mcp
