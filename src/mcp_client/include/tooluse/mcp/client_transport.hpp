#pragma once
/// \file client_transport.hpp
/// tooluse::mcp::client_transport, how an MCP client reaches one server: a child process over
/// stdio, Streamable HTTP, or in memory. The client (client.hpp) owns the protocol (handshake,
/// ids, timeouts); a client_transport is a connection (connection.hpp) that only moves
/// JSON-RPC messages and reports when it ends.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/mcp/connection.hpp"
#include "tooluse/result.hpp"

namespace tooluse::mcp {

/// transport_handlers are a connection's callbacks into its client (connection.hpp).
using transport_handlers = connection_handlers;

/// client_transport moves JSON-RPC messages between an MCP client and one server: a
/// connection of the transport model (connection.hpp, where its contract is stated).
using client_transport = connection;

/// split_command splits a shell-like command line ("npx -y pkg --flag 'a b'") into words:
/// whitespace separates, single and double quotes group, a backslash escapes the next
/// character outside single quotes. No expansion of variables or globs.
/// Errors: errc::invalid_argument for an unterminated quote or an empty command.
result<std::vector<std::string>> split_command(std::string_view command_line);

}  // namespace tooluse::mcp
