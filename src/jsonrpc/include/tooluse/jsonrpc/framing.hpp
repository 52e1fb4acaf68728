#pragma once
/// \file framing.hpp
/// Newline-delimited JSON-RPC framing that holds at most a bounded line: a peer writing one
/// endless line costs max_line_bytes of memory, not the size of the line. Used by the MCP
/// stdio server and the MCP client's stdio child transport.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "tooluse/json.hpp"

namespace tooluse::jsonrpc {

/// line_framer splits a byte stream into lines (LF or CRLF), keeping at most max_line_bytes of
/// a line. A longer line is reported once to on_overflow with its first bytes (up to 4 KiB, to
/// find the message id) and then skipped up to its newline without being stored.
/// Example:
///   line_framer f(1 << 20);
///   f.feed(chunk, [](std::string_view line) { ... }, [](std::string_view head) { ... });
class line_framer {
 public:
  using line_handler = std::function<void(std::string_view line)>;
  using overflow_handler = std::function<void(std::string_view head)>;

  explicit line_framer(std::size_t max_line_bytes) : max_(max_line_bytes) {}

  /// feed consumes `bytes`, calling on_line for every complete line (without its newline or
  /// a trailing CR) and on_overflow for every line longer than the limit.
  void feed(std::string_view bytes, const line_handler& on_line, const overflow_handler& on_overflow);

  /// finish delivers an unterminated last line (end of stream), if any.
  void finish(const line_handler& on_line, const overflow_handler& on_overflow);

  std::size_t max_line_bytes() const { return max_; }
  /// buffered is how many bytes of an incomplete line are held (at most max_line_bytes).
  std::size_t buffered() const { return buf_.size(); }

 private:
  std::size_t max_;
  std::string buf_;
  bool skipping_ = false;
};

/// peek_id reads the "id" member of a JSON-RPC message from the first bytes of its text (a
/// message too large to parse), so its sender can be told which request failed. Returns the id
/// (a number or string) when it appears at the top level of the prefix, else nothing.
std::optional<json> peek_id(std::string_view head);

/// peek_member is peek_id for any top-level member whose value is a number or a string
/// ("method" tells a request from a response).
std::optional<json> peek_member(std::string_view head, std::string_view key);

}  // namespace tooluse::jsonrpc
