#pragma once
// The MCP method table's building blocks (server_dispatch.cpp): a method is bound once, with its
// typed params (decoded here, the -32602 error made here), its typed result (encoded here)
// and its rules (which revisions have it, whether it may run on an I/O thread, its cache
// hint, what it needs of the client or the server) as fields of the binding.

#include <algorithm>
#include <concepts>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "tooluse/jsonrpc/message.hpp"
#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp {

/// decode_params is read_params by the general decoder (tooluse::decode).
template <class T>
std::optional<jsonrpc::error_object> decode_params(const json& params, T& out) {
  static const json none = json::object();
  // A reference either way: `cond ? json::object() : params` would copy the params.
  auto r = tooluse::decode<T>(params.is_null() ? none : params, "params");
  if (!r)
    return jsonrpc::error_object{jsonrpc::error_code::invalid_params,
                                 "Invalid params: " + r.error().message, nullptr};
  out = std::move(*r);
  return std::nullopt;
}

/// read_params decodes `params` (null counts as {}) into `out`; on a mismatch it returns
/// -32602 "Invalid params: params.name: expected string, got integer 3".
template <class T>
std::optional<jsonrpc::error_object> read_params(const json& params, T& out) {
  return decode_params(params, out);
}

/// read_params for tools/call, the hot method: its three members read directly, each looked up
/// once, as the general decoder reads them; anything else than a string name, and a `task`
/// (which the general decoder checks member by member), goes to the general decoder, which
/// also words its errors. tests/unit/mcp/wire_params_test.cpp checks the two agree.
template <>
inline std::optional<jsonrpc::error_object> read_params(const json& params, wire::call_tool_params& out) {
  if (params.is_object()) {
    const auto& members = params.get_ref<const json::object_t&>();
    const json *name = nullptr, *arguments = nullptr, *task = nullptr;
    for (const auto& [key, value] : members) {
      if (key == "name") name = &value;
      else if (key == "arguments") arguments = &value;
      else if (key == "task") task = &value;
    }
    if (name && name->is_string() && (!task || task->is_null())) {
      out.name = name->get_ref<const std::string&>();
      if (arguments && !arguments->is_null()) out.arguments = *arguments;
      else out.arguments.reset();
      out.task.reset();
      return std::nullopt;
    }
  }
  return decode_params(params, out);
}

/// shown is a peer-supplied name as an error message quotes it: at most 200 bytes, then
/// "... (N bytes)", so an answer never echoes a 12 MB method or tool name back to its sender.
inline std::string shown(std::string_view name) {
  constexpr std::size_t max = 200;
  if (name.size() <= max) return std::string(name);
  return std::string(name.substr(0, max)) + "... (" + std::to_string(name.size()) + " bytes)";
}

/// err makes a JSON-RPC error object.
inline jsonrpc::error_object err(int code, std::string message, json data = nullptr) {
  return jsonrpc::error_object{code, std::move(message), std::move(data)};
}

/// page is one page of a list method's answer: `items` [offset, offset + page_size) under `key`,
/// made by `to`, and "nextCursor" when more follow. The cursor must be one this server sent (all
/// digits, within the list); anything else is -32602 naming it.
template <class T, class F>
std::variant<json, jsonrpc::error_object> page(const std::optional<std::string>& cursor,
                                               std::size_t page_size, const std::vector<T>& items,
                                               const char* key, F to) {
  std::size_t offset = 0;
  if (cursor) {
    const std::string& cur = *cursor;
    try {
      std::size_t used = 0;
      offset = std::stoul(cur, &used);
      if (used != cur.size() || offset > items.size()) throw std::invalid_argument("cursor");
    } catch (const std::exception&) {
      return err(jsonrpc::error_code::invalid_params,
                 "Invalid params: unknown cursor \"" + shown(cur) + "\"");
    }
  }
  const std::size_t n = std::max<std::size_t>(1, page_size);
  json list = json::array();
  for (std::size_t i = offset; i < items.size() && i < offset + n; ++i) list.push_back(to(items[i]));
  json out = {{key, std::move(list)}};
  if (offset + n < items.size()) out["nextCursor"] = std::to_string(offset + n);
  return out;
}

/// not_an_object is the -32602 error for a free-form member that must be an object.
inline jsonrpc::error_object not_an_object(std::string_view path, const json& got) {
  return jsonrpc::error_object{jsonrpc::error_code::invalid_params,
                               "Invalid params: " + std::string(path) +
                                   ": expected object, got " + std::string(type_name(got)),
                               nullptr};
}

namespace wire {
/// routing_params: the names a request is about, read where the method is not yet decoded
/// (a transport deciding where to run it, the telemetry span's name).
struct routing_params {
  std::optional<std::string> name;  ///< tools/call, prompts/get
  std::optional<std::string> uri;   ///< resources/read
};
TOOLUSE_WIRE(routing_params, (name), (uri))
}  // namespace wire

/// answer is what a method returns: its result, or a JSON-RPC error.
template <class R>
using answer = std::variant<R, jsonrpc::error_object>;

/// no_params: a method whose params are not read (any object is accepted).
struct no_params {};

/// revisions says which protocol revisions have a method; outside them it is -32601.
enum class revisions { all, sessions_only, stateless_only };

/// cache_kind is the 2026-07-28 cache hint a method's complete result carries.
enum class cache_kind { none, list, read };

/// method_rules are what the dispatcher checks and adds around a method, in this order:
/// the revision, then (2026-07-28) the tasks extension, then `available`.
struct method_rules {
  revisions in = revisions::all;
  std::string_view note;      ///< added to the -32601 of a method outside its revisions
  bool runs_inline = false;   ///< never blocks: a transport may run it on its I/O thread
  cache_kind cache = cache_kind::none;
  bool tasks_extension = false;  ///< 2026-07-28: the client must declare the tasks extension
};

/// encode_result turns a method's typed result into its JSON: json as it is, a protocol type
/// by its to_json (protocol.hpp), a wire type by the codec.
template <class R>
json encode_result(R&& r) {
  using T = std::decay_t<R>;
  if constexpr (std::is_same_v<T, json>)
    return std::forward<R>(r);
  else if constexpr (requires(const T& v) { { to_json(v) } -> std::same_as<json>; })
    return to_json(r);
  else
    return tooluse::encode(r);
}

/// method_traits takes a handler `answer<R> (*)(const C&, P&)` apart.
template <class F>
struct method_traits;
template <class C, class P, class R>
struct method_traits<answer<R> (*)(const C&, P&)> {
  using context = C;
  using params = P;
  using result = R;
};

/// bound is handler F with its params decoded and its result encoded: the one place a
/// method's params become the -32602 error.
template <auto F>
answer<json> bound(const typename method_traits<decltype(F)>::context& c, const json& params) {
  using P = typename method_traits<decltype(F)>::params;
  P p{};
  if constexpr (!std::is_same_v<P, no_params>)
    if (auto e = read_params(params, p)) return std::move(*e);
  auto out = F(c, p);
  if (auto* e = std::get_if<jsonrpc::error_object>(&out)) return std::move(*e);
  return encode_result(std::move(std::get<0>(out)));
}

}  // namespace tooluse::mcp
