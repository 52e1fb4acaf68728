#pragma once
/// \file message.hpp
/// tooluse::jsonrpc: JSON-RPC 2.0 messages (request, notification, response), parsing with the
/// exact error codes of the specification, and serialization. Batches are parsed only when the
/// caller allows them (MCP 2025-03-26 allowed batches; 2025-06-18 and later do not).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tooluse/json.hpp"

namespace tooluse::jsonrpc {

/// error_code lists the JSON-RPC 2.0 and MCP error codes.
namespace error_code {
inline constexpr int parse_error = -32700;       ///< invalid JSON
inline constexpr int invalid_request = -32600;   ///< not a valid request object
inline constexpr int method_not_found = -32601;  ///< unknown or unavailable method
inline constexpr int invalid_params = -32602;    ///< bad parameters
inline constexpr int internal_error = -32603;    ///< the server failed
inline constexpr int resource_not_found = -32002;          ///< MCP up to 2025-11-25
inline constexpr int header_mismatch = -32020;             ///< MCP 2026-07-28
inline constexpr int missing_client_capability = -32021;   ///< MCP 2026-07-28
inline constexpr int unsupported_protocol_version = -32022;  ///< MCP 2026-07-28
inline constexpr int url_elicitation_required = -32042;    ///< MCP 2025-11-25
}  // namespace error_code

/// message_id is a request id: an integer or a string (null is not an id in MCP).
using message_id = std::variant<std::int64_t, std::string>;

/// id_to_json converts an id to its JSON form.
json id_to_json(const message_id& id);
/// id_to_string renders an id for maps and logs: integers as digits, strings quoted.
std::string id_to_string(const message_id& id);
/// id_from_json reads an id; nullopt if `j` is neither an integer nor a string.
std::optional<message_id> id_from_json(const json& j);

/// request expects a response. `params` is null when absent.
struct request {
  message_id id;
  std::string method;
  json params;
};

/// notification expects no response.
struct notification {
  std::string method;
  json params;
};

/// error_object is the `error` member of an error response.
struct error_object {
  int code = error_code::internal_error;
  std::string message;
  json data;  ///< null when absent
};

/// response answers a request: a result or an error. `id` is empty only for errors about a
/// message whose id could not be read (serialized as "id": null).
struct response {
  std::optional<message_id> id;
  json result;                        ///< meaningful when error is empty
  std::optional<error_object> error;

  /// success makes a result response.
  static response success(message_id id, json result);
  /// failure makes an error response.
  static response failure(std::optional<message_id> id, int code, std::string message,
                          json data = nullptr);
};

/// message is any JSON-RPC message.
using message = std::variant<request, notification, response>;

/// parse_options tune parse.
struct parse_options {
  bool allow_batch = false;  ///< accept a top-level array of messages
  /// json bounds the document; default_json_limits() when unset. A document past a limit
  /// gets one -32600 Invalid Request error naming the limit.
  std::optional<json_limits> limits;
  std::size_t max_batch = 1000;  ///< messages in one batch; more: one -32600 error
};

/// parsed is what parse found: the valid messages, in order, and an error response for each
/// invalid one (with the id when it could be read). `batch` tells whether the input was an
/// array; an empty array is itself an invalid request.
struct parsed {
  std::vector<message> messages;
  std::vector<response> errors;
  bool batch = false;
};

/// parse reads one JSON-RPC message (or a batch, if allowed) from text. Never throws.
/// Invalid JSON gives one -32700 error; a non-object, a wrong "jsonrpc", a bad id, a missing or
/// non-string method, non-structured params or a response with both or neither of result and
/// error give -32600; an array when batches are not allowed gives -32600.
parsed parse(std::string_view text, const parse_options& options = {});

/// parse_value is parse for an already parsed JSON value.
parsed parse_value(const json& value, const parse_options& options = {});

/// to_json converts a message to its wire JSON.
json to_json(const message& m);
json to_json(const request& m);
json to_json(const notification& m);
json to_json(const response& m);

/// serialize converts a message to compact wire text (no newlines inside).
std::string serialize(const message& m);

}  // namespace tooluse::jsonrpc
