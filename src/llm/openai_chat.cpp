// The OpenAI Chat Completions adapter: request building, the JSON answer and the SSE stream.
#include "tooluse/llm/openai_chat.hpp"

#include <map>

#include "exchange.hpp"
#include "openai_wire.hpp"

namespace tooluse::llm {
namespace openai_chat_impl {

// stream_state assembles a streamed answer: tool-call fragments keyed by their index.
struct stream_state final : detail::stream_decoder {
  struct partial_call {
    std::string id, name, arguments;
  };
  std::map<int, partial_call> calls;
  std::string text, reasoning, finish, model, id;
  usage use;
  bool done = false;

  void on_event(const http::sse_event& ev) override {
    if (failure) return;
    if (ev.data == "[DONE]") {
      done = true;
      return;
    }
    auto chunk = decode_event<detail::openai_wire::completion>(ev, "chunk");
    if (!chunk) return;
    if (chunk->error) return error_event(ev);
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

  result<chat_response> assemble() override {
    if (failure) return fail(*failure);
    if (finish.empty()) return fail(cut_short("finish_reason"));
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

}  // namespace openai_chat_impl

namespace openai_chat_impl {

result<detail::wire_tools> chat_tools(const chat_request& req) {
  return detail::export_wire_tools(
      req.tools, req.strict ? schema::export_target::openai_strict : schema::export_target::openai);
}

json encode_body(const provider_options& options, const chat_request& req,
                 const detail::wire_tools& tools) {
  json body = {{"model", options.model},
               {"messages", detail::openai_messages(req.messages, tools.names)}};
  if (!req.tools.empty()) {
    detail::place_tools(body, tools);
    if (!req.allowed_tools.empty() && req.choice.what != tool_choice::mode::none &&
        req.choice.what != tool_choice::mode::named) {
      json allowed = json::array();
      for (const auto& n : req.allowed_tools)
        allowed.push_back({{"type", "function"},
                           {"function", {{"name", tools.names.provider_name(n).value_or(n)}}}});
      body["tool_choice"] = {
          {"type", "allowed_tools"},
          {"allowed_tools",
           {{"mode", req.choice.what == tool_choice::mode::required ? "required" : "auto"},
            {"tools", allowed}}}};
    } else if (req.choice.what != tool_choice::mode::automatic) {
      body["tool_choice"] = detail::openai_tool_choice(req.choice, tools.names);
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

const detail::provider_wire wire{
    .who = "openai", .tools = chat_tools, .body = encode_body, .path = "chat/completions",
    .headers = detail::bearer_key, .decode = detail::openai_decode,
    .stream = detail::decoder_of<stream_state>};

}  // namespace openai_chat_impl

openai_chat::openai_chat(provider_options options)
    : http_adapter(std::move(options), openai_chat_impl::wire, "openai_chat") {}

}  // namespace tooluse::llm
