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

namespace {

// exchange is one request to the model until its answer: the tool-name map the answer is
// decoded with and, for a stream, the parser and the answer being assembled. The blocking
// and the asynchronous path share it.
struct exchange {
  exchange(const chat_request& r, const stream_callbacks& cb, detail::wire_tools t,
           std::size_t max_event_bytes)
      : req(&r), callbacks(&cb), tools(std::move(t)), parser({.max_event_bytes = max_event_bytes}) {
    state = stream_state{.req = req, .names = &tools.names, .callbacks = callbacks};
  }
  exchange(const exchange&) = delete;
  exchange& operator=(const exchange&) = delete;

  const chat_request* req;
  const stream_callbacks* callbacks;
  detail::wire_tools tools;
  http::sse_parser parser;
  stream_state state;

  detail::exchange_hooks hooks() {
    if (!req->stream) return {};
    return {.on_body = [this](std::string_view chunk) {
      auto handler = [this](const http::sse_event& ev) { state.on_event(ev); };
      if (auto st = parser.feed(chunk, handler); !st && !state.failure) {
        state.failure = st.error();
        const std::string from = "http::sse_limits::max_event_bytes";
        if (auto pos = state.failure->message.find(from); pos != std::string::npos)
          state.failure->message.replace(pos, from.size(), "llm::provider_options::max_event_bytes");
        state.failure->message = "openai: " + state.failure->message;
      }
      return !state.failure;  // a broken or oversized stream is abandoned at once
    }};
  }

  result<chat_response> finish(result<http::response> res, const provider_options& options) {
    result<chat_response> out = fail(errc::internal, "unreachable");
    if (!req->stream) {
      if (!res) return fail(res.error());
      auto j = parse_json(res->body);
      if (!j) return fail(errc::protocol_error, "openai: response is not JSON: " + j.error().message);
      out = detail::openai_decode(*j, *req, tools.names);
    } else {
      if (!res && state.failure) return fail(*state.failure);
      if (!res) return fail(res.error());
      out = state.finish_response();
    }
    if (out) out->usage.requests = 1;
    if (out) detail::apply_price(out->usage, options.price);
    return out;
  }
};

}  // namespace

result<chat_response> openai_chat::complete(const chat_request& req,
                                            const stream_callbacks& callbacks,
                                            std::stop_token stop) {
  auto tools = detail::export_wire_tools(
      req.tools, req.strict ? schema::export_target::openai_strict : schema::export_target::openai);
  if (!tools) return fail(tools.error());
  auto body = encode_request(req);
  if (!body) return fail(body.error());
  http::request hreq = detail::openai_http_request(options_, "chat/completions", *body, req.stream);
  exchange x(req, callbacks, std::move(*tools), options_.max_event_bytes);
  auto res = detail::send_with_retry(options_, "openai", std::move(hreq), x.hooks(), stop);
  return x.finish(std::move(res), options_);
}

void openai_chat::complete_async(const chat_request& req, const stream_callbacks& callbacks,
                                 std::stop_token stop, chat_completion done) {
  auto tools = detail::export_wire_tools(
      req.tools, req.strict ? schema::export_target::openai_strict : schema::export_target::openai);
  if (!tools) return done(fail(tools.error()));
  auto body = encode_request(req);
  if (!body) return done(fail(body.error()));
  http::request hreq = detail::openai_http_request(options_, "chat/completions", *body, req.stream);
  // The request and callbacks are the caller's only until this returns: keep copies.
  struct owned {
    owned(const chat_request& r, const stream_callbacks& cb, detail::wire_tools t, std::size_t m)
        : req(r), callbacks(cb), x(req, callbacks, std::move(t), m) {}
    chat_request req;
    stream_callbacks callbacks;
    exchange x;
  };
  auto o = std::make_shared<owned>(req, callbacks, std::move(*tools), options_.max_event_bytes);
  detail::send_with_retry_async(
      options_, "openai", std::move(hreq), o->x.hooks(), std::move(stop),
      [this, o, done = std::move(done)](result<http::response> res) {
        done(o->x.finish(std::move(res), options_));
      });
}

}  // namespace tooluse::llm
