#pragma once
/// \file call_context.hpp
/// tooluse::call_context, what a running tool handler can see of its call: the stop token,
/// a progress reporter, and who is calling.

#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "tooluse/json.hpp"

namespace tooluse {

/// progress_update is one progress report from a running tool.
struct progress_update {
  double progress = 0;
  std::optional<double> total;
  std::string message;
};

/// call_peer is the other side of the protocol a call came in over, for what a tool may ask of
/// it while it runs (an MCP client: progress, logging, sampling, elicitation, roots, input
/// required, the request's `_meta`). The module that serves the protocol derives from it and
/// gives tools a typed view (tooluse::mcp::request_of); tools never depend on that module.
class call_peer {
 public:
  virtual ~call_peer() = default;
};

/// call_context is passed to every handler. `stop` is requested on timeout or cancellation;
/// long-running handlers should check it. Handlers must not keep the context after returning.
struct call_context {
  std::stop_token stop;
  std::function<void(const progress_update&)> on_progress;  ///< may be empty
  std::string call_id;
  std::string session;  ///< rate-limit key: session or agent id; empty means "default"
  /// idempotency_key is stable across retries of this call, also after a crash and a resume
  /// ("RUN_ID/CALL_ID" in a durable run); a tool with side effects can use it to do them once.
  /// Empty when the run is not durable. MCP calls carry it in `_meta`
  /// ("io.tooluse/idempotency-key").
  std::string idempotency_key;
  /// peer is the protocol side of the call (run_options::peer), null for a direct call. It
  /// lives at least as long as the call, also one that outlives its deadline.
  std::shared_ptr<call_peer> peer;
  /// validated_against is the input schema the arguments were checked against just before the
  /// call (the execution engine sets it; null when nothing checked them). A handler that checks
  /// them against the same schema itself (a typed tool) need not check them again.
  const json* validated_against = nullptr;

  /// report_progress forwards to on_progress when set.
  void report_progress(double progress, std::optional<double> total = std::nullopt,
                       std::string message = {}) const {
    if (on_progress) on_progress(progress_update{progress, total, std::move(message)});
  }
  /// stop_requested tells whether the call was cancelled or timed out.
  bool stop_requested() const noexcept { return stop.stop_requested(); }
};

}  // namespace tooluse
