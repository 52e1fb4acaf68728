#pragma once
/// \file approval.hpp
/// Approval of dangerous tools (tool::dangerous): a policy hook decides approve, reject (with a
/// message the model sees), edit (run with new arguments) or defer. A deferred call becomes a
/// pending_approval that can be saved as JSON and resumed later with executor::resume, so a CLI
/// can ask a person and a server can ask its user asynchronously.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"
#include "tooluse/tools/tool.hpp"
#include "tooluse/tools/tool_call.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse::exec {

/// approval_kind is what the policy decided.
enum class approval_kind { approve, reject, edit, defer };

/// approval_decision is a policy's answer. Build it with the static helpers.
struct approval_decision {
  approval_kind kind = approval_kind::defer;
  std::string message;               ///< reject: shown to the model; defer: the reason
  json arguments = json::object();  ///< edit: the arguments to run with instead

  /// approve runs the call as asked.
  static approval_decision approve();
  /// reject refuses it; the model sees `message`.
  static approval_decision reject(std::string message);
  /// edit runs it with `arguments` (validated again against the tool's schema).
  static approval_decision edit(json arguments);
  /// defer leaves it pending; the result carries a pending_approval to resume later.
  static approval_decision defer(std::string reason = {});
};

/// approval_request is what the policy sees. References are valid during the call only.
struct approval_request {
  const tool& definition;
  const tool_call& call;
  std::string_view session;
};

/// approval_policy decides on a dangerous call. Called on the thread that calls run_all,
/// submit or call, in call order, as each call is admitted: an earlier call of the same batch
/// may already be running while the policy is asked about a later one. It may block (ask a
/// person); the calls admitted before it keep running meanwhile.
using approval_policy = std::function<approval_decision(const approval_request&)>;

/// pending_approval is a call waiting for a decision, serializable so it survives a restart.
struct pending_approval {
  std::string id;       ///< unique per pending call, "approval-<created_unix_ms>-<n>"
  tool_call call;       ///< the call as the model made it
  std::string session;  ///< the run's session (rate-limit key)
  std::string reason;   ///< why it waits (the policy's defer message, or "dangerous tool")
  std::int64_t created_unix_ms = 0;

  /// to_json returns {"id","call":{"id","name","arguments"},"session","reason","created_unix_ms"}.
  json to_json() const;
  /// from_json reads what to_json wrote.
  /// Errors: errc::invalid_argument naming the missing or mistyped field.
  static result<pending_approval> from_json(const json& j);
};

/// pending_from_result returns the pending approval a deferred call's result carries (meta
/// "pending_approval"), or std::nullopt for any other result.
std::optional<pending_approval> pending_from_result(const tool_result& r);

}  // namespace tooluse::exec
