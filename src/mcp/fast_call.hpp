#pragma once
// fast_call: the common 2026-07-28 tools/call, served with fewer layers than the general path
// (jsonrpc::parse, server_session::handle, server::handle_message) but the same dispatch, so the
// same answer. See design/mcp-server.md, "The fast path of a stateless tools/call".
//
// It takes a request only when the general path would run it inline and answer it with nothing
// it does not do here: a registry tool (not add_tool) that the executor runs inline and that is
// not a task tool, telemetry off, and a body whose shape it checks member by member (only
// "jsonrpc", "id", "method" and "params", each once; params only "name", "arguments" and
// "_meta"; `_meta` only the protocol version, equal to the header and served, and the client
// capabilities, an object). It reads the body in place (json_reader) and builds only the
// arguments, the client capabilities and the id; the params as a whole are built only for a
// handler that asks for them (request_of). Anything else is declined before anything runs, and
// the caller serves the request the general way. tests/unit/mcp/fast_call_test.cpp compares the
// two over valid and invalid requests, byte for byte.
#include <string>
#include <string_view>

#include "tooluse/json.hpp"

namespace tooluse::mcp {
class server;
class session;
}  // namespace tooluse::mcp

namespace tooluse::mcp::detail {

/// fast_tool tells whether a tools/call of `name` may take the fast path (a cheap check, made
/// before the body is parsed).
bool fast_tool(server& srv, std::string_view name);

/// fast_reply is where the fast path writes: the messages related to the request while it
/// runs (progress, logs), then its response, as text when it is a plain result and the reply has
/// not become a stream, else as a message; or nothing, for a request answered with nothing.
class fast_reply {
 public:
  virtual ~fast_reply() = default;
  virtual void related(const json& message) = 0;
  /// text writes the whole response, serialized; false (nothing written) once the reply is a
  /// stream of events: the response then comes as a message.
  virtual bool text(std::string response) = 0;
  virtual void message(const json& response) = 0;
};

/// fast_tools_call serves `body` (the request's text) when it is the common case above, for the
/// request whose headers gave `header_version` and `header_name` (decoded; the caller checked
/// fast_tool(srv, header_name)), and writes what it answers to `reply`. `capacity` is how many
/// bytes from body.data() may be read (at least body.size(); json_reader::read). `root` is the
/// session of the server's stateless requests (its close stops the call). Returns false, having
/// run and written nothing, when the request is not the common case.
bool fast_tools_call(server& srv, session& root, std::string_view body, std::size_t capacity,
                     std::string_view header_version, std::string_view header_name, fast_reply& reply,
                     std::string_view principal);

}  // namespace tooluse::mcp::detail
