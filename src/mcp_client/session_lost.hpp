#pragma once
// A lost session, as the HTTP transport reports it to the client (both in this module): the
// server answered 404 for our Mcp-Session-Id. Whether the request had been accepted before
// (a response stream being resumed) travels in the message, which the user reads anyway;
// connection.hpp's error has no other field for it.
#include <string>
#include <string_view>

#include "tooluse/mcp/connection.hpp"

namespace tooluse::mcp::detail {

inline constexpr std::string_view after_accept =
    ", after it had accepted the request (its response stream was being resumed)";

/// session_lost_error is the error for a 404 on our session.
inline error session_lost_error(const std::string& url, bool after_accepted) {
  return error{errc::not_found,
               url + ": the server no longer knows our session" +
                   (after_accepted ? std::string(after_accept) : std::string()),
               session_not_found_code};
}

/// is_session_lost tells a lost session; `may_have_run` says the request may have run.
inline bool is_session_lost(const error& e, bool* may_have_run = nullptr) {
  if (e.code != errc::not_found || e.jsonrpc_code != session_not_found_code) return false;
  if (may_have_run) *may_have_run = e.message.find(after_accept) != std::string::npos;
  return true;
}

}  // namespace tooluse::mcp::detail
