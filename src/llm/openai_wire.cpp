// Encoding a chat_request as an OpenAI Chat Completions body, and decoding the JSON answer.
#include "openai_wire.hpp"

namespace tooluse::llm::detail {
namespace {

json chat_image_part(const std::string& url) {
  return {{"type", "image_url"}, {"image_url", {{"url", url}}}};
}

json tool_message(const message& m) {
  // OpenAI tool messages take text only, and have no error flag: errors are a text convention.
  return {{"role", "tool"},
          {"tool_call_id", m.tool_call_id},
          {"content", error_marked(tool_result_text(m), m.is_error)}};
}

json assistant_message(const message& m, const schema::name_map& names) {
  std::string text = m.text();
  json j = {{"role", "assistant"}, {"content", text.empty() ? json() : json(text)}};
  if (!m.tool_calls.empty()) {
    // DeepSeek's thinking mode needs its reasoning_content back within a tool-calling turn.
    if (!m.reasoning.empty()) j["reasoning_content"] = m.reasoning;
    json calls = json::array();
    for (const auto& c : m.tool_calls) {
      std::string wire = names.provider_name(c.name).value_or(c.name);
      calls.push_back({{"id", c.id}, {"type", "function"},
                       {"function", {{"name", wire}, {"arguments", c.raw_arguments}}}});
    }
    j["tool_calls"] = calls;
  }
  if (m.extras.contains("openai") && m.extras["openai"].is_object())
    for (const auto& [k, v] : m.extras["openai"].items()) j[k] = v;
  return j;
}

}  // namespace

json openai_messages(const std::vector<message>& messages, const schema::name_map& names) {
  role_encoders by_role;
  by_role.system = [](json& out, const message& m) {
    out.push_back({{"role", "system"}, {"content", m.text()}});
  };
  by_role.user = [](json& out, const message& m) {
    out.push_back({{"role", "user"}, {"content", user_content(m, "text", chat_image_part)}});
  };
  by_role.assistant = [&](json& out, const message& m) {
    out.push_back(assistant_message(m, names));
  };
  by_role.tool = [](json& out, const message& m) { out.push_back(tool_message(m)); };
  return encode_conversation(messages, by_role);
}

json openai_tool_choice(const tool_choice& choice, const schema::name_map& names) {
  switch (choice.what) {
    case tool_choice::mode::automatic: return "auto";
    case tool_choice::mode::none: return "none";
    case tool_choice::mode::required: return "required";
    case tool_choice::mode::named:
      return {{"type", "function"},
              {"function", {{"name", names.provider_name(choice.name).value_or(choice.name)}}}};
  }
  return "auto";
}

finish_reason openai_finish(const std::string& raw) {
  if (raw == "stop") return finish_reason::stop;
  if (raw == "tool_calls" || raw == "function_call") return finish_reason::tool_calls;
  if (raw == "length") return finish_reason::length;
  if (raw == "content_filter") return finish_reason::content_filter;
  return finish_reason::other;
}

usage token_usage(const std::optional<std::int64_t>& input,
                  const std::optional<std::int64_t>& output,
                  const std::optional<openai_wire::tokens_details>& input_details,
                  const std::optional<openai_wire::tokens_details>& output_details) {
  usage out;
  out.input_tokens = input.value_or(0);
  out.output_tokens = output.value_or(0);
  if (input_details) out.cache_read_tokens = input_details->cached_tokens.value_or(0);
  if (output_details) out.reasoning_tokens = output_details->reasoning_tokens.value_or(0);
  return out;
}

usage openai_usage(const openai_wire::usage& u) {
  return token_usage(u.prompt_tokens, u.completion_tokens, u.prompt_tokens_details,
                     u.completion_tokens_details);
}

tool_call decode_call(std::string id, const std::string& wire_name, std::string arguments,
                      const chat_request& req, const schema::name_map& names) {
  std::string name = names.original_name(wire_name).value_or(wire_name);
  tool_call call = tool_call::from_text(std::move(id), name, std::move(arguments));
  if (req.strict && call.arguments.is_object()) {
    for (const auto& t : req.tools)
      if (t.name == name) call.arguments = schema::from_strict_arguments(t.input_schema, call.arguments);
  }
  return call;
}

result<chat_response> openai_decode(const json& body, const chat_request& req,
                                    const schema::name_map& names) {
  if (!body.is_object() || !body.contains("choices") || !body["choices"].is_array() ||
      body["choices"].empty() || !body["choices"][0].contains("message"))
    return fail(errc::protocol_error, "openai: response has no choices[0].message: " +
                                          dump_json(body).substr(0, 300));
  auto wire = decode_answer<openai_wire::completion>(body, "openai", "response");
  if (!wire) return fail(wire.error());
  const openai_wire::choice& choice = wire->choices->front();
  chat_response out;
  out.reply.role = role::assistant;
  if (choice.message) {
    const openai_wire::message& msg = *choice.message;
    if (msg.content && msg.content->is_string())
      out.reply.content.push_back(content_part::text_part(msg.content->get<std::string>()));
    if (msg.reasoning_content) out.reply.reasoning = *msg.reasoning_content;
    for (const auto& c : msg.tool_calls.value_or(std::vector<openai_wire::tool_call>{})) {
      openai_wire::function_call fn = c.function.value_or(openai_wire::function_call{});
      json args = fn.arguments.value_or(json(""));
      out.reply.tool_calls.push_back(decode_call(
          c.id.value_or(""), fn.name.value_or(""),
          args.is_string() ? args.get<std::string>() : dump_json(args), req, names));
    }
  }
  out.raw_finish = choice.finish_reason.value_or("stop");
  out.finish = openai_finish(out.raw_finish);
  if (wire->usage) out.usage = openai_usage(*wire->usage);
  out.model = wire->model.value_or("");
  out.id = wire->id.value_or("");
  return out;
}

}  // namespace tooluse::llm::detail
