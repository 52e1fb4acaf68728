// The OpenAI Chat Completions adapter: request building, the JSON answer and the SSE stream.
#include "tooluse/llm/openai_chat.hpp"

#include <map>
#include <stdexcept>

#include "openai_wire.hpp"
#include "tooluse/http/sse.hpp"

namespace tooluse::llm {
namespace {

// stream_state assembles a streamed answer: tool-call fragments keyed by their index.
struct stream_state {
  const chat_request* req = nullptr;
  const schema::name_map* names = nullptr;
  const stream_callbacks* callbacks = nullptr;
  struct partial_call {
    std::string id, name, arguments;
  };
  std::map<int, partial_call> calls;
  std::string text, reasoning, finish, model, id;
  usage use;
  bool done = false;
  std::optional<error> failure;

  void on_event(const http::sse_event& ev) {
    if (failure) return;
    if (ev.data == "[DONE]") {
      done = true;
      return;
    }
    auto j = parse_json(ev.data);
    if (!j || !j->is_object()) {
      failure = error{errc::protocol_error,
                      "openai: stream event is not JSON: " + ev.data.substr(0, 200)};
      return;
    }
    auto chunk = detail::decode_answer<detail::openai_wire::completion>(*j, "openai", "chunk");
    if (!chunk) {
      failure = chunk.error();
      return;
    }
    if (chunk->error) {
      failure = error{errc::http_error,
                      "openai: error in stream: " + detail::provider_error_message(ev.data)};
      return;
    }
    if (model.empty()) model = chunk->model.value_or("");
    if (id.empty()) id = chunk->id.value_or("");
    if (chunk->usage) use = detail::openai_usage(*chunk->usage);
    if (!chunk->choices) return;
    for (const auto& choice : *chunk->choices) {
      if (choice.index.value_or(0) != 0) continue;  // n = 1
      if (choice.delta) on_delta(*choice.delta);
      if (choice.finish_reason) finish = *choice.finish_reason;
    }
  }

  void on_delta(const detail::openai_wire::message& delta) {
    if (delta.content && delta.content->is_string()) {
      const auto& s = delta.content->get_ref<const std::string&>();
      text += s;
      if (!s.empty() && callbacks->on_text) callbacks->on_text(s);
    }
    for (const auto* part : {&delta.reasoning_content, &delta.reasoning}) {
      if (!*part) continue;
      const std::string& s = **part;
      reasoning += s;
      if (!s.empty() && callbacks->on_reasoning) callbacks->on_reasoning(s);
    }
    if (!delta.tool_calls) return;
    for (const auto& frag : *delta.tool_calls) {
      auto& c = calls[frag.index.value_or(0)];
      if (frag.id) c.id = *frag.id;
      if (!frag.function) continue;
      const auto& fn = *frag.function;
      if (fn.name && c.name.empty()) {
        c.name = *fn.name;
        if (callbacks->on_tool_call_start)
          callbacks->on_tool_call_start(c.id, names->original_name(c.name).value_or(c.name));
      }
      if (fn.arguments && fn.arguments->is_string())
        c.arguments += fn.arguments->get_ref<const std::string&>();
    }
  }

  result<chat_response> finish_response() {
    if (failure) return fail(*failure);
    if (finish.empty())
      return fail(errc::protocol_error,
                  "openai: the stream ended before the answer was complete (no finish_reason); "
                  "the connection was cut or the server failed mid-answer");
    chat_response out;
    out.reply.role = role::assistant;
    if (!text.empty()) out.reply.content.push_back(content_part::text_part(text));
    out.reply.reasoning = reasoning;
    for (auto& [index, c] : calls)
      out.reply.tool_calls.push_back(detail::decode_call(c.id, c.name, c.arguments, *req, *names));
    out.raw_finish = finish;
    out.finish = detail::openai_finish(finish);
    out.usage = use;
    out.model = model;
    out.id = id;
    return out;
  }
};

}  // namespace

openai_chat::openai_chat(provider_options options) : options_(std::move(options)) {
  if (options_.base_url.empty()) throw std::invalid_argument("openai_chat: base_url is empty");
  if (options_.model.empty()) throw std::invalid_argument("openai_chat: model is empty");
}

result<json> openai_chat::encode_request(const chat_request& req) const {
  auto tools = detail::export_wire_tools(
      req.tools, req.strict ? schema::export_target::openai_strict : schema::export_target::openai);
  if (!tools) return fail(tools.error());
  json body = {{"model", options_.model},
               {"messages", detail::openai_messages(req.messages, tools->names)}};
  if (!req.tools.empty()) {
    body["tools"] = tools->tools;
    if (!req.allowed_tools.empty() && req.choice.what != tool_choice::mode::none &&
        req.choice.what != tool_choice::mode::named) {
      json allowed = json::array();
      for (const auto& n : req.allowed_tools)
        allowed.push_back({{"type", "function"},
                           {"function", {{"name", tools->names.provider_name(n).value_or(n)}}}});
      body["tool_choice"] = {
          {"type", "allowed_tools"},
          {"allowed_tools",
           {{"mode", req.choice.what == tool_choice::mode::required ? "required" : "auto"},
            {"tools", allowed}}}};
    } else if (req.choice.what != tool_choice::mode::automatic) {
      body["tool_choice"] = detail::openai_tool_choice(req.choice, tools->names);
    }
    if (req.parallel_tool_calls) body["parallel_tool_calls"] = *req.parallel_tool_calls;
  }
  if (req.max_tokens) body["max_tokens"] = *req.max_tokens;
  if (req.temperature) body["temperature"] = *req.temperature;
  if (req.stream) {
    body["stream"] = true;
    body["stream_options"] = {{"include_usage", true}};
  }
  return body;
}

result<chat_response> openai_chat::complete(const chat_request& req,
                                            const stream_callbacks& callbacks,
                                            std::stop_token stop) {
  auto tools = detail::export_wire_tools(
      req.tools, req.strict ? schema::export_target::openai_strict : schema::export_target::openai);
  if (!tools) return fail(tools.error());
  auto body = encode_request(req);
  if (!body) return fail(body.error());
  http::request hreq = detail::openai_http_request(options_, "chat/completions", *body, req.stream);

  result<chat_response> out = fail(errc::internal, "unreachable");
  if (!req.stream) {
    auto res = detail::send_with_retry(options_, "openai", std::move(hreq), {}, stop);
    if (!res) return fail(res.error());
    auto j = parse_json(res->body);
    if (!j) return fail(errc::protocol_error, "openai: response is not JSON: " + j.error().message);
    out = detail::openai_decode(*j, req, tools->names);
  } else {
    stream_state state{.req = &req, .names = &tools->names, .callbacks = &callbacks};
    http::sse_parser parser({.max_event_bytes = options_.max_event_bytes});
    auto handler = [&](const http::sse_event& ev) { state.on_event(ev); };
    detail::exchange_hooks hooks{.on_body = [&](std::string_view chunk) {
      if (auto st = parser.feed(chunk, handler); !st && !state.failure) {
        state.failure = st.error();
        const std::string from = "http::sse_limits::max_event_bytes";
        if (auto pos = state.failure->message.find(from); pos != std::string::npos)
          state.failure->message.replace(pos, from.size(),
                                         "llm::provider_options::max_event_bytes");
        state.failure->message = "openai: " + state.failure->message;
      }
      return !state.failure;  // a broken or oversized stream is abandoned at once
    }};
    auto res = detail::send_with_retry(options_, "openai", std::move(hreq), hooks, stop);
    if (!res && state.failure) return fail(*state.failure);
    if (!res) return fail(res.error());
    out = state.finish_response();
  }
  if (out) out->usage.requests = 1;
  if (out) detail::apply_price(out->usage, options_.price);
  return out;
}

}  // namespace tooluse::llm
