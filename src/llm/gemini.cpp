// The Gemini adapter: request building, the JSON answer and the SSE stream (alt=sse).
#include "tooluse/llm/gemini.hpp"

#include <stdexcept>

#include "gemini_wire.hpp"
#include "tooluse/http/sse.hpp"

namespace tooluse::llm {
namespace {

// plain_text: a part with a string text and at most a boolean thought, that nothing else
// (a thought signature, ...) keeps apart from its neighbours.
bool plain_text(const json& part) {
  auto text = part.find("text");
  if (text == part.end() || !text->is_string()) return false;
  for (auto it = part.begin(); it != part.end(); ++it)
    if (it.key() != "text" && !(it.key() == "thought" && it->is_boolean())) return false;
  return true;
}

// stream_state gathers the chunks of streamGenerateContent: each is a GenerateContentResponse
// with whole parts; text pieces are merged, everything else (function calls, thought
// signatures) kept as sent. The last chunks carry finishReason and usageMetadata.
struct stream_state {
  const stream_callbacks* callbacks = nullptr;
  const schema::name_map* names = nullptr;
  json parts = json::array();
  json last = json::object();
  std::string finish;
  json usage_metadata;
  std::optional<error> failure;

  void on_event(const http::sse_event& ev) {
    if (failure) return;
    auto j = parse_json(ev.data);
    if (!j || !j->is_object()) {
      failure = error{errc::protocol_error,
                      "gemini: stream event is not JSON: " + ev.data.substr(0, 200)};
      return;
    }
    auto chunk = detail::decode_answer<detail::gemini_wire::response>(*j, "gemini", "chunk");
    if (!chunk) {
      failure = chunk.error();
      return;
    }
    if (chunk->error) {
      failure = error{errc::http_error,
                      "gemini: error in stream: " + detail::provider_error_message(ev.data)};
      return;
    }
    if (chunk->usage_metadata) usage_metadata = tooluse::encode(*chunk->usage_metadata);
    if (chunk->model_version) last["modelVersion"] = *chunk->model_version;
    if (chunk->response_id) last["responseId"] = *chunk->response_id;
    if (!chunk->candidates || chunk->candidates->empty()) return;
    const detail::gemini_wire::candidate& cand = chunk->candidates->front();
    if (cand.finish_reason) finish = *cand.finish_reason;
    if (!cand.content || !cand.content->parts) return;
    // The parts as sent (thought signatures and all), beside their decoded form.
    const json& raw_parts = j->at("candidates").at(0).at("content").at("parts");
    for (std::size_t i = 0; i < cand.content->parts->size(); ++i)
      on_part((*cand.content->parts)[i], raw_parts[i]);
  }

  void on_part(const detail::gemini_wire::part& p, const json& raw) {
    if (p.text) {
      const std::string& s = *p.text;
      bool thought = p.thought.value_or(false);
      if (!s.empty()) {
        if (thought && callbacks->on_reasoning) callbacks->on_reasoning(s);
        if (!thought && callbacks->on_text) callbacks->on_text(s);
      }
      if (plain_text(raw) && s.empty()) return;  // an empty closing chunk carries nothing
      if (plain_text(raw) && !parts.empty() && plain_text(parts.back()) &&
          parts.back().value("thought", false) == thought) {
        parts.back()["text"] = parts.back()["text"].get<std::string>() + s;
        return;
      }
    } else if (p.function_call && callbacks->on_tool_call_start) {
      std::string wire = p.function_call->name.value_or("");
      callbacks->on_tool_call_start(p.function_call->id.value_or(""),
                                    names->original_name(wire).value_or(wire));
    }
    parts.push_back(raw);
  }

  result<chat_response> finish_response() {
    if (failure) return fail(*failure);
    if (finish.empty())
      return fail(errc::protocol_error,
                  "gemini: the stream ended before the answer was complete (no finishReason); "
                  "the connection was cut or the server failed mid-answer");
    json body = last;
    body["candidates"] = json::array(
        {{{"content", {{"role", "model"}, {"parts", parts}}}, {"finishReason", finish}}});
    if (!usage_metadata.is_null()) body["usageMetadata"] = usage_metadata;
    return detail::gemini_decode(body, *names);
  }
};

}  // namespace

gemini::gemini(provider_options options) : options_(std::move(options)) {
  if (options_.base_url.empty()) throw std::invalid_argument("gemini: base_url is empty");
  if (options_.model.empty()) throw std::invalid_argument("gemini: model is empty");
}

result<json> gemini::encode_request(const chat_request& req) const {
  auto tools = detail::export_wire_tools(req.tools, schema::export_target::gemini);
  if (!tools) return fail(tools.error());
  json body = {{"contents", detail::gemini_contents(req.messages, tools->names)}};
  std::string system;
  for (const auto& m : req.messages)
    if (m.role == role::system) system += (system.empty() ? "" : "\n\n") + m.text();
  if (!system.empty()) body["systemInstruction"] = {{"parts", json::array({{{"text", system}}})}};
  if (!req.tools.empty()) {
    body["tools"] = tools->tools;
    json config = detail::gemini_tool_config(req.choice, req.allowed_tools, tools->names);
    if (!config.is_null()) body["toolConfig"] = config;
  }
  json generation = json::object();
  if (req.max_tokens) generation["maxOutputTokens"] = *req.max_tokens;
  if (req.temperature) generation["temperature"] = *req.temperature;
  if (!generation.empty()) body["generationConfig"] = generation;
  return body;
}

result<chat_response> gemini::complete(const chat_request& req, const stream_callbacks& callbacks,
                                       std::stop_token stop) {
  auto tools = detail::export_wire_tools(req.tools, schema::export_target::gemini);
  if (!tools) return fail(tools.error());
  auto body = encode_request(req);
  if (!body) return fail(body.error());
  std::string model =
      options_.model.rfind("models/", 0) == 0 ? options_.model.substr(7) : options_.model;
  std::string path = "v1beta/models/" + model +
                     (req.stream ? ":streamGenerateContent?alt=sse" : ":generateContent");
  http::request hreq{.method = "POST",
                     .url = detail::join_url(options_.base_url, path),
                     .headers = {{"Content-Type", "application/json"}},
                     .body = dump_json(*body)};
  if (req.stream) hreq.headers.push_back({"Accept", "text/event-stream"});
  if (!options_.api_key.empty()) hreq.headers.push_back({"x-goog-api-key", options_.api_key});
  for (const auto& h : options_.extra_headers) hreq.headers.push_back(h);

  result<chat_response> out = fail(errc::internal, "unreachable");
  if (!req.stream) {
    auto res = detail::send_with_retry(options_, "gemini", std::move(hreq), {}, stop);
    if (!res) return fail(res.error());
    auto j = parse_json(res->body);
    if (!j) return fail(errc::protocol_error, "gemini: response is not JSON: " + j.error().message);
    out = detail::gemini_decode(*j, tools->names);
  } else {
    stream_state state{.callbacks = &callbacks, .names = &tools->names};
    http::sse_parser parser({.max_event_bytes = options_.max_event_bytes});
    auto handler = [&](const http::sse_event& ev) { state.on_event(ev); };
    detail::exchange_hooks hooks{.on_body = [&](std::string_view chunk) {
      if (auto st = parser.feed(chunk, handler); !st && !state.failure) {
        state.failure = st.error();
        state.failure->message = "gemini: " + state.failure->message;
      }
      return !state.failure;  // a broken or oversized stream is abandoned at once
    }};
    auto res = detail::send_with_retry(options_, "gemini", std::move(hreq), hooks, stop);
    if (!res && state.failure) return fail(*state.failure);
    if (!res) return fail(res.error());
    out = state.finish_response();
  }
  if (out) detail::apply_price(out->usage, options_.price);
  return out;
}

}  // namespace tooluse::llm
