#pragma once
/// \file wire.hpp
/// tooluse::mcp::wire: the MCP messages the server and the client take apart, each declared
/// once with TOOLUSE_WIRE (field names as on the wire, unknown fields ignored). Decode them
/// with `tooluse::decode<T>(params, "params")`: a mismatch is an errc::invalid_argument whose
/// message names the path (`params.name: expected string, got integer 3`); the server answers
/// it with -32602. Encode with `tooluse::encode`. Free-form parts (capabilities, tool
/// arguments, `_meta` values, schemas) stay tooluse::json and pass through untouched.
/// design/codec.md explains the wire mode.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tooluse/describe.hpp"
#include "tooluse/json.hpp"
#include "tooluse/mcp/protocol.hpp"

namespace tooluse::mcp {

// The wire spelling of log_level (logging/setLevel, notifications/message).
TOOLUSE_DESCRIBE_ENUM(log_level, (debug), (info), (notice), (warning), (error), (critical),
                      (alert), (emergency))

namespace wire {
// NOLINTBEGIN(readability-identifier-naming): members follow the protocol's shapes.

/// request_meta is a request's `_meta`: the progress token, the trace context and the
/// 2026-07-28 per-request protocol fields; other keys are kept in `other`.
struct request_meta {
  std::optional<json> progress_token;  ///< string or integer
  std::optional<std::string> traceparent;
  std::optional<std::string> protocol_version;
  std::optional<json> client_info;
  std::optional<json> client_capabilities;
  std::optional<std::string> log_level;
  json other;
};
TOOLUSE_WIRE(request_meta, (progress_token, "progressToken"), (traceparent),
             (protocol_version, "io.modelcontextprotocol/protocolVersion"),
             (client_info, "io.modelcontextprotocol/clientInfo"),
             (client_capabilities, "io.modelcontextprotocol/clientCapabilities"),
             (log_level, "io.modelcontextprotocol/logLevel"), (other, tooluse::other_fields))

/// with_meta: any request's params, read for their `_meta` only.
struct with_meta {
  std::optional<request_meta> meta;
};
TOOLUSE_WIRE(with_meta, (meta, "_meta"))

/// initialize_params: the client's initialize request. The server is lenient where the
/// handshake allows it (no version: the newest; capabilities that are not an object: none).
struct initialize_params {
  std::optional<std::string> protocol_version;
  std::optional<json> capabilities;
  std::optional<json> client_info;
};
TOOLUSE_WIRE(initialize_params, (protocol_version, "protocolVersion"), (capabilities),
             (client_info, "clientInfo"))

/// initialize_result: the server's answer to initialize.
struct initialize_result {
  std::string protocol_version;
  std::optional<json> capabilities;
  std::optional<json> server_info;
  std::optional<std::string> instructions;
};
TOOLUSE_WIRE(initialize_result, (protocol_version, "protocolVersion"), (capabilities),
             (server_info, "serverInfo"), (instructions))

/// result_meta is a 2026-07-28 result's `_meta`; other keys are kept in `other`.
struct result_meta {
  std::optional<json> server_info;
  json other;
};
TOOLUSE_WIRE(result_meta, (server_info, "io.modelcontextprotocol/serverInfo"),
             (other, tooluse::other_fields))

/// discover_result: the server's answer to server/discover (2026-07-28).
struct discover_result {
  std::vector<json> supported_versions;
  std::optional<json> capabilities;
  std::optional<json> server_info;  ///< before `_meta` carried it
  std::optional<result_meta> meta;
  std::optional<std::string> instructions;
};
TOOLUSE_WIRE(discover_result,
             (supported_versions, "supportedVersions", tooluse::default_value(json::array())),
             (capabilities),
             (server_info, "serverInfo"), (meta, "_meta"), (instructions))

/// paginated_params: the params of every */list request.
struct paginated_params {
  std::optional<std::string> cursor;
};
TOOLUSE_WIRE(paginated_params, (cursor))

/// list_page: the cursor of one page of a */list result (the items, under a name that
/// depends on the method, are read beside it).
struct list_page {
  std::optional<std::string> next_cursor;
};
TOOLUSE_WIRE(list_page, (next_cursor, "nextCursor"))

/// set_level_params: logging/setLevel.
struct set_level_params {
  mcp::log_level level = mcp::log_level::debug;
};
TOOLUSE_WIRE(set_level_params, (level, "level", tooluse::required()))

/// task_request: the `task` of a task-augmented tools/call (2025-11-25).
struct task_request {
  std::optional<long long> ttl;
};
TOOLUSE_WIRE(task_request, (ttl))

/// call_tool_params: tools/call. `arguments` must be an object when present.
struct call_tool_params {
  std::string name;
  std::optional<json> arguments;
  std::optional<task_request> task;
};
TOOLUSE_WIRE(call_tool_params, (name), (arguments), (task))

/// uri_params: resources/read, resources/subscribe, resources/unsubscribe,
/// notifications/resources/updated.
struct uri_params {
  std::string uri;
};
TOOLUSE_WIRE(uri_params, (uri))

/// get_prompt_params: prompts/get. Arguments that are not an object count as none.
struct get_prompt_params {
  std::string name;
  std::optional<json> arguments;
};
TOOLUSE_WIRE(get_prompt_params, (name), (arguments))

/// complete_argument: the argument being completed.
struct complete_argument {
  std::string name;
  std::string value;
};
TOOLUSE_WIRE(complete_argument, (name, "name", tooluse::default_value("")),
             (value, "value", tooluse::default_value("")))

/// complete_params: completion/complete. `ref` (ref/prompt or ref/resource) passes through.
struct complete_params {
  json ref;
  complete_argument argument;
  std::optional<json> context;
};
TOOLUSE_WIRE(complete_params, (ref, "ref", tooluse::required()),
             (argument, "argument", tooluse::required()), (context))

/// completion_values: the `completion` of a completion/complete result.
struct completion_values {
  std::vector<std::string> values;
  std::optional<int> total;
  std::optional<bool> has_more;
};
TOOLUSE_WIRE(completion_values, (values, "values", tooluse::default_value(json::array())),
             (total), (has_more, "hasMore"))

/// complete_result: a completion/complete result.
struct complete_result {
  completion_values completion;
};
TOOLUSE_WIRE(complete_result, (completion))

/// mrtr_params: the multi-round-trip fields of a 2026-07-28 retry.
struct mrtr_params {
  std::optional<json> input_responses;  ///< an object of objects
  std::optional<std::string> request_state;
};
TOOLUSE_WIRE(mrtr_params, (input_responses, "inputResponses"),
             (request_state, "requestState"))

/// task_id_params: tasks/get, tasks/cancel, tasks/result, tasks/update.
struct task_id_params {
  std::string task_id;
  std::optional<json> input_responses;  ///< tasks/update only
};
TOOLUSE_WIRE(task_id_params, (task_id, "taskId"), (input_responses, "inputResponses"))

/// subscription_filter: the notifications a 2026-07-28 subscriptions/listen asks for.
struct subscription_filter {
  std::optional<bool> tools_list_changed;
  std::optional<bool> prompts_list_changed;
  std::optional<bool> resources_list_changed;
  std::optional<std::vector<std::string>> resource_subscriptions;  ///< resource URIs
};
TOOLUSE_WIRE(subscription_filter, (tools_list_changed, "toolsListChanged"),
             (prompts_list_changed, "promptsListChanged"),
             (resources_list_changed, "resourcesListChanged"),
             (resource_subscriptions, "resourceSubscriptions"))

/// listen_params: subscriptions/listen (2026-07-28).
struct listen_params {
  std::optional<subscription_filter> notifications;
};
TOOLUSE_WIRE(listen_params, (notifications))

/// cancelled_params: notifications/cancelled.
struct cancelled_params {
  std::optional<json> request_id;  ///< string or integer
  std::optional<std::string> reason;
};
TOOLUSE_WIRE(cancelled_params, (request_id, "requestId"), (reason))

/// progress_params: notifications/progress.
struct progress_params {
  json progress_token;  ///< string or integer
  double progress = 0;
  std::optional<double> total;
  std::optional<std::string> message;
};
TOOLUSE_WIRE(progress_params, (progress_token, "progressToken", tooluse::required()),
             (progress, "progress", tooluse::required()), (total), (message))

/// log_message_params: notifications/message.
struct log_message_params {
  std::string level;  ///< a log_level's wire name; a client reads unknown ones as "info"
  std::optional<std::string> logger;
  json data;
};
TOOLUSE_WIRE(log_message_params, (level, "level", tooluse::default_value("info")), (logger),
             (data, "data", tooluse::default_value(json())))

// ---- what the client reads from the server (src/mcp_client) ---------------------------------

/// jsonrpc_error: the `error` object of a JSON-RPC response. A missing `message` is read as
/// "(no message)" (lenient: some servers send only a code); `data` is free-form.
struct jsonrpc_error {
  int code = 0;
  std::optional<std::string> message;
  std::optional<json> data;
};
TOOLUSE_WIRE(jsonrpc_error, (code, "code", tooluse::required()), (message), (data))

/// unsupported_version_data: the `data` of an unsupported-protocol-version error (-32022).
/// Entries that are not strings are kept and never match a revision.
struct unsupported_version_data {
  std::vector<json> supported;
};
TOOLUSE_WIRE(unsupported_version_data,
             (supported, "supported", tooluse::default_value(json::array())))

/// input_request: one entry of a 2026-07-28 result's `inputRequests` (a request the client
/// answers locally: sampling, elicitation, roots).
struct input_request {
  std::string method;
  std::optional<json> params;
};
TOOLUSE_WIRE(input_request, (method), (params))

/// result_kind: a 2026-07-28 result's `resultType` ("complete", "input_required", "task");
/// absent from 2025 results.
struct result_kind {
  std::optional<std::string> result_type;
};
TOOLUSE_WIRE(result_kind, (result_type, "resultType"))

/// input_required_result: the multi-round-trip part of a 2026-07-28 result. `resultType` is
/// absent from 2025 results; `requestState` is opaque and sent back as is.
struct input_required_result {
  std::optional<std::string> result_type;
  std::optional<std::map<std::string, input_request>> input_requests;
  std::optional<std::string> request_state;
};
TOOLUSE_WIRE(input_required_result, (result_type, "resultType"),
             (input_requests, "inputRequests"), (request_state, "requestState"))

/// task_info: a Task as tasks/get answers it (2025-11-25 and the 2026-07-28 extension) and as
/// notifications/tasks/status carries it. Both spellings of the poll interval are read; a
/// finished 2026-07-28 task carries its `result` or `error`, one waiting for input its
/// `inputRequests`.
struct task_info {
  std::string task_id;
  std::string status;
  std::optional<std::string> status_message;
  std::optional<double> poll_interval;     ///< ms, 2025-11-25
  std::optional<double> poll_interval_ms;  ///< ms, 2026-07-28
  std::optional<json> result;
  std::optional<json> error;
  std::optional<std::map<std::string, input_request>> input_requests;
};
TOOLUSE_WIRE(task_info, (task_id, "taskId"), (status), (status_message, "statusMessage"),
             (poll_interval, "pollInterval"), (poll_interval_ms, "pollIntervalMs"), (result),
             (error), (input_requests, "inputRequests"))

/// created_task: what tells a tools/call result that created a task from an ordinary one
/// (2026-07-28 `resultType: "task"` with the task's fields beside it; 2025-11-25 `{"task":
/// {...}}`; a bare Task). Read leniently: a result that does not fit is an ordinary result.
struct created_task {
  std::optional<std::string> result_type;
  std::optional<std::string> task_id;
  std::optional<std::string> status;
  std::optional<json> content;
  std::optional<json> task;
};
TOOLUSE_WIRE(created_task, (result_type, "resultType"), (task_id, "taskId"), (status),
             (content), (task))

/// tool_execution: the `execution` of a 2025-11-25 Tool (task support).
struct tool_execution {
  std::optional<std::string> task_support;  ///< "forbidden", "optional" or "required"
};
TOOLUSE_WIRE(tool_execution, (task_support, "taskSupport"))

/// tool_ref: a Tool read for what the client itself needs (its name, its input schema for
/// x-mcp-header, its task support); the whole Tool object is kept as the server sent it.
struct tool_ref {
  std::string name;
  std::optional<json> input_schema;
  std::optional<tool_execution> execution;
};
TOOLUSE_WIRE(tool_ref, (name), (input_schema, "inputSchema"), (execution))

/// create_message_params: sampling/createMessage (a server request, or a 2026-07-28 input
/// request). `messages` and `maxTokens` are required; the rest is passed to the handler
/// untouched (messages, tools and preferences stay JSON).
struct create_message_params {
  std::vector<json> messages;
  long long max_tokens = 0;
  std::optional<std::string> system_prompt;
  std::optional<std::string> include_context;
  std::optional<double> temperature;
  std::optional<std::vector<std::string>> stop_sequences;
  std::optional<json> metadata;
  std::optional<json> model_preferences;
  std::optional<std::vector<json>> tools;
  std::optional<json> tool_choice;
};
TOOLUSE_WIRE(create_message_params, (messages, "messages", tooluse::required()),
             (max_tokens, "maxTokens", tooluse::required()), (system_prompt, "systemPrompt"),
             (include_context, "includeContext"), (temperature),
             (stop_sequences, "stopSequences"), (metadata), (model_preferences, "modelPreferences"),
             (tools), (tool_choice, "toolChoice"))

/// elicit_params: elicitation/create. Form mode (the default) carries `requestedSchema`, an
/// object the client checks itself; URL mode (2025-11-25) carries `url` and `elicitationId`.
struct elicit_params {
  std::optional<std::string> mode;  ///< "form" (default) or "url"
  std::string message;
  std::optional<json> requested_schema;
  std::optional<std::string> url;
  std::optional<std::string> elicitation_id;
};
TOOLUSE_WIRE(elicit_params, (mode), (message), (requested_schema, "requestedSchema"), (url),
             (elicitation_id, "elicitationId"))

/// elicit_result: what an elicitation handler returned, read to fill the schema's defaults.
struct elicit_result {
  std::string action;
  std::optional<json> content;
};
TOOLUSE_WIRE(elicit_result, (action, "action", tooluse::default_value("")), (content))

// NOLINTEND(readability-identifier-naming)
}  // namespace wire
}  // namespace tooluse::mcp
