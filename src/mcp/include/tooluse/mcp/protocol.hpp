#pragma once
/// \file protocol.hpp
/// tooluse::mcp protocol types: revisions, implementation info, resources, prompts, logging
/// levels, and their JSON forms. Wire names appear only in the JSON functions.

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/tools/tool.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse::mcp {

/// Protocol revisions this SDK speaks. 2026-07-28 is stateless (per-request `_meta`); the
/// others use the initialize handshake and sessions.
inline constexpr std::string_view version_2025_03_26 = "2025-03-26";
inline constexpr std::string_view version_2025_06_18 = "2025-06-18";
inline constexpr std::string_view version_2025_11_25 = "2025-11-25";
inline constexpr std::string_view version_2026_07_28 = "2026-07-28";
/// latest_session_version is the newest handshake-based revision.
inline constexpr std::string_view latest_session_version = version_2025_11_25;

/// session_versions are the handshake revisions, newest first.
inline constexpr std::array<std::string_view, 4> session_versions = {
    version_2025_11_25, version_2025_06_18, version_2025_03_26, "2024-11-05"};

/// is_session_version tells whether `v` is a handshake-based revision this SDK serves.
bool is_session_version(std::string_view v) noexcept;
/// is_stateless_version tells whether `v` is a per-request revision (2026-07-28).
bool is_stateless_version(std::string_view v) noexcept;

/// Reserved `_meta` keys of 2026-07-28.
inline constexpr std::string_view meta_protocol_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view meta_client_info = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view meta_client_capabilities =
    "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view meta_log_level = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view meta_server_info = "io.modelcontextprotocol/serverInfo";
inline constexpr std::string_view meta_subscription_id = "io.modelcontextprotocol/subscriptionId";
/// tooluse's `_meta` key for a tool call's idempotency key (call_context::idempotency_key): the
/// same for every attempt of one call, also after a crash and a resume of a durable run.
inline constexpr std::string_view meta_idempotency_key = "io.tooluse/idempotency-key";

/// routing_name_field names the params field that the 2026-07-28 `Mcp-Name` header mirrors
/// for `method` ("name", "uri" or "taskId"), or "" when the method has none.
std::string_view routing_name_field(std::string_view method) noexcept;

/// implementation names a client or server (`clientInfo` / `serverInfo`).
struct implementation {
  std::string name;
  std::string version;
  std::string title;
  std::string description;
};
json to_json(const implementation& i);

/// log_level is the syslog severity of a log message, lowest first.
enum class log_level { debug, info, notice, warning, error, critical, alert, emergency };
/// to_string returns the wire name, e.g. "warning".
std::string_view to_string(log_level level) noexcept;
/// parse_log_level reads a wire name; nullopt if unknown.
std::optional<log_level> parse_log_level(std::string_view s) noexcept;

/// resource is a directly listed resource.
struct resource {
  std::string uri;
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;
  json meta = json::object();
};
json to_json(const resource& r);

/// resource_template is a parameterised resource (RFC 6570 level 1: `{var}` segments).
struct resource_template {
  std::string uri_template;
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;
};
json to_json(const resource_template& t);

/// resource_contents is one item of a resources/read result: text or a base64 blob.
struct resource_contents {
  std::string uri;
  std::string mime_type;
  std::optional<std::string> text;
  std::optional<std::string> blob;
};
json to_json(const resource_contents& c);

/// match_uri_template matches `uri` against a level-1 template; on success it returns the
/// variables, e.g. "test://template/{id}/data" and "test://template/7/data" give {"id":"7"}.
std::optional<json> match_uri_template(std::string_view uri_template, std::string_view uri);

/// prompt_argument describes one argument of a prompt.
struct prompt_argument {
  std::string name;
  std::string description;
  bool required = false;
};

/// prompt is a prompt template the server offers.
struct prompt {
  std::string name;
  std::string title;
  std::string description;
  std::vector<prompt_argument> arguments;
};
json to_json(const prompt& p);

/// prompt_message is one message of a prompts/get result.
struct prompt_message {
  std::string role = "user";  ///< "user" or "assistant"
  content_block content;
};
json to_json(const prompt_message& m);

/// prompt_result is a prompts/get result.
struct prompt_result {
  std::string description;
  std::vector<prompt_message> messages;
};
json to_json(const prompt_result& r);

/// completion_result is a completion/complete result.
struct completion_result {
  std::vector<std::string> values;
  std::optional<int> total;
  bool has_more = false;
};
json to_json(const completion_result& c);

/// tool_to_mcp_json converts a tool definition to the MCP `Tool` shape.
json tool_to_mcp_json(const tool& t);

/// input_required asks the client for input before the request can finish (2026-07-28 MRTR).
/// `input_requests` maps keys to {method, params} (elicitation/create, sampling/createMessage,
/// roots/list). `state` is returned by the client on the retry; the server seals it (HMAC), so
/// a handler can trust what request_context::request_state() gives back.
struct input_required {
  json input_requests = json::object();
  std::optional<json> state;
};

}  // namespace tooluse::mcp
