#pragma once
// server::impl, shared by server.cpp (registration, notifications) and server_dispatch.cpp
// (methods).

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "mcp/session.hpp"
#include "mcp/task_runner.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/json_build.hpp"
#include "tooluse/mcp/wire.hpp"
#include "tooluse/schema/validator.hpp"

namespace tooluse::mcp {

/// tool_entry is the MCP view of a registry tool: its registration and whether its calls run
/// as tasks. Made once per registration (server::impl::adapted).
struct tool_entry {
  std::shared_ptr<const registered_tool> registered;
  task_support task = task_support::forbidden;  ///< whether calls run as tasks
  task_admission admit;  ///< runs before a task is created (may ask for input)
  bool added = false;    ///< added with add_tool: its handler takes its request's cancellation
  const tool& definition() const { return registered->definition; }
};

/// own_tool is what add_tool knows of a tool beyond its registry entry.
struct own_tool {
  task_support task = task_support::forbidden;
  task_admission admit;
};

/// context_access reaches request_context's private fields (dispatch, task_runner, the peer).
/// params_source gives the params of a request the server read in place instead of parsing it
/// whole (fast_call.cpp): built the first time a handler asks for them, thread-safe. It outlives
/// every context of the request.
class params_source {
 public:
  virtual const json& params() const = 0;
  /// meta is params._meta (an object, possibly empty).
  virtual const json& meta() const = 0;
  /// meta_member is params._meta[key], or null; without building the params when it can.
  virtual const json* meta_member(std::string_view key) const = 0;

 protected:
  ~params_source() = default;
};

struct context_access {
  static json& responses(request_context& c) { return c.input_responses_; }
  static std::optional<json>& state(request_context& c) { return c.request_state_; }
  static std::string& task_id(request_context& c) { return c.task_id_; }
  static std::string& principal(request_context& c) { return c.principal_; }
  static std::stop_token& stop(request_context& c) { return c.stop_; }
  static std::function<void(const json&)>& emit(request_context& c) { return c.emit_; }
  /// rebind points the context at `params` (which must outlive it).
  static void rebind(request_context& c, const json& params);
  /// defer gives the context params read in place (`source` must outlive it).
  static void defer(request_context& c, const params_source& source) { c.deferred_ = &source; }
  /// meta_member is params._meta[key], or null, without building deferred params.
  static const json* meta_member(const request_context& c, std::string_view key);
};

/// request_peer is an MCP request as the call_peer of a tool call (tools/call_context.hpp):
/// what a tool run by the executor reaches of its client (request_of, add_tool's handlers).
/// A call on the executor's fast path runs inside the request and borrows it; any other call
/// may outlive the request (past its deadline), so it gets a detached copy: the params its
/// own, its messages dropped once the request has ended (close).
class request_peer final : public call_peer {
 public:
  /// request_peer borrows `ctx`, which must outlive every use.
  explicit request_peer(const request_context& ctx) : origin_(&ctx) {}
  /// detach makes a peer that owns what it needs of `ctx`.
  static std::shared_ptr<request_peer> detach(const request_context& ctx);
  /// for_call returns the request's context with the call's stop token.
  request_context for_call(std::stop_token stop) const;
  /// request_stop is the request's own stop token (the client's cancellation, a closed
  /// session, a cancelled task).
  std::stop_token request_stop() const;
  /// close drops the messages a late handler sends after the request ended.
  void close();
  /// set_outcome keeps what an MCP handler returned that is not a tool result (input
  /// required, a protocol error); take_outcome hands it to the request.
  void set_outcome(tool_outcome out);
  std::optional<tool_outcome> take_outcome();

 private:
  struct gate;
  const request_context* origin_ = nullptr;
  json params_;                            ///< detached: the request's params
  std::optional<request_context> own_;     ///< detached: the context, over params_
  std::shared_ptr<gate> gate_;             ///< detached: the emit, until close
  std::mutex mu_;
  std::optional<tool_outcome> outcome_;
};

struct resource_entry {
  resource info;
  resource_handler handler;
};

struct template_entry {
  resource_template info;
  resource_handler handler;
};

struct prompt_entry {
  prompt info;
  prompt_handler handler;
};

struct listener {
  std::string subscription_id;
  wire::subscription_filter wanted;  ///< the requested notifications
  std::function<void(const json&)> emit;
};

struct server::impl {
  implementation info;
  std::unique_ptr<tool_registry> own_registry;  ///< when the server was given none
  tool_registry* registry = nullptr;            ///< every tool (never null)
  server_options options;
  std::shared_ptr<exec::executor> executor;  ///< runs every tool call
  tool_registry::listener_id registry_listener = 0;

  mutable std::shared_mutex mu;
  std::map<std::string, own_tool, std::less<>> own;  ///< the tools added with add_tool
  std::vector<std::shared_ptr<resource_entry>> resources;
  std::vector<std::shared_ptr<template_entry>> templates;
  std::vector<std::shared_ptr<prompt_entry>> prompts;
  completion_handler completion;

  std::mutex sessions_mu;
  std::vector<std::weak_ptr<session>> sessions;
  std::vector<std::weak_ptr<listener>> listeners;

  std::string state_key;  ///< HMAC key sealing requestState
  std::unique_ptr<task_runner> tasks;  ///< task-augmented calls and the tasks/* methods

  /// all_tools returns the registry's tools, in registration order.
  std::vector<std::shared_ptr<tool_entry>> all_tools() const;
  std::shared_ptr<tool_entry> find_tool(std::string_view name) const;
  /// run_tool runs a call of `t` through the executor for the request served by `ctx`
  /// (tools/call, or a task's worker).
  tool_outcome run_tool(const tool_entry& t, json args, request_context& ctx) const;
  /// adapted returns the MCP view of a registry entry, made once per registration.
  std::shared_ptr<tool_entry> adapted(const std::shared_ptr<const registered_tool>& e) const;
  mutable std::shared_mutex adapted_mu;
  /// by name: the registration adapted, and its tool entry
  mutable std::unordered_map<std::string, std::pair<std::shared_ptr<const registered_tool>,
                                                    std::shared_ptr<tool_entry>>>
      adapted_tools;
  std::vector<std::shared_ptr<session>> live_sessions();
};

/// seal_state and open_state protect requestState with HMAC-SHA256 (server_request_state.cpp).
std::string seal_state(const std::string& key, const json& state);
std::optional<json> open_state(const std::string& key, std::string_view sealed);
/// random_token returns `bytes` random bytes as lowercase hex.
std::string random_token(std::size_t bytes);

/// server_access reaches a server's impl (the HTTP server's fast path, fast_call.cpp).
struct server_access {
  static server::impl& impl(server& s) { return *s.impl_; }
};

/// pseudo_session is the session of one 2026-07-28 request, from its checked `_meta`
/// (server_context.cpp).
std::shared_ptr<session> pseudo_session(wire::request_meta meta);

/// method_runs_inline tells whether the method table marks `method` as never blocking
/// (server_dispatch.cpp); tools/call decides per tool (server::runs_inline).
bool method_runs_inline(std::string_view method);

/// dispatch answers one request (server_dispatch.cpp). Returns the response, or nullopt when the
/// request was cancelled and must not be answered.
std::optional<jsonrpc::response> dispatch(server& srv, server::impl& d,
                                          const std::shared_ptr<session>& s,
                                          const jsonrpc::request& r,
                                          const std::function<void(const json&)>& emit,
                                          std::stop_token stop, std::string_view principal = {});

/// result_message is the response {"jsonrpc": "2.0", "id": id, "result": result}: jsonrpc::to_json
/// of a success, without copying the result.
inline json result_message(const jsonrpc::message_id& id, json result) {
  json j = json_object(3);
  add_member(j, "jsonrpc", "2.0");
  add_member(j, "id", jsonrpc::id_to_json(id));
  add_member(j, "result", std::move(result));
  return j;
}

/// tools_call_answer: a response, or the result of the tool a tools/call ran, whose response is
/// that result as JSON with "resultType": "complete" (2026-07-28).
struct tools_call_answer {
  std::optional<jsonrpc::response> response;
  std::optional<tool_result> result;
};

/// dispatch_tools_call is dispatch for the requests fast_call.cpp takes (a 2026-07-28 tools/call,
/// telemetry off, params without inputResponses or requestState): the same answer, with the
/// tool's result as it is. The request's params come read (`p`, moved from) and, for a handler
/// that asks for them, from `params` (r.params is not read).
tools_call_answer dispatch_tools_call(server& srv, server::impl& d, const std::shared_ptr<session>& s,
                                      const jsonrpc::request& r, wire::call_tool_params& p,
                                      const params_source& params, const std::function<void(const json&)>& emit,
                                      std::stop_token stop, std::string_view principal);

}  // namespace tooluse::mcp
