// tooluse::mcp::client requests: ids, per-request _meta, waiting with timeouts reset by
// progress, cancellation, session re-initialisation, and 2026-07-28 input-required rounds.

#include <algorithm>

#include "client_impl.hpp"
#include "session_lost.hpp"
#include "tooluse/jsonrpc/message.hpp"
#include "tooluse/mcp/wire.hpp"
#include "tooluse/telemetry/trace.hpp"

namespace tooluse::mcp {
namespace {

errc code_for(int rpc) {
  namespace ec = jsonrpc::error_code;
  switch (rpc) {
    case ec::method_not_found:
      return errc::unsupported;
    case ec::invalid_params:
      return errc::invalid_argument;
    case ec::resource_not_found:
      return errc::not_found;
    default:
      return errc::protocol_error;
  }
}

// repeatable tells the methods that only read or set state to the same value: sending one
// again, even after the server may have handled it, has no further effect.
bool repeatable(std::string_view method) {
  static constexpr std::string_view methods[] = {
      "initialize",     "ping",           "tools/list",         "prompts/list",
      "prompts/get",    "resources/list", "resources/templates/list",
      "resources/read", "resources/subscribe", "resources/unsubscribe",
      "completion/complete", "logging/setLevel", "tasks/get", "tasks/list", "tasks/result"};
  return std::find(std::begin(methods), std::end(methods), method) != std::end(methods);
}

}  // namespace

error client::impl::rpc_error(std::string_view method, const json& err) const {
  auto e = decode<wire::jsonrpc_error>(err, "error");
  if (!e)
    return error{errc::protocol_error,
                 transport->describe() + ": " + std::string(method) +
                     " failed with a malformed JSON-RPC error: " + e.error().message,
                 jsonrpc::error_code::internal_error};
  if (e->code == jsonrpc::error_code::unsupported_protocol_version) {
    std::lock_guard lock(mu);
    unsupported_data = e->data.value_or(json());
  }
  return error{code_for(e->code),
               transport->describe() + ": " + std::string(method) +
                   " failed: " + e->message.value_or("(no message)") + " (JSON-RPC error " +
                   std::to_string(e->code) + ")",
               e->code};
}

result<json> client::impl::round_trip(std::string_view method, json params,
                                      const call_options& options,
                                      std::optional<std::chrono::milliseconds> timeout) {
  const std::int64_t n = next_id++;
  const json id = n;
  const std::string key = id_key(id);
  if (!params.is_object()) params = json::object();
  json meta =
      params.contains("_meta") && params["_meta"].is_object() ? params["_meta"] : json::object();
  if (options.meta.is_object()) meta.update(options.meta);
  if (options.on_progress) meta["progressToken"] = n;
  bool sl;
  {
    std::lock_guard lock(mu);
    sl = stateless;
  }
  if (sl) meta.update(stateless_meta());
  // MCP semantic conventions: a CLIENT span per request, its context sent as _meta.traceparent
  // so the server's span joins the same trace.
  std::string target;
  for (const char* k : {"name", "uri"})
    if (target.empty() && params.contains(k) && params[k].is_string())
      target = params[k].get<std::string>();
  auto span = telemetry::start_span(std::string(method) + (target.empty() ? "" : " " + target),
                                    telemetry::span_kind::client);
  if (span.recording()) {
    span.set("mcp.method.name", std::string(method));
    span.set("jsonrpc.request.id", std::to_string(n));
    if (method == "tools/call") {
      span.set("gen_ai.operation.name", "execute_tool");
      span.set("gen_ai.tool.name", target);
    }
    meta["traceparent"] = telemetry::format_traceparent(span.context());
  }
  if (!meta.empty()) params["_meta"] = meta;
  json msg = {{"jsonrpc", "2.0"}, {"id", id}, {"method", std::string(method)}, {"params", params}};
  auto call = std::make_shared<pending_call>();
  call->on_progress = options.on_progress;
  header_list headers;
  {
    std::lock_guard lock(mu);
    if (closed) return fail(errc::cancelled, transport->describe() + ": the client is closed");
    pending[key] = call;
    if (sl && carries_headers) headers = param_headers(method, params);
  }
  if (auto st = write(msg, nullptr, &headers); !st) {
    std::lock_guard lock(mu);
    pending.erase(key);
    span.set_error(st.error().message, std::string(to_string(st.error().code)));
    return fail(st.error());
  }
  auto answer = wait_for(key, id, method, call, options,
                         timeout.value_or(options.timeout.value_or(this->options.request_timeout)));
  if (!answer) span.set_error(answer.error().message, std::string(to_string(answer.error().code)));
  return answer;
}

result<json> client::impl::wait_for(const std::string& key, const json& id, std::string_view method,
                                    const std::shared_ptr<pending_call>& call,
                                    const call_options& options,
                                    std::chrono::milliseconds timeout) {
  const auto start = clock_type::now();
  std::stop_callback wake(options.stop, [&call] {
    std::lock_guard l(call->mu);
    call->cv.notify_all();
  });
  std::optional<error> gave_up;
  {
    std::unique_lock lock(call->mu);
    while (!call->response && !call->failure) {
      if (options.stop.stop_requested()) {
        gave_up = error{errc::cancelled,
                        transport->describe() + ": " + std::string(method) + " was cancelled"};
        break;
      }
      auto deadline =
          (this->options.reset_timeout_on_progress ? call->last_activity : start) + timeout;
      bool hard = false;
      if (this->options.max_request_time.count() > 0 &&
          start + this->options.max_request_time < deadline) {
        deadline = start + this->options.max_request_time;
        hard = true;
      }
      if (clock_type::now() >= deadline) {
        auto limit = hard ? this->options.max_request_time : timeout;
        gave_up =
            error{errc::timeout, transport->describe() + ": no answer to " + std::string(method) +
                                     " within " + std::to_string(limit.count()) +
                                     " ms; raise the timeout or check the server"};
        break;
      }
      call->cv.wait_until(lock, deadline);
    }
  }
  if (gave_up) {
    {
      std::lock_guard lock(mu);
      pending.erase(key);
    }
    // The cancellation names its request in the envelope too: the transport stops waiting for
    // the response (HTTP closes its stream, which under 2026-07-28 is the cancellation itself;
    // stdio counts a request left unanswered).
    (void)write(json{{"jsonrpc", "2.0"},
                     {"method", "notifications/cancelled"},
                     {"params", {{"requestId", id}, {"reason", gave_up->message}}}},
                &id);
    return fail(*gave_up);
  }
  std::lock_guard lock(call->mu);
  if (call->failure) return fail(*call->failure);
  const json& r = *call->response;
  if (r.contains("error")) return fail(rpc_error(method, r["error"]));
  return r.contains("result") ? r["result"] : json::object();
}

result<json> client::impl::resolve_input(const std::map<std::string, wire::input_request>& requests,
                                         const std::string& root) {
  json responses = json::object();
  for (const auto& [k, req] : requests) {
    std::string path = root;
    tooluse::detail::path_push(path, k);
    tooluse::detail::path_push(path, "params");
    auto r = run_handler(req.method, req.params.value_or(json::object()), std::stop_token{}, path);
    if (!r) return fail(r.error());
    responses[k] = std::move(*r);
  }
  return responses;
}

result<json> client::impl::request(std::string_view method, json params,
                                   const call_options& options) {
  int gen;
  {
    std::lock_guard lock(mu);
    gen = generation;
  }
  auto r = round_trip(method, params, options);
  bool may_have_run = false;
  if (!r && detail::is_session_lost(r.error(), &may_have_run)) {
    // The specification's MUST: a 404 for our session starts a new one. The request is sent
    // again only when that is safe: the server refused it unseen, or repeating it changes
    // nothing.
    const std::string m(method);
    if (auto st = redo_handshake(gen); !st) {
      warn("the server forgot our session (HTTP 404) and starting a new one failed: " +
           st.error().message);
      return fail(st.error());
    }
    if (may_have_run && !repeatable(method)) {
      warn("the server forgot our session (HTTP 404) while " + m +
           " was running; started a new session and did not send " + m +
           " again, as it may have taken effect");
      return fail(errc::not_found,
                  r.error().message + "; a new session was started, but " + m +
                      " was not sent again because it may have taken effect: call it again if "
                      "that is safe");
    }
    warn("the server forgot our session (HTTP 404); started a new session and sent " + m +
         " again");
    r = round_trip(method, params, options);
  }
  // A result that is not an object is passed on as it is (lenient, as before the codec).
  for (int round = 0; r && r->is_object(); ++round) {
    auto kind = decode<wire::result_kind>(*r, "result");
    if (kind && kind->result_type != "input_required") break;
    auto mrtr = decode<wire::input_required_result>(*r, "result");
    if (!mrtr)
      return fail(errc::protocol_error, transport->describe() + ": " + std::string(method) +
                                            " result is malformed: " + mrtr.error().message);
    if (round >= options_rounds())
      return fail(errc::protocol_error, transport->describe() + ": " + std::string(method) +
                                            " still needs input after " + std::to_string(round) +
                                            " rounds; giving up");
    auto responses =
        resolve_input(mrtr->input_requests.value_or(input_request_map{}), "result.inputRequests");
    if (!responses) return fail(responses.error());
    json next = params.is_object() ? params : json::object();
    if (responses->empty())
      next.erase("inputResponses");
    else
      next["inputResponses"] = std::move(*responses);
    if (mrtr->request_state)
      next["requestState"] = *mrtr->request_state;
    else
      next.erase("requestState");
    r = round_trip(method, std::move(next), options);
  }
  return r;
}

int client::impl::options_rounds() const { return std::max(0, options.max_input_rounds); }

}  // namespace tooluse::mcp
