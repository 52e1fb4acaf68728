// The Anthropic Messages adapter: request building, the JSON answer and the SSE stream.
#include "tooluse/llm/anthropic_messages.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "anthropic_wire.hpp"
#include "tooluse/http/sse.hpp"

namespace tooluse::llm {
namespace {

// stream_state assembles content blocks by their index; tool input from input_json_delta.
struct stream_state {
  const schema::name_map* names = nullptr;
  const stream_callbacks* callbacks = nullptr;
  struct block {
    json start;  // content_block_start's block, as sent
    std::string kind, id, name;  // its type, id and name
    std::string text, partial_json, thinking, signature;
  };
  std::map<int, block> blocks;
  chat_response out;
  bool stopped = false;
  std::string stop_reason;
  std::optional<error> failure;

  void on_event(const http::sse_event& ev) {
    if (failure) return;
    auto j = parse_json(ev.data);
    if (!j || !j->is_object()) {
      failure = error{errc::protocol_error,
                      "anthropic: stream event is not JSON: " + ev.data.substr(0, 200)};
      return;
    }
    auto e = detail::decode_answer<detail::anthropic_wire::event>(*j, "anthropic", "event");
    if (!e) {
      failure = e.error();
      return;
    }
    std::string type = e->type.value_or(ev.event);
    if (type == "message_start") {
      if (!e->message) return;
      out.id = e->message->id.value_or("");
      out.model = e->message->model.value_or("");
      if (e->message->usage) detail::anthropic_usage(*e->message->usage, out.usage);
    } else if (type == "content_block_start") {
      auto& b = blocks[e->index.value_or(0)];
      b.start = e->content_block.value_or(json::object());
      auto start = detail::decode_answer<detail::anthropic_wire::content_block>(
          b.start, "anthropic", "event.content_block");
      if (!start) {
        failure = start.error();
        return;
      }
      b.kind = start->type.value_or("");
      b.id = start->id.value_or("");
      b.name = start->name.value_or("");
      if (b.kind == "tool_use" && callbacks->on_tool_call_start)
        callbacks->on_tool_call_start(b.id, names->original_name(b.name).value_or(b.name));
    } else if (type == "content_block_delta") {
      if (e->delta) on_delta(blocks[e->index.value_or(0)], *e->delta);
    } else if (type == "message_delta") {
      if (e->delta && e->delta->stop_reason) stop_reason = *e->delta->stop_reason;
      if (e->usage) detail::anthropic_usage(*e->usage, out.usage);
    } else if (type == "message_stop") {
      stopped = true;
    } else if (type == "error") {
      failure = error{errc::http_error,
                      "anthropic: error in stream: " + detail::provider_error_message(ev.data)};
    }
  }

  void on_delta(block& b, const detail::anthropic_wire::delta& d) {
    std::string type = d.type.value_or("");
    if (type == "text_delta") {
      std::string s = d.text.value_or("");
      b.text += s;
      if (!s.empty() && callbacks->on_text) callbacks->on_text(s);
    } else if (type == "input_json_delta") {
      b.partial_json += d.partial_json.value_or("");
    } else if (type == "thinking_delta") {
      std::string s = d.thinking.value_or("");
      b.thinking += s;
      if (!s.empty() && callbacks->on_reasoning) callbacks->on_reasoning(s);
    } else if (type == "signature_delta") {
      b.signature += d.signature.value_or("");
    }
  }

  static json stream_block(const block& b) {
    const std::string& type = b.kind;
    json j = b.start;
    if (type == "text") j["text"] = b.text;
    if (type == "thinking")
      j = {{"type", "thinking"}, {"thinking", b.thinking}, {"signature", b.signature}};
    if (type == "tool_use") {
      auto input = parse_json(b.partial_json.empty() ? "{}" : b.partial_json);
      j["input"] = input ? *input : json::object();
    }
    return j;
  }

  result<chat_response> finish() {
    if (failure) return fail(*failure);
    if (!stopped && stop_reason.empty())
      return fail(errc::protocol_error,
                  "anthropic: the stream ended before the answer was complete (no message_stop); "
                  "the connection was cut or the server failed mid-answer");
    out.reply.role = role::assistant;
    std::string text;
    // content mirrors the blocks as a JSON answer would list them; it is kept to be echoed when
    // the provider ran its own tools (tool search) in this turn.
    json content = json::array();
    bool server_blocks = false;
    for (auto& [index, b] : blocks) {
      const std::string& type = b.kind;
      content.push_back(stream_block(b));
      if (type == "text") {
        text += b.text;
      } else if (type == "thinking") {
        out.reply.reasoning += b.thinking;
        out.reply.extras["anthropic"]["thinking_blocks"].push_back(
            {{"type", "thinking"}, {"thinking", b.thinking}, {"signature", b.signature}});
      } else if (type == "redacted_thinking") {
        out.reply.extras["anthropic"]["thinking_blocks"].push_back(b.start);
      } else if (type == "server_tool_use" || type.find("tool_result") != std::string::npos) {
        json block = b.start;
        if (!b.partial_json.empty())
          if (auto input = parse_json(b.partial_json)) block["input"] = *input;
        server_blocks = true;
        content.back() = std::move(block);  // with its streamed input, in place of the start
        continue;
      } else if (type == "tool_use") {
        // Parse at the block's end; an empty concatenation means {}.
        std::string raw = b.partial_json.empty() ? "{}" : b.partial_json;
        out.reply.tool_calls.push_back(
            tool_call::from_text(b.id, names->original_name(b.name).value_or(b.name), raw));
      }
    }
    if (!text.empty()) out.reply.content.push_back(content_part::text_part(text));
    if (server_blocks) out.reply.extras["anthropic"]["content"] = std::move(content);
    out.raw_finish = stop_reason.empty() ? "end_turn" : stop_reason;
    out.finish = detail::anthropic_finish(out.raw_finish);
    return std::move(out);
  }
};

}  // namespace

anthropic_messages::anthropic_messages(provider_options options) : options_(std::move(options)) {
  if (options_.base_url.empty())
    throw std::invalid_argument("anthropic_messages: base_url is empty");
  if (options_.model.empty()) throw std::invalid_argument("anthropic_messages: model is empty");
}

namespace {

// anthropic_tools: Anthropic has no allowed-tools mode, so only the allowed tools are sent; with
// native tool search, its tool goes first and the deferred tools are marked defer_loading.
result<detail::wire_tools> anthropic_tools(const chat_request& req) {
  auto tools = detail::export_wire_tools(detail::allowed_subset(req.tools, req.allowed_tools),
                                         schema::export_target::anthropic);
  if (!tools || (req.native_tool_search.empty() && req.deferred_tools.empty())) return tools;
  json out = json::array();
  if (!req.native_tool_search.empty()) {
    std::string kind = req.native_tool_search == "regex" ? "regex" : "bm25";
    out.push_back(
        {{"type", "tool_search_tool_" + kind + "_20251119"}, {"name", "tool_search_tool_" + kind}});
  }
  for (auto& t : tools->tools) {
    std::string name = tools->names.original_name(t.value("name", "")).value_or("");
    if (std::find(req.deferred_tools.begin(), req.deferred_tools.end(), name) !=
        req.deferred_tools.end())
      t["defer_loading"] = true;
    out.push_back(t);
  }
  tools->tools = std::move(out);
  return tools;
}

}  // namespace

result<json> anthropic_messages::encode_request(const chat_request& req) const {
  auto tools = anthropic_tools(req);
  if (!tools) return fail(tools.error());
  json body = {{"model", options_.model}, {"max_tokens", req.max_tokens.value_or(4096)}};
  std::string system;
  for (const auto& m : req.messages)
    if (m.role == role::system) system += (system.empty() ? "" : "\n\n") + m.text();
  if (!system.empty()) body["system"] = system;
  body["messages"] = detail::anthropic_messages_json(req.messages, tools->names);
  if (!req.tools.empty()) {
    body["tools"] = tools->tools;
    if (req.choice.what != tool_choice::mode::automatic ||
        (req.parallel_tool_calls && !*req.parallel_tool_calls))
      body["tool_choice"] =
          detail::anthropic_tool_choice(req.choice, req.parallel_tool_calls, tools->names);
  }
  if (req.temperature) body["temperature"] = *req.temperature;
  if (req.stream) body["stream"] = true;
  return body;
}

result<chat_response> anthropic_messages::complete(const chat_request& req,
                                                   const stream_callbacks& callbacks,
                                                   std::stop_token stop) {
  auto tools = anthropic_tools(req);
  if (!tools) return fail(tools.error());
  auto body = encode_request(req);
  if (!body) return fail(body.error());
  http::request hreq{
      .method = "POST",
      .url = detail::join_url(options_.base_url, "v1/messages"),
      .headers = {{"Content-Type", "application/json"}, {"anthropic-version", "2023-06-01"}},
      .body = dump_json(*body)};
  if (req.stream) hreq.headers.push_back({"Accept", "text/event-stream"});
  if (!req.native_tool_search.empty() || !req.deferred_tools.empty())
    hreq.headers.push_back({"anthropic-beta", "advanced-tool-use-2025-11-20"});
  if (!options_.api_key.empty()) hreq.headers.push_back({"x-api-key", options_.api_key});
  for (const auto& h : options_.extra_headers) hreq.headers.push_back(h);

  result<chat_response> out = fail(errc::internal, "unreachable");
  if (!req.stream) {
    auto res = detail::send_with_retry(options_, "anthropic", std::move(hreq), {}, stop);
    if (!res) return fail(res.error());
    auto j = parse_json(res->body);
    if (!j)
      return fail(errc::protocol_error, "anthropic: response is not JSON: " + j.error().message);
    out = detail::anthropic_decode(*j, tools->names);
  } else {
    stream_state state{.names = &tools->names, .callbacks = &callbacks};
    http::sse_parser parser({.max_event_bytes = options_.max_event_bytes});
    auto handler = [&](const http::sse_event& ev) { state.on_event(ev); };
    detail::exchange_hooks hooks{.on_body = [&](std::string_view chunk) {
      if (auto st = parser.feed(chunk, handler); !st && !state.failure) {
        state.failure = st.error();
        const std::string from = "http::sse_limits::max_event_bytes";
        if (auto pos = state.failure->message.find(from); pos != std::string::npos)
          state.failure->message.replace(pos, from.size(), "llm::provider_options::max_event_bytes");
        state.failure->message = "anthropic: " + state.failure->message;
      }
      return !state.failure;  // a broken or oversized stream is abandoned at once
    }};
    auto res = detail::send_with_retry(options_, "anthropic", std::move(hreq), hooks, stop);
    if (!res && state.failure) return fail(*state.failure);
    if (!res) return fail(res.error());
    out = state.finish();
  }
  if (out) out->usage.requests = 1;
  if (out) detail::apply_price(out->usage, options_.price);
  return out;
}

}  // namespace tooluse::llm
