// Encoding a chat_request for the Anthropic Messages API and decoding its JSON answer.
#include "anthropic_wire.hpp"

namespace tooluse::llm::detail {
namespace {

json part_json(const content_part& p) {
  if (p.type == content_part::kind::text) return {{"type", "text"}, {"text", p.text}};
  if (!p.url.empty()) return {{"type", "image"}, {"source", {{"type", "url"}, {"url", p.url}}}};
  return {{"type", "image"},
          {"source", {{"type", "base64"}, {"media_type", p.mime_type}, {"data", p.data}}}};
}

json content_json(const message& m) {
  if (m.content.size() == 1 && m.content[0].type == content_part::kind::text)
    return m.content[0].text;
  json out = json::array();
  for (const auto& p : m.content) out.push_back(part_json(p));
  return out;
}

json assistant_json(const message& m, const schema::name_map& names) {
  // A turn in which the provider ran its own tools (tool search) goes back exactly as it came.
  if (m.extras.contains("anthropic") && m.extras["anthropic"].contains("content"))
    return {{"role", "assistant"}, {"content", m.extras["anthropic"]["content"]}};
  json blocks = json::array();
  // Thinking blocks must go back unchanged (with their signatures) in a tool-use turn.
  if (m.extras.contains("anthropic") && m.extras["anthropic"].contains("thinking_blocks"))
    for (const auto& b : m.extras["anthropic"]["thinking_blocks"]) blocks.push_back(b);
  for (const auto& p : m.content) blocks.push_back(part_json(p));
  for (const auto& c : m.tool_calls)
    blocks.push_back({{"type", "tool_use"},
                      {"id", c.id},
                      {"name", names.provider_name(c.name).value_or(c.name)},
                      {"input", c.arguments.is_object() ? c.arguments : json::object()}});
  return {{"role", "assistant"}, {"content", blocks}};
}

json tool_result_json(const message& m) {
  json block = {
      {"type", "tool_result"}, {"tool_use_id", m.tool_call_id}, {"content", content_json(m)}};
  if (m.content.empty()) block["content"] = "";
  if (m.is_error) block["is_error"] = true;
  return block;
}

}  // namespace

json anthropic_messages_json(const std::vector<message>& messages, const schema::name_map& names) {
  role_encoders by_role;  // no system: it is the request's top-level "system"
  by_role.user = [](json& out, const message& m) {
    out.push_back({{"role", "user"}, {"content", content_json(m)}});
  };
  by_role.assistant = [&](json& out, const message& m) { out.push_back(assistant_json(m, names)); };
  by_role.tool = [](json& out, const message& m) {
    add_tool_result(out, "content", tool_result_json(m), [](const json& block) {
      return block.is_object() && block.contains("type") && block["type"] == "tool_result";
    });
  };
  return encode_conversation(messages, by_role);
}

json anthropic_tool_choice(const tool_choice& choice, std::optional<bool> parallel,
                           const schema::name_map& names) {
  json j;
  switch (choice.what) {
    case tool_choice::mode::automatic:
      j = {{"type", "auto"}};
      break;
    case tool_choice::mode::none:
      return {{"type", "none"}};
    case tool_choice::mode::required:
      j = {{"type", "any"}};
      break;
    case tool_choice::mode::named:
      j = {{"type", "tool"}, {"name", names.provider_name(choice.name).value_or(choice.name)}};
      break;
  }
  if (parallel && !*parallel) j["disable_parallel_tool_use"] = true;
  return j;
}

finish_reason anthropic_finish(const std::string& raw) {
  if (raw == "end_turn" || raw == "stop_sequence") return finish_reason::stop;
  if (raw == "tool_use") return finish_reason::tool_calls;
  if (raw == "max_tokens") return finish_reason::length;
  if (raw == "refusal") return finish_reason::content_filter;
  if (raw == "pause_turn") return finish_reason::pause;
  if (raw == "model_context_window_exceeded") return finish_reason::context_window;
  return finish_reason::other;
}

void anthropic_usage(const anthropic_wire::usage& u, usage& out) {
  if (u.cache_read_input_tokens) out.cache_read_tokens = *u.cache_read_input_tokens;
  if (u.cache_creation_input_tokens) out.cache_write_tokens = *u.cache_creation_input_tokens;
  if (u.output_tokens) out.output_tokens = *u.output_tokens;
  // Anthropic's input_tokens leaves out the cached ones; tooluse counts every prompt token.
  if (u.input_tokens)
    out.input_tokens = *u.input_tokens + out.cache_read_tokens + out.cache_write_tokens;
}

tool_call anthropic_call(const anthropic_wire::content_block& block,
                         const schema::name_map& names) {
  std::string wire = block.name.value_or("");
  json input = block.input.value_or(json::object());
  tool_call c{.id = block.id.value_or(""),
              .name = names.original_name(wire).value_or(wire),
              .raw_arguments = dump_json(input),
              .arguments = input};
  return c;
}

result<chat_response> anthropic_decode(const json& body, const schema::name_map& names) {
  if (!body.is_object() || !body.contains("content") || !body["content"].is_array())
    return fail(errc::protocol_error,
                "anthropic: response has no content array: " + dump_json(body).substr(0, 300));
  auto wire = decode_answer<anthropic_wire::message>(body, "anthropic", "response");
  if (!wire) return fail(wire.error());
  const json& raw_blocks = body["content"];  // echoed as sent
  chat_response out;
  out.reply.role = role::assistant;
  std::string text;
  bool server_blocks = false;
  for (std::size_t i = 0; i < wire->content->size(); ++i) {
    const anthropic_wire::content_block& b = (*wire->content)[i];
    std::string type = b.type.value_or("");
    if (type == "text") {
      text += b.text.value_or("");
    } else if (type == "thinking" || type == "redacted_thinking") {
      out.reply.reasoning += b.thinking.value_or("");
      out.reply.extras["anthropic"]["thinking_blocks"].push_back(raw_blocks[i]);
    } else if (type == "tool_use") {
      out.reply.tool_calls.push_back(anthropic_call(b, names));
    } else {
      server_blocks = true;  // server_tool_use, tool_search_tool_result, ...
    }
  }
  if (server_blocks) out.reply.extras["anthropic"]["content"] = raw_blocks;
  if (!text.empty()) out.reply.content.push_back(content_part::text_part(text));
  out.raw_finish = wire->stop_reason.value_or("end_turn");
  out.finish = anthropic_finish(out.raw_finish);
  if (wire->usage) anthropic_usage(*wire->usage, out.usage);
  out.model = wire->model.value_or("");
  out.id = wire->id.value_or("");
  return out;
}

}  // namespace tooluse::llm::detail
