#pragma once
/// \file sse.hpp
/// tooluse::http::sse_parser, an incremental Server-Sent Events parser following the WHATWG
/// HTML "event stream interpretation" rules exactly: a leading UTF-8 BOM is skipped; lines end
/// with CRLF, LF or CR (also when the CR and LF arrive in different chunks); lines starting
/// with ':' are comments; "field: value" loses one leading space; a field without a colon has
/// an empty value; "data" lines join with '\n'; an empty line dispatches the event unless the
/// data buffer is empty; "id" containing NUL is ignored; "retry" must be ASCII digits; an
/// unterminated event at end of stream is discarded.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "tooluse/result.hpp"

namespace tooluse::http {

/// sse_limits bound what one stream may make the parser hold.
struct sse_limits {
  /// max_event_bytes bounds one event: its data so far plus the line being read. A peer that
  /// never ends a line or an event is refused when it passes this, as the bytes arrive.
  std::size_t max_event_bytes = 16u << 20;
};

/// sse_event is one dispatched event.
struct sse_event {
  std::string event = "message";  ///< the "event" field, or "message" when absent
  std::string data;               ///< "data" lines joined with '\n' (no trailing newline)
  std::string id;                 ///< the last event id in effect when dispatched
  std::optional<std::uint64_t> retry;  ///< a "retry" field seen in this event's block, in ms

  bool operator==(const sse_event&) const = default;
};

/// sse_parser turns bytes into events. Feed chunks in order as they arrive, of any size.
/// Not thread-safe; one parser per stream.
/// Example:
///   sse_parser p;
///   p.feed("data: hi\n\n", [](const sse_event& e) { std::cout << e.data; });
class sse_parser {
 public:
  using event_handler = std::function<void(const sse_event&)>;

  sse_parser() = default;
  explicit sse_parser(sse_limits limits) : limits_(limits) {}

  /// feed parses `bytes` and calls `on_event` for every complete event, in order.
  /// Errors: errc::limit_exceeded naming sse_limits::max_event_bytes when an event grows past
  /// it; the parser then stays failed (every later feed returns the error) until reset().
  status feed(std::string_view bytes, const event_handler& on_event);

  /// finish ends the stream: an unterminated line and an undispatched event are discarded, as
  /// the spec requires; the last event id and retry survive for a reconnect.
  void finish();

  /// last_event_id returns the id buffer (what a reconnect sends as Last-Event-ID).
  const std::string& last_event_id() const { return last_id_; }

  /// retry returns the last valid "retry" value seen, in ms.
  std::optional<std::uint64_t> retry() const { return retry_; }

  /// reset forgets everything, as for a new stream (last_event_id included).
  void reset();

  /// reset_failure clears a limit failure and the partial event, keeping last_event_id and
  /// retry, so the stream can be resumed after the last complete event.
  void reset_failure() {
    finish();
    failure_.reset();
  }

 private:
  void process_line(std::string_view line, const event_handler& on_event);
  void process_field(std::string_view name, std::string_view value);

  status feed_lines(std::string_view bytes, const event_handler& on_event);
  status check_size();

  sse_limits limits_;
  std::optional<error> failure_;
  std::string head_;  ///< first bytes, held until the BOM check is decided
  std::string line_;
  std::string data_;  ///< the spec's data buffer: each data line plus '\n'
  std::string event_type_;
  std::string last_id_;
  std::optional<std::uint64_t> retry_;
  std::optional<std::uint64_t> block_retry_;
  bool bom_checked_ = false;
  bool after_cr_ = false;
};

}  // namespace tooluse::http
