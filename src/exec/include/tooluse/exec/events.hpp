#pragma once
/// \file events.hpp
/// Observability of the execution engine: an event for the start, each progress report and the
/// end of every call, and trace_writer, which writes one JSON line per finished call with
/// secrets in the arguments redacted.

#include <chrono>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"
#include "tooluse/tools/call_context.hpp"
#include "tooluse/tools/tool_call.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse::exec {

/// call_outcome classifies how a call ended.
enum class call_outcome {
  ok,                ///< the tool ran and succeeded (or a cached success was returned)
  error,             ///< the tool ran and returned an error result or threw
  timeout,           ///< the deadline passed before the tool returned
  cancelled,         ///< the run's stop token was requested
  invalid,           ///< unknown tool, unparsed or schema-invalid arguments: not run
  rejected,          ///< the approval policy rejected the call
  pending_approval,  ///< the approval policy deferred the call
  rate_limited,      ///< the tool's rate limit refused the call
  budget_exceeded,   ///< the run's budget refused the call
  circuit_open,      ///< the tool's circuit breaker refused the call
};

/// to_string returns the snake_case name of `o`, e.g. "rate_limited".
std::string_view to_string(call_outcome o) noexcept;

/// event_kind says which moment of a call an event reports.
enum class event_kind { start, progress, end };

/// call_event is passed to run_options::on_event and executor_options::on_event. Pointers are
/// valid during the callback only. Every call gets exactly one end event; calls that run get a
/// start event first. No event of a call is delivered after its end event.
struct call_event {
  event_kind kind = event_kind::start;
  std::size_t index = 0;       ///< position of the call in its batch
  const tool_call* call = nullptr;
  std::string_view session;
  const progress_update* progress = nullptr;  ///< progress events
  const tool_result* result = nullptr;        ///< end events
  call_outcome outcome = call_outcome::ok;    ///< end events
  std::chrono::microseconds duration{0};      ///< end events
  int attempts = 0;                           ///< end events: handler invocations
  bool cached = false;                        ///< end events: served from the result cache
};

/// event_callback receives events. It is called from worker threads, concurrently for
/// different calls, so it must be thread-safe; events of one call never overlap.
using event_callback = std::function<void(const call_event&)>;

/// redact_secrets returns `value` with the value of every object key that names a secret
/// (api_key, apikey, token, access_token, password, passwd, secret, client_secret,
/// authorization, cookie, ... matched case-insensitively on the key or its last _/- part)
/// replaced by "[redacted]", recursively.
json redact_secrets(const json& value);

/// trace_writer writes a JSON Lines trace: one object per end event with "ts" (Unix ms), "tool",
/// "call_id", "session", "arguments" (redacted), "ms", "outcome", "is_error", "attempts",
/// "cached". Thread-safe.
/// Example:
///   auto trace = tooluse::exec::trace_writer::open("calls.jsonl");
///   executor ex(registry, {.on_event = [&](const call_event& e) { (*trace)->write(e); }});
class trace_writer {
 public:
  /// trace_writer writes to `out`, which must outlive it.
  explicit trace_writer(std::ostream& out);
  ~trace_writer();
  trace_writer(const trace_writer&) = delete;
  trace_writer& operator=(const trace_writer&) = delete;

  /// open appends to the file at `path`.
  /// Errors: errc::io_error if the file cannot be opened.
  static result<std::unique_ptr<trace_writer>> open(const std::string& path);

  /// write appends a line for an end event; other events are ignored.
  void write(const call_event& event);
  /// line returns the JSON object write() would write for `event`.
  static json line(const call_event& event);

 private:
  std::unique_ptr<std::ostream> owned_;
  std::ostream* out_;
  std::mutex mutex_;
};

}  // namespace tooluse::exec
