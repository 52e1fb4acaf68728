#pragma once
/// \file record_replay.hpp
/// Recording a run's HTTP exchanges to a file and replaying them later without a network, so a
/// run reproduces byte for byte (`tooluse run --record FILE` / `--replay FILE`).
/// The file is JSON Lines, one exchange per line:
///   {"request":{"method","url","body"},"response":{"status","headers":[[n,v]...],"chunks":[...]}}
/// `chunks` are the body bytes exactly as they arrived. Credentials (Authorization, x-api-key,
/// api-key headers) are never written: request headers are not recorded at all.

#include <memory>
#include <string>

#include "tooluse/http/client.hpp"

namespace tooluse::llm {

/// record_transport returns a transport that sends through `inner` and appends every exchange
/// (also failed ones, as {"error":...}) to `path`, truncating it first. Thread-safe.
/// Errors: errc::io_error if `path` cannot be opened for writing.
result<http::transport> record_transport(const std::string& path, http::transport inner);

/// replay_transport returns a transport that answers requests from a recording, in order,
/// streaming the recorded chunks to on_body as they were received. A request whose method,
/// URL or body differs from the recording fails with errc::protocol_error naming the exchange.
/// Errors: errc::io_error (unreadable file), errc::parse_error (a line is not an exchange).
result<http::transport> replay_transport(const std::string& path);

}  // namespace tooluse::llm
