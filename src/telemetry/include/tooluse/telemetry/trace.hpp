#pragma once
/// \file trace.hpp
/// OpenTelemetry tracing for tooluse without opentelemetry-cpp: spans following the GenAI and
/// MCP semantic conventions, W3C trace context (`traceparent`), and an OTLP/HTTP exporter
/// (JSON encoding) that batches spans on a background thread and never blocks a call.
///
/// Nothing is recorded until an exporter is installed (install_exporter, or install_from_env
/// when OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set); until then
/// start_span returns a span that does nothing, so instrumented code costs next to nothing.
///
/// The library instruments: agent runs (`invoke_agent {name}`), model requests (`chat {model}`
/// with gen_ai.usage.*), tool executions (`execute_tool {name}` with gen_ai.tool.call.id), MCP
/// client requests (`{method} {target}`, kind CLIENT, `traceparent` sent in params._meta) and
/// MCP server requests (kind SERVER, parented by the request's `_meta.traceparent`).
/// Tool arguments and results are recorded only when capture_content() is on
/// (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true).
///
/// Example:
///   auto tracing = tooluse::telemetry::install_from_env("my-agent");  // flushes when destroyed
///   { auto s = tooluse::telemetry::start_span("work"); s.set("k", "v"); }

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tooluse/json.hpp"

namespace tooluse::telemetry {

/// span_context identifies a span: 32 and 16 lowercase hex digits.
struct span_context {
  std::string trace_id;
  std::string span_id;
  bool sampled = true;
  bool valid() const noexcept { return trace_id.size() == 32 && span_id.size() == 16; }
};

/// format_traceparent renders "00-TRACEID-SPANID-01".
std::string format_traceparent(const span_context& c);
/// parse_traceparent reads a W3C traceparent; nothing when malformed or all-zero.
std::optional<span_context> parse_traceparent(std::string_view text);

enum class span_kind { internal = 1, server = 2, client = 3, producer = 4, consumer = 5 };

using attribute_value = std::variant<std::string, std::int64_t, double, bool>;

/// span_data is a finished span as exported.
struct span_data {
  span_context context;
  std::string parent_span_id;  ///< "" for a root span
  std::string name;
  span_kind kind = span_kind::internal;
  std::uint64_t start_ns = 0;  ///< Unix time in nanoseconds
  std::uint64_t end_ns = 0;
  std::vector<std::pair<std::string, attribute_value>> attributes;
  bool error = false;
  std::string status_message;
};

/// span records one operation from construction to end() (or destruction). While it lives it
/// is the current span of the thread that started it (children started there use it as parent).
/// Spans must end on their thread in reverse order of starting (RAII does this). Move-only.
class span {
 public:
  span() = default;  ///< a span that records nothing
  ~span();
  span(span&& other) noexcept;
  span& operator=(span&& other) noexcept;
  span(const span&) = delete;
  span& operator=(const span&) = delete;

  /// recording: the span will be exported (an exporter is installed and the trace is sampled).
  bool recording() const noexcept { return data_ != nullptr && data_->context.sampled; }
  /// context is the span's identity (invalid without an exporter). A span under a parent that
  /// is not sampled has a valid, unsampled context (propagated as "-00") and is not exported.
  span_context context() const;
  /// set_attribute adds or replaces an attribute; set() overloads pick its type.
  void set_attribute(const std::string& key, attribute_value value);
  void set(const std::string& key, std::string value) { set_attribute(key, std::move(value)); }
  void set(const std::string& key, const char* value) { set_attribute(key, std::string(value)); }
  void set(const std::string& key, std::int64_t value) { set_attribute(key, value); }
  void set(const std::string& key, int value) {
    set_attribute(key, static_cast<std::int64_t>(value));
  }
  void set(const std::string& key, double value) { set_attribute(key, value); }
  void set(const std::string& key, bool value) { set_attribute(key, value); }
  /// set_error marks the span failed with `message` (status ERROR, error.type).
  void set_error(const std::string& message, const std::string& type = "tool_error");
  void set_name(std::string name);
  /// end finishes the span and hands it to the exporter; later calls do nothing.
  void end();

 private:
  friend span start_span(std::string, span_kind, std::optional<span_context>);
  std::unique_ptr<span_data> data_;
  span_context previous_;  ///< the thread's current context before this span
  bool restore_ = false;
};

/// start_span starts a span under `parent`, or under the thread's current span when no parent
/// is given (a new trace when there is none). Without an exporter: a span recording nothing.
/// Sampling follows the parent (W3C trace-flags): a new trace is sampled; a child of an
/// unsampled parent is neither recorded nor exported, and its context carries the flag on.
span start_span(std::string name, span_kind kind = span_kind::internal,
                std::optional<span_context> parent = std::nullopt);

/// current returns the thread's current span context (invalid if none).
span_context current();

/// context_scope makes `c` the thread's current context until destroyed: carries a parent
/// onto another thread (a worker running a call submitted elsewhere).
class context_scope {
 public:
  explicit context_scope(span_context c);
  ~context_scope();
  context_scope(const context_scope&) = delete;
  context_scope& operator=(const context_scope&) = delete;

 private:
  span_context previous_;
};

/// enabled tells whether an exporter is installed.
bool enabled() noexcept;

/// capture_content tells whether tool arguments and results may be recorded
/// (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, or set_capture_content).
bool capture_content() noexcept;
void set_capture_content(bool on) noexcept;

/// otlp_options configure the OTLP/HTTP JSON exporter.
struct otlp_options {
  std::string endpoint;  ///< full URL of the traces endpoint, e.g. http://127.0.0.1:4318/v1/traces
  std::string service_name = "tooluse";
  std::map<std::string, std::string> headers;  ///< e.g. from OTEL_EXPORTER_OTLP_HEADERS
  std::size_t max_queue = 4096;  ///< spans beyond this are dropped (counted), never waited for
  std::size_t max_batch = 512;
  std::chrono::milliseconds interval{1000};  ///< export at least this often while spans wait
  std::chrono::milliseconds timeout{std::chrono::seconds(5)};  ///< per export request
};

/// exporter_handle keeps an installed exporter; destroying it flushes what is queued (bounded
/// by the export timeout) and uninstalls it.
class exporter_handle {
 public:
  exporter_handle() = default;
  ~exporter_handle();
  exporter_handle(exporter_handle&&) noexcept = default;
  exporter_handle& operator=(exporter_handle&&) noexcept = default;
  /// flush exports everything queued so far and waits for it (at most the export timeout).
  void flush();
  /// dropped counts spans lost to a full queue or a failed export.
  std::size_t dropped() const;
  explicit operator bool() const noexcept { return impl_ != nullptr; }

  struct impl;
  explicit exporter_handle(std::shared_ptr<impl> i) : impl_(std::move(i)) {}

 private:
  std::shared_ptr<impl> impl_;
};

/// install_exporter starts the background exporter and makes it the process's span sink.
exporter_handle install_exporter(otlp_options options);

/// install_from_env installs an exporter when OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as is)
/// or OTEL_EXPORTER_OTLP_ENDPOINT (+ "/v1/traces") is set and OTEL_SDK_DISABLED is not "true";
/// OTEL_SERVICE_NAME overrides `service_name`, OTEL_EXPORTER_OTLP_HEADERS adds headers.
/// Returns an empty handle otherwise.
exporter_handle install_from_env(const std::string& service_name);

/// spans_to_otlp_json renders spans as an OTLP ExportTraceServiceRequest (JSON encoding).
json spans_to_otlp_json(const std::vector<span_data>& spans, const std::string& service_name);

}  // namespace tooluse::telemetry
