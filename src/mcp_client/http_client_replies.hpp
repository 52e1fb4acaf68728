#pragma once
// What the Streamable HTTP client transport makes of what a server answers: which JSON is a
// JSON-RPC message for the client, which answers our request, how an unanswered body is
// described, and the HTTP layer's option names put in the transport's terms.
#include <string>

#include "tooluse/json.hpp"

namespace tooluse::mcp::detail {

/// is_response_to tells a response (result or error) to the request `id`.
bool is_response_to(const json& m, const json& id);

/// is_jsonrpc_message tells a JSON-RPC message (request, notification or response) from other
/// JSON a server or a proxy may answer with, such as an OAuth error body
/// (`{"error":"invalid_token"}`): only messages are handed to the client.
bool is_jsonrpc_message(const json& m);

/// unanswered describes a non-SSE body that held no response to our request: a JSON-RPC error
/// not tied to it (`"id": null`, as a 4xx may carry) is named by its code and message; any
/// other body is quoted (its first 300 bytes).
std::string unanswered(const std::string& body);

/// http_option_names renames, in an error message of the HTTP layer, its own options to the
/// ones of mcp::http_client_options that the transport maps onto them, which users set.
std::string http_option_names(std::string msg);

}  // namespace tooluse::mcp::detail
