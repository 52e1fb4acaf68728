// The Anthropic Messages adapter: request building, the JSON answer and the SSE stream.
#include "tooluse/llm/anthropic_messages.hpp"

#include <algorithm>
#include <map>

#include "anthropic_wire.hpp"
#include "exchange.hpp"

namespace tooluse::llm {
namespace anthropic_messages_impl {

// stream_state assembles content blocks by their index; tool input from input_json_delta.
struct stream_state final : detail::stream_decoder {
  struct block {
    json start;  // content_block_start's block, as sent
    std::string kind, id, name;  // its type, id and name
    std::string text, partial_json, thinking, signature;
  };
  std::map<int, block> blocks;
  chat_response out;
  bool stopped = false;
  std::string stop_reason;

  void on_event(const http::sse_event& ev) override {
    if (failure) return;
    auto e = decode_event<detail::anthropic_wire::event>(ev, "event");
    if (!e) return;
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
      error_event(ev);
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

  result<chat_response> assemble() override {
    if (failure) return fail(*failure);
    if (!stopped && stop_reason.empty()) return fail(cut_short("message_stop"));
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

}  // namespace anthropic_messages_impl

namespace anthropic_messages_impl {

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

json encode_body(const provider_options& options, const chat_request& req,
                 const detail::wire_tools& tools) {
  json body = {{"model", options.model}, {"max_tokens", req.max_tokens.value_or(4096)}};
  std::string system = detail::system_text(req.messages);
  if (!system.empty()) body["system"] = system;
  body["messages"] = detail::anthropic_messages_json(req.messages, tools.names);
  if (!req.tools.empty()) {
    detail::place_tools(body, tools);
    if (req.choice.what != tool_choice::mode::automatic ||
        (req.parallel_tool_calls && !*req.parallel_tool_calls))
      body["tool_choice"] =
          detail::anthropic_tool_choice(req.choice, req.parallel_tool_calls, tools.names);
  }
  if (req.temperature) body["temperature"] = *req.temperature;
  if (req.stream) body["stream"] = true;
  return body;
}

std::vector<http::header> headers(const provider_options& options, const chat_request& req) {
  std::vector<http::header> out{{"anthropic-version", "2023-06-01"}};
  if (!req.native_tool_search.empty() || !req.deferred_tools.empty())
    out.push_back({"anthropic-beta", "advanced-tool-use-2025-11-20"});
  if (!options.api_key.empty()) out.push_back({"x-api-key", options.api_key});
  return out;
}

result<chat_response> decode_body(const json& body, const chat_request&,
                                  const schema::name_map& names) {
  return detail::anthropic_decode(body, names);
}

const detail::provider_wire wire{
    .who = "anthropic", .tools = anthropic_tools, .body = encode_body, .path = "v1/messages",
    .headers = headers, .decode = decode_body, .stream = detail::decoder_of<stream_state>};

}  // namespace anthropic_messages_impl

anthropic_messages::anthropic_messages(provider_options options)
    : http_adapter(std::move(options), anthropic_messages_impl::wire, "anthropic_messages") {}

}  // namespace tooluse::llm
