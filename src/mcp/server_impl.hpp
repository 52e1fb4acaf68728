#pragma once
// server::impl, shared by server.cpp (registration, notifications) and dispatch.cpp (methods).

#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "mcp/session.hpp"
#include "mcp/task_runner.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/wire.hpp"
#include "tooluse/schema/validator.hpp"

namespace tooluse::mcp {

struct tool_entry {
  tool definition;
  mcp_tool_handler handler;
  std::shared_ptr<const schema::validator> validator;
  bool validated_by_executor = false;  ///< a registry tool: the executor checks its arguments
  task_support task = task_support::forbidden;  ///< whether calls run as tasks
  task_admission admit;  ///< runs before a task is created (may ask for input)
};

/// context_access reaches request_context's multi-round-trip fields (dispatch, task_runner).
struct context_access {
  static json& responses(request_context& c) { return c.input_responses_; }
  static std::optional<json>& state(request_context& c) { return c.request_state_; }
  static std::string& task_id(request_context& c) { return c.task_id_; }
  static std::string& principal(request_context& c) { return c.principal_; }
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
  tool_registry* registry = nullptr;
  server_options options;
  std::shared_ptr<exec::executor> executor;  ///< runs registry tools (null without a registry)
  tool_registry::listener_id registry_listener = 0;

  mutable std::shared_mutex mu;
  std::vector<std::shared_ptr<tool_entry>> tools;
  std::vector<std::shared_ptr<resource_entry>> resources;
  std::vector<std::shared_ptr<template_entry>> templates;
  std::vector<std::shared_ptr<prompt_entry>> prompts;
  completion_handler completion;

  std::mutex sessions_mu;
  std::vector<std::weak_ptr<session>> sessions;
  std::vector<std::weak_ptr<listener>> listeners;

  std::string state_key;  ///< HMAC key sealing requestState
  std::unique_ptr<task_runner> tasks;  ///< task-augmented calls and the tasks/* methods

  /// all_tools returns own tools and adapted registry tools, in a stable order.
  std::vector<std::shared_ptr<tool_entry>> all_tools() const;
  std::shared_ptr<tool_entry> find_tool(std::string_view name) const;
  /// adapted returns the MCP tool of a registry entry, made once per registration.
  std::shared_ptr<tool_entry> adapted(const std::shared_ptr<const registered_tool>& e) const;
  mutable std::shared_mutex adapted_mu;
  /// by name: the registration adapted, and its tool entry
  mutable std::unordered_map<std::string, std::pair<std::shared_ptr<const registered_tool>,
                                                    std::shared_ptr<tool_entry>>>
      adapted_tools;
  std::vector<std::shared_ptr<session>> live_sessions();
};

/// server_access is the session plumbing of mcp::server, for the code that serves connections
/// (serve, in pump.cpp, and the HTTP server) and for tests: applications never see a session.
struct server_access {
  using rejection = server::rejection;
  static std::shared_ptr<session> open_session(server& srv, std::function<void(const json&)> outbound = {}) {
    return srv.open_session(std::move(outbound));
  }
  static void close_session(server& srv, const std::shared_ptr<session>& s) { srv.close_session(s); }
  static bool handle_message(server& srv, const std::shared_ptr<session>& s, const jsonrpc::message& m,
                             const std::function<void(const json& message, bool last)>& emit,
                             std::string_view principal = {}) {
    return srv.handle_message(s, m, emit, principal);
  }
  static bool runs_inline(const server& srv, const jsonrpc::request& r) { return srv.runs_inline(r); }
  static std::optional<rejection> stateless_check(const server& srv, const jsonrpc::request& r) {
    return srv.stateless_check(r);
  }
  static bool is_stateless_request(const jsonrpc::request& r) { return server::is_stateless_request(r); }
  /// stop_cancelled_task: see task_runner::stop_cancelled.
  static void stop_cancelled_task(server& srv, const std::string& id);
  static std::shared_ptr<void> listen(server& srv, const jsonrpc::request& r, std::function<void(const json&)> emit) {
    return srv.listen(r, std::move(emit));
  }
};

/// seal_state and open_state protect requestState with HMAC-SHA256 (request_state.cpp).
std::string seal_state(const std::string& key, const json& state);
std::optional<json> open_state(const std::string& key, std::string_view sealed);
/// random_token returns `bytes` random bytes as lowercase hex.
std::string random_token(std::size_t bytes);

/// method_runs_inline tells whether the method table marks `method` as never blocking
/// (dispatch.cpp); tools/call decides per tool (server::runs_inline).
bool method_runs_inline(std::string_view method);

/// dispatch answers one request (dispatch.cpp). Returns the response, or nullopt when the
/// request was cancelled and must not be answered.
std::optional<jsonrpc::response> dispatch(server& srv, server::impl& d,
                                          const std::shared_ptr<session>& s,
                                          const jsonrpc::request& r,
                                          const std::function<void(const json&)>& emit,
                                          std::stop_token stop, std::string_view principal = {});

}  // namespace tooluse::mcp
