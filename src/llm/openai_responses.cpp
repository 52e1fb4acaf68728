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
  std::map<int, json> items;
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
    std::string type = j->value("type", ev.event);
    int index = j->value("output_index", 0);
    if (type == "response.output_item.added") {
      json item = j->value("item", json::object());
      if (item.value("type", "") == "function_call" && callbacks->on_tool_call_start) {
        std::string wire = item.value("name", "");
        callbacks->on_tool_call_start(item.value("call_id", ""),
                                      names->original_name(wire).value_or(wire));
      }
      items[index] = std::move(item);
    } else if (type == "response.function_call_arguments.delta") {
      arguments[index] += j->value("delta", "");
    } else if (type == "response.function_call_arguments.done") {
      if (j->contains("arguments") && (*j)["arguments"].is_string())
        arguments[index] = (*j)["arguments"].get<std::string>();
    } else if (type == "response.output_text.delta") {
      std::string s = j->value("delta", "");
      if (!s.empty() && callbacks->on_text) callbacks->on_text(s);
    } else if (type == "response.reasoning_summary_text.delta" ||
               type == "response.reasoning_text.delta") {
      std::string s = j->value("delta", "");
      if (!s.empty() && callbacks->on_reasoning) callbacks->on_reasoning(s);
    } else if (type == "response.output_item.done") {
      items[index] = j->value("item", json::object());
    } else if (type == "response.completed" || type == "response.incomplete" ||
               type == "response.failed") {
      final_response = j->value("response", json::object());
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
    if (!final_response.contains("output") || !final_response["output"].is_array() ||
        final_response["output"].empty()) {
      json output = json::array();
      for (auto& [index, item] : items) {
        if (item.value("type", "") == "function_call" && arguments.count(index) &&
            item.value("arguments", "").empty())
          item["arguments"] = arguments[index];
        output.push_back(item);
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
    out = detail::contained("openai-responses",
                            [&] { return detail::responses_decode(*j, req, tools->names); });
  } else {
    stream_state state{.req = &req, .names = &tools->names, .callbacks = &callbacks};
    http::sse_parser parser({.max_event_bytes = options_.max_event_bytes});
    auto handler = [&](const http::sse_event& ev) {
      try {
        state.on_event(ev);
      } catch (const json::exception& e) {  // never through libcurl's callback
        if (!state.failure) state.failure = detail::shape_error("openai-responses", e);
      }
    };
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
    out = detail::contained("openai-responses", [&] { return state.finish(); });
  }
  if (out) detail::apply_price(out->usage, options_.price);
  return out;
}

}  // namespace tooluse::llm
