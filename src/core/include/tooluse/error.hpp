#pragma once
/// \file error.hpp
/// tooluse::error, the value every operational failure is reported with (design/design.md, "Errors").

#include <string>
#include <string_view>

namespace tooluse {

/// errc classifies an operational error. Stable: tests and callers switch on it.
enum class errc {
  invalid_argument,   ///< the caller passed something unusable (bad JSON, bad option)
  parse_error,        ///< input text could not be parsed
  schema_error,       ///< a JSON Schema is itself invalid
  validation_failed,  ///< an instance does not satisfy its schema
  not_found,          ///< a named thing (tool, file, session) does not exist
  already_exists,     ///< a named thing exists and replacing it was not asked for
  timeout,            ///< a deadline passed
  cancelled,          ///< the operation was cancelled through its stop token
  io_error,           ///< the operating system refused (file, socket, process)
  network_error,      ///< a connection could not be made or broke
  http_error,         ///< the peer answered with an HTTP error status
  protocol_error,     ///< the peer broke the protocol (JSON-RPC, SSE, MCP, provider wire format)
  rate_limited,       ///< a rate limit refused the operation
  budget_exceeded,    ///< a budget (calls, cost, tokens) is spent
  permission_denied,  ///< a policy refused (approval, sandbox, path outside root, SSRF)
  unsupported,        ///< the feature or keyword is not supported
  internal,           ///< a bug in tooluse: please report it
  limit_exceeded,     ///< a peer or input went past a configured limit (size, depth, count,
                      ///< duration); the message names the limit and how to raise it
};

/// to_string returns the snake_case name of `code`, e.g. "not_found".
std::string_view to_string(errc code) noexcept;

/// error is an operational failure: a code, a message for a person (lowercase, names the thing,
/// says what to do), and, for JSON-RPC, the wire error code. Cheap to copy.
struct error {
  errc code = errc::internal;
  std::string message;
  int jsonrpc_code = 0;  ///< set when the error came from or goes to JSON-RPC; 0 otherwise

  /// what returns "<code>: <message>", for logs and CLI output.
  std::string what() const;
};

/// limit_error makes the error for a configured limit that `what` went past:
/// "<what> exceeds the limit <option> = <limit>; raise <option> if the peer is trusted
/// (docs/limits.md)". `option` is the option's name as a user sets it, e.g.
/// "json_limits::max_depth".
error limit_error(std::string_view what, std::string_view option, unsigned long long limit,
                  std::string_view unit = "");

}  // namespace tooluse
