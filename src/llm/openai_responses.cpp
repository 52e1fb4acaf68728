// The OpenAI Responses adapter: request building, the JSON answer and the SSE event stream.
#include "tooluse/llm/openai_responses.hpp"

#include <map>
#include <stdexcept>

#include "responses_wire.hpp"
#include "tooluse/http/sse.hpp"

namespace tooluse::llm {
namespace {

// stream_state assembles a streamed Response: output items by output_index, completed by
// response.output_item.done; response.completed carries the final Response (usage, status).
struct stream_state {
  const chat_request* req = nullptr;
  const schema::name_map* names = nullptr;
  const stream_callbacks* callbacks = nullptr;
  struct streamed_item {
    json raw;                      // as sent, to go in the final output
    bool wants_arguments = false;  // a function_call whose arguments came as deltas
  };
  std::map<int, streamed_item> items;
  std::map<int, std::string> arguments;
  json final_response;
  std::optional<error> failure;

  void on_event(const http::sse_event& ev) {
    if (failure) return;
    if (ev.data == "[DONE]") return;
    auto j = parse_json(ev.data);
    if (!j || !j->is_object()) {
      failure = error{errc::protocol_error,
                      "openai-responses: stream event is not JSON: " + ev.data.substr(0, 200)};
      return;
    }
    auto e = detail::decode_answer<detail::responses_wire::event>(*j, "openai-responses", "event");
    if (!e) {
      failure = e.error();
      return;
    }
    std::string type = e->type.value_or(ev.event);
    int index = e->output_index.value_or(0);
    if (type == "response.output_item.added" || type == "response.output_item.done") {
      json raw = e->item.value_or(json::object());
      auto item = detail::decode_answer<detail::responses_wire::output_item>(
          raw, "openai-responses", "event.item");
      if (!item) {
        failure = item.error();
        return;
      }
      if (type == "response.output_item.added" && item->type == "function_call" &&
          callbacks->on_tool_call_start) {
        std::string wire = item->name.value_or("");
        callbacks->on_tool_call_start(item->call_id.value_or(""),
                                      names->original_name(wire).value_or(wire));
      }
      bool no_arguments = !item->arguments || (item->arguments->is_string() &&
                                               item->arguments->get_ref<const std::string&>().empty());
      items[index] = {std::move(raw), item->type == "function_call" && no_arguments};
    } else if (type == "response.function_call_arguments.delta") {
      arguments[index] += e->delta.value_or("");
    } else if (type == "response.function_call_arguments.done") {
      if (e->arguments) arguments[index] = *e->arguments;
    } else if (type == "response.output_text.delta") {
      std::string s = e->delta.value_or("");
      if (!s.empty() && callbacks->on_text) callbacks->on_text(s);
    } else if (type == "response.reasoning_summary_text.delta" ||
               type == "response.reasoning_text.delta") {
      std::string s = e->delta.value_or("");
      if (!s.empty() && callbacks->on_reasoning) callbacks->on_reasoning(s);
    } else if (type == "response.completed" || type == "response.incomplete" ||
               type == "response.failed") {
      final_response = e->response.value_or(json::object());
    } else if (type == "error") {
      failure = error{errc::http_error, "openai-responses: error in stream: " +
                                            detail::provider_error_message(ev.data)};
    }
  }

  result<chat_response> finish() {
    if (failure) return fail(*failure);
    if (!final_response.is_object() || final_response.empty())
      return fail(errc::protocol_error,
                  "openai-responses: the stream ended before the answer was complete (no "
                  "response.completed); the connection was cut or the server failed mid-answer");
    // The final Response lists the output; if a server leaves it empty, use the items streamed.
    auto listed = final_response.find("output");
    if (listed == final_response.end() || !listed->is_array() || listed->empty()) {
      json output = json::array();
      for (auto& [index, item] : items) {
        if (item.wants_arguments && arguments.count(index))
          item.raw["arguments"] = arguments[index];
        output.push_back(item.raw);
      }
      final_response["output"] = output;
    }
    return detail::responses_decode(final_response, *req, *names);
  }
};

}  // namespace

openai_responses::openai_responses(provider_options options) : options_(std::move(options)) {
  if (options_.base_url.empty()) throw std::invalid_argument("openai_responses: base_url is empty");
  if (options_.model.empty()) throw std::invalid_argument("openai_responses: model is empty");
}

result<json> openai_responses::encode_request(const chat_request& req) const {
  auto tools = detail::export_wire_tools(req.tools, schema::export_target::responses, req.strict);
  if (!tools) return fail(tools.error());
  json body = {{"model", options_.model},
               {"input", detail::responses_input(req.messages, tools->names)}};
  std::string system;
  for (const auto& m : req.messages)
    if (m.role == role::system) system += (system.empty() ? "" : "\n\n") + m.text();
  if (!system.empty()) body["instructions"] = system;
  if (!req.tools.empty()) {
    body["tools"] = tools->tools;
    if (req.choice.what != tool_choice::mode::automatic || !req.allowed_tools.empty())
      body["tool_choice"] =
          detail::responses_tool_choice(req.choice, req.allowed_tools, tools->names);
    if (req.parallel_tool_calls) body["parallel_tool_calls"] = *req.parallel_tool_calls;
  }
  if (req.max_tokens) body["max_output_tokens"] = *req.max_tokens;
  if (req.temperature) body["temperature"] = *req.temperature;
  if (req.stream) body["stream"] = true;
  return body;
}

result<chat_response> openai_responses::complete(const chat_request& req,
                                                 const stream_callbacks& callbacks,
                                                 std::stop_token stop) {
  auto tools = detail::export_wire_tools(req.tools, schema::export_target::responses, req.strict);
  if (!tools) return fail(tools.error());
  auto body = encode_request(req);
  if (!body) return fail(body.error());
  http::request hreq = detail::openai_http_request(options_, "responses", *body, req.stream);

  result<chat_response> out = fail(errc::internal, "unreachable");
  if (!req.stream) {
    auto res = detail::send_with_retry(options_, "openai-responses", std::move(hreq), {}, stop);
    if (!res) return fail(res.error());
    auto j = parse_json(res->body);
    if (!j)
      return fail(errc::protocol_error,
                  "openai-responses: response is not JSON: " + j.error().message);
    out = detail::responses_decode(*j, req, tools->names);
  } else {
    stream_state state{.req = &req, .names = &tools->names, .callbacks = &callbacks};
    http::sse_parser parser({.max_event_bytes = options_.max_event_bytes});
    auto handler = [&](const http::sse_event& ev) { state.on_event(ev); };
    detail::exchange_hooks hooks{.on_body = [&](std::string_view chunk) {
      if (auto st = parser.feed(chunk, handler); !st && !state.failure) {
        state.failure = st.error();
        state.failure->message = "openai-responses: " + state.failure->message;
      }
      return !state.failure;  // a broken or oversized stream is abandoned at once
    }};
    auto res = detail::send_with_retry(options_, "openai-responses", std::move(hreq), hooks, stop);
    if (!res && state.failure) return fail(*state.failure);
    if (!res) return fail(res.error());
    out = state.finish();
  }
  if (out) detail::apply_price(out->usage, options_.price);
  return out;
}

}  // namespace tooluse::llm
