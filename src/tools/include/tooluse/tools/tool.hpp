#pragma once
/// \file tool.hpp
/// tooluse::tool, a tool's definition: what a model is told about it (name, description,
/// schemas, MCP annotations) and the local policy the runtime enforces (timeout, limits, cost,
/// approval). Plain aggregate: build it with designated initializers.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/sandbox/policy.hpp"

namespace tooluse {

/// tool_annotations are MCP's behaviour hints (2025-06-18 and later). Unset means "not said";
/// MCP's defaults then apply (not read-only, destructive, not idempotent, open world).
struct tool_annotations {
  std::optional<bool> read_only;    ///< readOnlyHint: the tool does not modify its environment
  std::optional<bool> destructive;  ///< destructiveHint: it may delete or overwrite
  std::optional<bool> idempotent;   ///< idempotentHint: repeating a call has no further effect
  std::optional<bool> open_world;   ///< openWorldHint: it talks to the outside world

  bool operator==(const tool_annotations&) const = default;
};

/// rate_limit admits at most `calls` calls per `window`, per key (session or agent).
/// calls == 0 means unlimited.
struct rate_limit {
  int calls = 0;
  std::chrono::milliseconds window{std::chrono::seconds(1)};

  bool operator==(const rate_limit&) const = default;
};

/// tool is one tool's definition. `name` and `input_schema` are required; everything else has
/// a sensible default. Validated when registered (tool_registry::add), not when built.
struct tool {
  std::string name;         ///< ^[A-Za-z0-9_.-]{1,128}$, unique in a registry
  std::string title;        ///< human-readable name for UIs; optional
  std::string description;  ///< written for a model: what it does, when to use it, formats
  json input_schema = json::object({{"type", "object"}, {"properties", json::object()}});
  std::optional<json> output_schema;  ///< if set, results carry matching structured content
  tool_annotations annotations;

  // Local policy, enforced by the execution engine; never sent to a model.
  std::string category;                 ///< e.g. "math", "web", "files"
  std::string version;                  ///< the tool's own version, e.g. "1.2.0"
  std::vector<std::string> tags;        ///< free-form labels for filtering
  std::chrono::milliseconds timeout{0};  ///< 0: the engine's default
  rate_limit rate;                      ///< per session or agent
  int max_parallel = 0;                 ///< concurrent calls of this tool; 0: unlimited
  double cost_per_call = 0;             ///< in the caller's unit (e.g. USD), for budgets
  bool dangerous = false;               ///< needs approval before each call
  bool requires_auth = false;           ///< needs credentials the host must configure
  std::size_t max_output_bytes = 0;     ///< per result text; 0: the engine's default
  bool coerce_arguments = false;        ///< opt-in lenient coercion of model arguments
  /// synchronous: the handler is quick, never blocks and never waits on I/O (pure
  /// computation). With no timeout of its own, no rate limit, no parallel cap and no approval,
  /// the engine then runs it inline on the caller's thread (the default timeout does not apply).
  bool synchronous = false;
  json meta = json::object();           ///< extra metadata passed through (MCP `_meta`)

  // Isolation (docs/sandbox.md, "Tool metadata"). The reference design's names.
  /// sandboxed: each call runs in a sandbox under sandbox_policy and memory_limit_mb. For a C++
  /// handler that is a worker process (tooluse::start_tool_workers); a sandboxed tool whose
  /// handler runs in no worker is refused, never run in-process. Off for C++ tools by default:
  /// their handler then runs in the host process, and a crash there ends the host.
  bool sandboxed = false;
  /// memory_limit_mb: the memory a sandboxed call may use; wins over sandbox_policy's. Not
  /// enforced for a tool that runs in-process.
  std::size_t memory_limit_mb = 512;
  /// sandbox_policy: the rest of the policy (CPU seconds, processes, file size, open files,
  /// network, readable and writable paths).
  sandbox::policy sandbox_policy;
  /// sandboxed_by_handler: the handler applies the sandbox itself (the shell and python tools,
  /// a sandboxed MCP server's tools, a tool already bound to a worker), so it runs in-process.
  bool sandboxed_by_handler = false;
};

/// effective_sandbox_policy is t.sandbox_policy with t.memory_limit_mb.
sandbox::policy effective_sandbox_policy(const tool& t);

/// is_valid_tool_name tells whether `name` matches ^[A-Za-z0-9_.-]{1,128}$.
bool is_valid_tool_name(std::string_view name) noexcept;

/// tool_to_json serializes a definition, policy included, for `tooluse tools list --json`.
json tool_to_json(const tool& t);

}  // namespace tooluse
