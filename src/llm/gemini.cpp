// The Gemini adapter: request building, the JSON answer and the SSE stream (alt=sse).
#include "tooluse/llm/gemini.hpp"


#include "exchange.hpp"
#include "gemini_wire.hpp"

namespace tooluse::llm {
namespace gemini_impl {

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
struct stream_state final : detail::stream_decoder {
  json parts = json::array();
  json last = json::object();
  std::string finish;
  json usage_metadata;

  void on_event(const http::sse_event& ev) override {
    if (failure) return;
    json raw;
    auto chunk = decode_event<detail::gemini_wire::response>(ev, "chunk", &raw);
    if (!chunk) return;
    if (chunk->error) return error_event(ev);
    if (chunk->usage_metadata) usage_metadata = tooluse::encode(*chunk->usage_metadata);
    if (chunk->model_version) last["modelVersion"] = *chunk->model_version;
    if (chunk->response_id) last["responseId"] = *chunk->response_id;
    if (!chunk->candidates || chunk->candidates->empty()) return;
    const detail::gemini_wire::candidate& cand = chunk->candidates->front();
    if (cand.finish_reason) finish = *cand.finish_reason;
    if (!cand.content || !cand.content->parts) return;
    // The parts as sent (thought signatures and all), beside their decoded form.
    const json& raw_parts = raw.at("candidates").at(0).at("content").at("parts");
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

  result<chat_response> assemble() override {
    if (failure) return fail(*failure);
    if (finish.empty()) return fail(cut_short("finishReason"));
    json body = last;
    body["candidates"] = json::array(
        {{{"content", {{"role", "model"}, {"parts", parts}}}, {"finishReason", finish}}});
    if (!usage_metadata.is_null()) body["usageMetadata"] = usage_metadata;
    return detail::gemini_decode(body, *names);
  }
};

}  // namespace gemini_impl

namespace gemini_impl {

json encode_body(const provider_options&, const chat_request& req,
                 const detail::wire_tools& tools) {
  json body = {{"contents", detail::gemini_contents(req.messages, tools.names)}};
  std::string system = detail::system_text(req.messages);
  if (!system.empty()) body["systemInstruction"] = {{"parts", json::array({{{"text", system}}})}};
  if (!req.tools.empty()) {
    detail::place_tools(body, tools);
    json config = detail::gemini_tool_config(req.choice, req.allowed_tools, tools.names);
    if (!config.is_null()) body["toolConfig"] = config;
  }
  json generation = json::object();
  if (req.max_tokens) generation["maxOutputTokens"] = *req.max_tokens;
  if (req.temperature) generation["temperature"] = *req.temperature;
  if (!generation.empty()) body["generationConfig"] = generation;
  return body;
}

std::string path(const provider_options& options, const chat_request& req) {
  std::string model =
      options.model.rfind("models/", 0) == 0 ? options.model.substr(7) : options.model;
  return "v1beta/models/" + model +
         (req.stream ? ":streamGenerateContent?alt=sse" : ":generateContent");
}

std::vector<http::header> headers(const provider_options& options, const chat_request&) {
  if (options.api_key.empty()) return {};
  return {{"x-goog-api-key", options.api_key}};
}

result<detail::wire_tools> gemini_tools(const chat_request& req) {
  return detail::export_wire_tools(req.tools, schema::export_target::gemini);
}

result<chat_response> decode_body(const json& body, const chat_request&,
                                  const schema::name_map& names) {
  return detail::gemini_decode(body, names);
}

const detail::provider_wire wire{
    .who = "gemini", .tools = gemini_tools, .body = encode_body, .path_for = path,
    .headers = headers, .decode = decode_body, .stream = detail::decoder_of<stream_state>};

}  // namespace gemini_impl

gemini::gemini(provider_options options) : http_adapter(std::move(options), gemini_impl::wire, "gemini") {}

}  // namespace tooluse::llm
