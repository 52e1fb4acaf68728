#pragma once
// read_params: a request's params decoded into a wire type (tooluse/mcp/wire.hpp), or the
// -32602 error that names the path of the first mismatch.

#include <optional>

#include "tooluse/jsonrpc/message.hpp"
#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp {

/// read_params decodes `params` (null counts as {}) into `out`; on a mismatch it returns
/// -32602 "Invalid params: params.name: expected string, got integer 3".
template <class T>
std::optional<jsonrpc::error_object> read_params(const json& params, T& out) {
  auto r = tooluse::decode<T>(params.is_null() ? json::object() : params, "params");
  if (!r)
    return jsonrpc::error_object{jsonrpc::error_code::invalid_params,
                                 "Invalid params: " + r.error().message, nullptr};
  out = std::move(*r);
  return std::nullopt;
}

/// not_an_object is the -32602 error for a free-form member that must be an object.
inline jsonrpc::error_object not_an_object(std::string_view path, const json& got) {
  return jsonrpc::error_object{jsonrpc::error_code::invalid_params,
                               "Invalid params: " + std::string(path) +
                                   ": expected object, got " + std::string(type_name(got)),
                               nullptr};
}

}  // namespace tooluse::mcp
