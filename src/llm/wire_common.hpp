#pragma once
// Internals shared by the provider adapters: sending with retries, tool-name mapping, costs.

#include <functional>
#include <map>
#include <stop_token>
#include <string>
#include <vector>

#include "tooluse/describe.hpp"
#include "tooluse/http/client.hpp"
#include "tooluse/llm/provider.hpp"
#include "tooluse/schema/name_map.hpp"
#include "tooluse/schema/translate.hpp"

namespace tooluse::llm::detail {

/// exchange_hooks: with on_body set, a 2xx body streams there; error bodies are buffered.
struct exchange_hooks {
  std::function<bool(std::string_view)> on_body;
};

/// send_with_retry POSTs `body` to `url`, retrying 429/5xx and connection failures with
/// backoff (Retry-After honoured) while nothing has been streamed yet. Returns the 2xx
/// response; anything else is an error naming `who` and quoting the provider's message.
result<http::response> send_with_retry(const provider_options& opts, const std::string& who,
                                       http::request req, const exchange_hooks& hooks,
                                       std::stop_token stop);

/// retry_step is what the retry loop does after one attempt: return `done`, or wait `delay`
/// and try again.
struct retry_step {
  std::optional<result<http::response>> done;
  std::chrono::milliseconds delay{0};
};

/// after_attempt decides the retry loop's next step from one attempt's outcome (shared by
/// send_with_retry and send_with_retry_async). `streaming`: the body went to a hook, and an
/// error body was buffered in `error_body`.
retry_step after_attempt(const provider_options& opts, const std::string& who,
                         const http::request& req, int attempt, result<http::response> res,
                         bool streamed, std::string error_body, bool streaming);

/// prepare_request applies the provider's deadlines and size limit to `req`.
void prepare_request(const provider_options& opts, http::request& req);

/// send_with_retry_async is send_with_retry on the HTTP pool without holding a thread:
/// attempts go out with http::send_async (through opts.transport when one is set, which then
/// runs on the calling thread), backoff waits on the pool's timer, `hooks` run on the pool's I/O
/// thread and `done` on its completion thread. `done` is called exactly once.
void send_with_retry_async(const provider_options& opts, std::string who, http::request req,
                           exchange_hooks hooks, std::stop_token stop,
                           std::function<void(result<http::response>)> done);

/// retry_delay computes the wait before retry number `attempt` (0-based) from the headers
/// (Retry-After seconds, retry-after-ms) or exponential backoff.
std::chrono::milliseconds retry_delay(const retry_policy& policy, int attempt,
                                      const std::vector<http::header>& headers);

/// wire_tools is a request's `tools` array and the name map to decode calls with.
struct wire_tools {
  json tools = json::array();
  schema::name_map names;
  /// text, when not empty, is `tools` serialised once (tools_cache): a body built with it holds
  /// null at "tools" (place_tools) and dump_body writes the text there.
  std::string text;
};

/// place_tools sets body["tools"]: the array, or null when `tools.text` will be written there.
void place_tools(json& body, const wire_tools& tools);

/// dump_body serialises `body` as dump_json does, writing `tools.text` at its top-level "tools"
/// when place_tools left null there. The bytes are those of the body with the array in place.
std::string dump_body(const json& body, const wire_tools& tools);

/// export_wire_tools translates tool definitions for `target` (openai, openai_strict,
/// responses, anthropic or gemini), mapping names the provider would reject. `strict` applies
/// to responses (strict:true with the strict schema). The one place that knows the shapes.
result<wire_tools> export_wire_tools(const std::vector<tool>& tools, schema::export_target target,
                                     bool strict = false);

/// allowed_subset returns the tools of `tools` named in `allowed` (all when `allowed` is empty),
/// for providers without an allowed-tools mode.
std::vector<tool> allowed_subset(const std::vector<tool>& tools,
                                 const std::vector<std::string>& allowed);

/// apply_price fills u.cost from the optional price table.
void apply_price(usage& u, const std::optional<price>& p);

/// join_url appends `path` to `base` with exactly one '/' between them.
std::string join_url(const std::string& base, const std::string& path);

/// tool_result_text is a tool message's content as text, for the APIs that take text only:
/// parts one per line, an image as "[image <mime>, <n> base64 bytes not shown]".
std::string tool_result_text(const message& m);

/// error_marked is a tool result's text for an API without an error flag: "Error: " before it
/// when `is_error` and it does not already start with "error"/"Error".
std::string error_marked(std::string text, bool is_error);

/// user_content is a user message's content for the OpenAI APIs: a plain string when it is one
/// text part, else parts typed `text_type` and images made by `image` from their URL (a data:
/// URL for inline data).
json user_content(const message& m, const char* text_type, json (*image)(const std::string& url));

/// role_encoders are how a provider writes each kind of message into its conversation array;
/// an empty one leaves that kind out (a system prompt the provider takes elsewhere).
struct role_encoders {
  using encoder = std::function<void(json& out, const message& m)>;
  encoder system, user, assistant, tool;
};

/// encode_conversation writes `messages` in order into a JSON array, each by its role's encoder.
json encode_conversation(const std::vector<message>& messages, const role_encoders& by_role);

/// add_tool_result puts `result` in the user message that holds the tool results of the current
/// turn, for the APIs that take all results of a turn in one user message holding only them
/// (Anthropic's "content" blocks, Gemini's "parts"): the last message of `out` when its first
/// entry under `key` is a result (`is_result`), else a new one.
void add_tool_result(json& out, const char* key, json result, bool (*is_result)(const json& entry));

/// system_text joins the text of the system messages, a blank line between them, for the
/// providers that take the system prompt apart from the messages.
std::string system_text(const std::vector<message>& messages);

/// shape_message is the start of every "answer of the wrong shape" error: `who: the answer has a
/// field of an unexpected type`.
std::string shape_message(const std::string& who);

/// decode_answer decodes a provider's answer (or one stream event) into its wire type T
/// (declared with TOOLUSE_WIRE in the *_wire.hpp headers: unknown fields ignored). A mismatch
/// is errc::protocol_error naming `who` and the path from `root`: `openai: the answer has a
/// field of an unexpected type: response.choices[0].message.tool_calls[0].id: expected string,
/// got integer 7`.
template <class T>
result<T> decode_answer(const json& j, const std::string& who, const std::string& root) {
  auto r = tooluse::decode<T>(j, root);
  if (!r) return fail(errc::protocol_error, shape_message(who) + ": " + r.error().message);
  return r;
}

/// provider_error_message extracts {"error":{"message"}} (or the raw text, shortened).
std::string provider_error_message(const std::string& body);

}  // namespace tooluse::llm::detail
