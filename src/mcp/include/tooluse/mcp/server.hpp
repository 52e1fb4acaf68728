#pragma once
/// \file server.hpp
/// tooluse::mcp::server, an MCP server: tools (from a tool_registry or registered here),
/// resources and templates, prompts, completion and logging, for both protocol eras: the
/// session revisions (initialize handshake, 2025-03-26 .. 2025-11-25) and the stateless
/// 2026-07-28 revision (per-request `_meta`, server/discover, multi-round-trip input).
/// Transports (stdio, Streamable HTTP, in memory) live in transport.hpp and http_server.hpp;
/// each hands its connections to server::connect (server_session.hpp).
///
/// Example:
///   tooluse::tool_registry tools;
///   tools.add({.name = "greet"}, [](const json&, call_context&) { return tool_result::text("hi");
///   }); tooluse::mcp::server server({.name = "demo", .version = "1.0.0"}, &tools); return
///   tooluse::mcp::serve_stdio(server) ? 0 : 1;

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tooluse/exec/executor.hpp"
#include "tooluse/json.hpp"
#include "tooluse/jsonrpc/message.hpp"
#include "tooluse/mcp/protocol.hpp"
#include "tooluse/mcp/server_session.hpp"
#include "tooluse/mcp/tasks.hpp"
#include "tooluse/result.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse::mcp {

class connection;
class session;
class server;
class server_session;
struct server_access;
class params_source;
namespace wire {
struct request_meta;
}  // namespace wire

/// request_context is what a handler sees of the request it serves. Valid only during the
/// handler call. Thread-safe for progress and log.
class request_context {
 public:
  request_context(std::shared_ptr<session> s, const jsonrpc::request& req,
                  std::function<void(const json&)> emit, std::stop_token stop);

  /// params returns the request params (an object, possibly empty).
  const json& params() const { return deferred_ ? deferred_params() : *params_; }
  /// meta returns params._meta (an object, possibly empty).
  const json& meta() const { return deferred_ ? deferred_meta() : *meta_; }
  /// protocol_version returns the revision the request is served under.
  const std::string& protocol_version() const;
  /// stateless tells whether the request uses the 2026-07-28 per-request model.
  bool stateless() const;
  /// client_capabilities returns the client's declared capabilities (an object).
  const json& client_capabilities() const;
  /// has_client_capability tells whether the client declared capability `name`.
  bool has_client_capability(std::string_view name) const;
  /// stop is requested when the client cancels the request or goes away.
  std::stop_token stop() const { return stop_; }

  /// progress sends notifications/progress when the request carried a progress token.
  void progress(double progress, std::optional<double> total = std::nullopt,
                std::string message = {});
  /// log sends notifications/message if `level` passes the client's threshold (set with
  /// logging/setLevel, or `_meta` logLevel in 2026-07-28; stateless requests without a
  /// logLevel get no log messages).
  void log(log_level level, json data, std::string logger = {});

  /// request_client sends a server-to-client request (sampling/createMessage,
  /// elicitation/create, roots/list) on this request's stream and waits for the answer.
  /// Errors: errc::unsupported in stateless mode (return input_required instead);
  /// errc::timeout; errc::cancelled; errc::protocol_error if the client answered with an error.
  result<json> request_client(std::string method, json params,
                              std::chrono::milliseconds timeout = std::chrono::seconds(60));

  /// input_responses returns the 2026-07-28 `inputResponses` object (empty if none).
  const json& input_responses() const { return input_responses_.is_null() ? no_input_responses() : input_responses_; }
  /// input_response returns inputResponses[key], or nullptr.
  const json* input_response(std::string_view key) const;
  /// request_state returns the state this server sealed into the previous round, verified.
  const std::optional<json>& request_state() const { return request_state_; }

  /// task_id is the id of the task this call runs in (empty when not a task).
  const std::string& task_id() const { return task_id_; }

  /// principal is the request's authorization context as the HTTP server's auth hook named it
  /// (http_auth_decision::principal; e.g. "sub:" and the OAuth token's subject), or empty.
  /// Tasks are bound to it.
  const std::string& principal() const { return principal_; }

  /// session_ptr is the session (or per-request pseudo-session) the request belongs to.
  const std::shared_ptr<session>& session_ptr() const { return session_; }

 private:
  friend class server;
  friend struct context_access;
  // The params of a request the server read in place (its fast path) are built the first time
  // a handler asks for them: deferred_ builds them (server_impl.hpp, params_source).
  static const json& no_input_responses();
  const json& deferred_params() const;
  const json& deferred_meta() const;

  std::shared_ptr<session> session_;
  const json* params_;  ///< the request's (it outlives the context)
  const json* meta_;
  const params_source* deferred_ = nullptr;
  json id_;
  std::function<void(const json&)> emit_;
  std::stop_token stop_;
  json input_responses_;  ///< null until a request brings some (input_responses: an empty object)
  std::optional<json> request_state_;
  std::string task_id_;
  std::string principal_;
};

/// request_of returns the MCP request a registry tool is being called for (progress, logging,
/// client requests, input responses, `_meta`), its stop token the call's (timeout or
/// cancellation), or nullopt when the call did not come through an MCP server
/// (call_context::peer). Valid only during the call.
std::optional<request_context> request_of(const call_context& ctx);

/// tool_outcome is what an MCP-level tool handler returns: a result (tool failures included,
/// with is_error), a request for input (2026-07-28), or a protocol error such as
/// missing_capability() (sent as a JSON-RPC error, not a tool result).
using tool_outcome = std::variant<tool_result, input_required, jsonrpc::error_object>;

/// missing_capability makes the 2026-07-28 MissingRequiredClientCapability error (-32021),
/// e.g. missing_capability({{"sampling", json::object()}}); served with HTTP 400.
jsonrpc::error_object missing_capability(json required_capabilities);
/// mcp_tool_handler runs a tool with access to the MCP request (progress, logging, client
/// requests, multi-round-trip input). server::add_tool registers it as a registry tool, so it
/// runs through the execution engine like every other tool.
using mcp_tool_handler = std::function<tool_outcome(const json& arguments, request_context& ctx)>;

/// task_admission runs synchronously before a task-supporting tool's call becomes a task: it
/// may gather input first (return input_required; 2026-07-28 multi-round-trip), and the task
/// then starts with the responses gathered so far (request_context::input_responses()).
using task_admission = std::function<std::optional<input_required>(const json& arguments,
                                                                   request_context& ctx)>;

/// resource_handler reads a resource; `variables` holds template variables (empty object for
/// direct resources). Errors become JSON-RPC errors (not found: -32602 with data.uri).
using resource_handler = std::function<result<std::vector<resource_contents>>(
    const std::string& uri, const json& variables, request_context& ctx)>;

/// prompt_outcome is a prompt result or a request for input (2026-07-28).
using prompt_outcome = std::variant<prompt_result, input_required>;
/// prompt_handler renders a prompt from its arguments (strings).
using prompt_handler =
    std::function<result<prompt_outcome>(const json& arguments, request_context& ctx)>;

/// completion_handler suggests values for argument `argument` of `ref`
/// ({"type":"ref/prompt","name":...} or {"type":"ref/resource","uri":...}).
using completion_handler = std::function<completion_result(
    const json& ref, const std::string& argument, const std::string& value, request_context& ctx)>;

/// cache_hint is a 2026-07-28 caching hint for a cacheable result.
struct cache_hint {
  long long ttl_ms = 0;
  std::string scope = "private";  ///< "public" or "private"
};

/// server_options configure a server.
struct server_options {
  std::string instructions;     ///< sent in initialize / server/discover results
  std::size_t page_size = 100;  ///< items per page of list results
  bool stateless = true;        ///< serve 2026-07-28 per-request traffic
  bool sessions = true;         ///< serve the initialize handshake revisions
  cache_hint list_cache{.ttl_ms = 0, .scope = "public"};   ///< tools/prompts/resources lists
  cache_hint read_cache{.ttl_ms = 0, .scope = "private"};  ///< resources/read and discover
  /// tool_timeout is the deadline of tools that set none when the server makes its own
  /// executor (0: exec_options.default_timeout, 60 s).
  std::chrono::milliseconds tool_timeout{0};
  bool validate_arguments = true;  ///< validate add_tool arguments against the input schema
  /// executor runs every tool (per-tool timeouts, rate limits, concurrency limits, approval
  /// of dangerous tools, progress, cancellation); it must have been made over the registry
  /// given to the server, and is used only when one was. Null: the server makes one from
  /// exec_options.
  std::shared_ptr<exec::executor> executor;
  /// exec_options configure the executor the server makes when `executor` is null. Without an
  /// approval policy, calls of dangerous tools are refused with a tool error result.
  exec::executor_options exec_options;
  /// call_options apply to every registry tool call (budget, rate_limit_wait, ...); the server
  /// sets stop (client cancellation), session (the MCP session id) and on_event (progress).
  exec::run_options call_options;
  /// tasks configure long-running calls: the store, TTLs, the suggested poll interval, the
  /// bound on live tasks per client.
  task_options tasks;
  /// task_tools declares registry tools long-running, by name: their calls run as tasks
  /// (optional: for clients that support tasks; required: only as tasks). A registry tool
  /// tagged long_running_tag ("long-running") that is not listed here is optional.
  std::map<std::string, task_support, std::less<>> task_tools;
};

/// server is an MCP server. Register features before serving; add/remove while serving is
/// safe (list-changed notifications follow). Thread-safety: all members may be called
/// concurrently; handlers run on transport threads, concurrently.
class server {
 public:
  /// server creates a server for `info` serving the tools of `tools`, which must outlive it
  /// (changes to the registry send tools/list_changed), or of a registry of its own when
  /// `tools` is null. Every tools/call goes through the execution engine.
  explicit server(implementation info, tool_registry* tools = nullptr, server_options options = {});
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  /// add_tool registers an MCP-level tool (progress, logging, client requests, input_required)
  /// in the server's registry (the one given to the constructor, whose tool of the same name
  /// it replaces, or its own): the executor runs it with the definition's timeout, rate and
  /// parallel limits and approval, like any registry tool. Called other than through this
  /// server (e.g. by an agent over the same registry), it is an error result.
  /// Throws std::invalid_argument for an invalid or duplicate name or a non-object schema.
  void add_tool(tool definition, mcp_tool_handler handler);
  /// add_tool for a long-running tool: with `support` optional or required its calls run as
  /// tasks (see tasks.hpp); `admit`, if set, runs before a task is created and may ask for
  /// input first (2026-07-28).
  void add_tool(tool definition, mcp_tool_handler handler, task_support support,
                task_admission admit = nullptr);
  /// remove_tool unregisters a tool added with add_tool (from the registry); false if unknown.
  bool remove_tool(std::string_view name);
  /// add_resource registers a directly listed resource.
  void add_resource(resource r, resource_handler handler);
  /// add_resource_template registers a template; reads whose URI matches it go to `handler`.
  void add_resource_template(resource_template t, resource_handler handler);
  /// add_prompt registers a prompt.
  void add_prompt(prompt p, prompt_handler handler);
  /// remove_prompt unregisters a prompt; false if unknown.
  bool remove_prompt(std::string_view name);
  /// set_completion installs the completion handler (declares the `completions` capability).
  void set_completion(completion_handler handler);

  /// notify_resource_updated tells subscribed sessions that `uri` changed.
  void notify_resource_updated(const std::string& uri);
  /// notify_list_changed sends notifications/<kind>/list_changed ("tools", "prompts",
  /// "resources") to every session and stateless listener that asked for it.
  void notify_list_changed(std::string_view kind);
  /// log sends a log message to every session whose level lets it through.
  void log(log_level level, json data, std::string logger = {});

  /// capabilities returns the server capabilities object advertised to clients.
  json capabilities() const;
  /// info returns the server's implementation info.
  const implementation& info() const;
  /// options returns the options.
  const server_options& options() const;

  // --- serving connections (transports: serve, http_server, one's own) --------------------

  /// connect opens a session over `conn` (server_session.hpp): the transport hands it the
  /// peer's messages (server_session::handle); what the server sends goes out through
  /// conn.write, a request's messages with its id in the envelope, the rest (list changes,
  /// logs and resource updates not tied to a request, a task's messages) without. `conn` is
  /// not started here (its owner reads it) and must outlive the session.
  /// Example: `serve(srv, conn)` is connect, then conn.start with on_message calling handle.
  std::unique_ptr<server_session> connect(connection& conn);
  /// connect_stateless opens the root of one-message connections (the Streamable HTTP
  /// server's 2026-07-28 POSTs): requests of many clients, whose ids may collide, so they are
  /// not tracked by id; each is handled with server_session::handle(m, reply) and answered on
  /// its own connection; messages not tied to a request are dropped. Closing it stops them all.
  std::unique_ptr<server_session> connect_stateless();

  /// runs_inline tells whether handling request `r` never blocks, so a transport may run it on
  /// its reading (I/O) thread: ping, initialize, discover, the lists, logging/setLevel,
  /// subscribe/unsubscribe, and tools/call of a tool that the executor runs on its fast path
  /// (exec::executor::runs_inline) and that does not run as a task. Everything else may block
  /// (tool handlers, prompts, reads, requests to the client) and belongs on a thread that may.
  bool runs_inline(const jsonrpc::request& r) const;

  /// rejection is a request refused before it is handled: the error response and the HTTP
  /// status to send it with.
  struct rejection {
    jsonrpc::response response;
    int http_status = 400;
  };
  /// stateless_check validates a 2026-07-28 request before it is handled (the `_meta`
  /// fields, the protocol version); on failure it returns the error response and the HTTP
  /// status to use. When it passes and `meta` is given, *meta receives the decoded `_meta`.
  std::optional<rejection> stateless_check(const jsonrpc::request& r,
                                           wire::request_meta* meta = nullptr) const;

  /// is_stateless_request tells whether a request uses the 2026-07-28 model (its _meta
  /// carries a protocol version).
  static bool is_stateless_request(const jsonrpc::request& r);

  /// listen registers a subscriptions/listen stream (2026-07-28): `emit` receives the
  /// acknowledgement now and matching notifications later, until the returned handle dies.
  std::shared_ptr<void> listen(const jsonrpc::request& r, std::function<void(const json&)> emit);

  /// stop_cancelled_task stops task `id` if it runs here and its record says cancelled
  /// (cancelled through another replica sharing the task store). Unknown ids are ignored.
  void stop_cancelled_task(const std::string& id);

  struct impl;

 private:
  friend class request_context;
  /// server_session (server_session.hpp) is the public face of the session plumbing below.
  friend class server_session;
  /// server_access (src/mcp/server_impl.hpp) reaches impl_ for the module's transports.
  friend struct server_access;

  /// open_session creates a session's state. `outbound` receives messages not tied to a
  /// request (list changes, log messages, resource updates, server requests outside a
  /// request); empty: they are dropped.
  std::shared_ptr<session> open_session(std::function<void(const json&)> outbound = {});
  /// close_session ends a session: pending client requests fail, running calls are stopped.
  void close_session(const std::shared_ptr<session>& s);

  /// handle_message processes one message of `s`. Requests are answered through `emit`
  /// (related notifications and server requests first, the response last; `emit` is told
  /// the last message with last = true). Blocks while a handler runs. Returns false if the
  /// message was a request that gets no response (it was cancelled).
  /// `principal` is the request's authorization context (request_context::principal).
  /// `checked`, when not null, is the `_meta` of a 2026-07-28 request that stateless_check
  /// has passed already (the HTTP server checks it first, to answer a refusal with 400): it is
  /// not decoded again.
  bool handle_message(const std::shared_ptr<session>& s, const jsonrpc::message& m,
                      const std::function<void(const json& message, bool last)>& emit,
                      std::string_view principal = {}, wire::request_meta* checked = nullptr);

  std::unique_ptr<impl> impl_;
};

}  // namespace tooluse::mcp
