// Encoding a chat_request as OpenAI Responses input items, and decoding a Response object.
#include "openai_wire.hpp"
#include "responses_wire.hpp"

namespace tooluse::llm::detail {
namespace {

json input_image_part(const std::string& url) { return {{"type", "input_image"}, {"image_url", url}}; }

// assistant_items: the model's own output items when it gave them (reasoning items must go
// back with their ids and encrypted content), else items built from the neutral message.
void assistant_items(const message& m, const schema::name_map& names, json& out) {
  if (m.extras.contains("openai_responses") && m.extras["openai_responses"].contains("output")) {
    for (const auto& item : m.extras["openai_responses"]["output"]) out.push_back(item);
    return;
  }
  std::string text = m.text();
  if (!text.empty()) out.push_back({{"role", "assistant"}, {"content", text}});
  for (const auto& c : m.tool_calls)
    out.push_back({{"type", "function_call"},
                   {"call_id", c.id},
                   {"name", names.provider_name(c.name).value_or(c.name)},
                   {"arguments", c.raw_arguments.empty() ? "{}" : c.raw_arguments}});
}

json tool_output(const message& m) {
  // function_call_output takes a string; there is no error flag, so errors say so in the text.
  return {{"type", "function_call_output"},
          {"call_id", m.tool_call_id},
          {"output", error_marked(tool_result_text(m), m.is_error)}};
}

finish_reason responses_finish(const responses_wire::response& body, bool has_calls,
                               std::string& raw) {
  std::string status = body.status.value_or("completed");
  if (status == "incomplete") {
    raw = body.incomplete_details ? body.incomplete_details->reason.value_or("incomplete")
                                  : "incomplete";
    if (raw == "max_output_tokens") return finish_reason::length;
    if (raw == "content_filter") return finish_reason::content_filter;
    return finish_reason::other;
  }
  raw = status;
  if (status != "completed") return finish_reason::other;
  return has_calls ? finish_reason::tool_calls : finish_reason::stop;
}

}  // namespace

json responses_input(const std::vector<message>& messages, const schema::name_map& names) {
  role_encoders by_role;  // no system: it is the request's "instructions"
  by_role.user = [](json& out, const message& m) {
    out.push_back(
        {{"role", "user"}, {"content", user_content(m, "input_text", input_image_part)}});
  };
  by_role.assistant = [&](json& out, const message& m) { assistant_items(m, names, out); };
  by_role.tool = [](json& out, const message& m) { out.push_back(tool_output(m)); };
  return encode_conversation(messages, by_role);
}

json responses_tool_choice(const tool_choice& choice, const std::vector<std::string>& allowed,
                           const schema::name_map& names) {
  auto wire = [&](const std::string& n) { return names.provider_name(n).value_or(n); };
  if (!allowed.empty() && choice.what != tool_choice::mode::none &&
      choice.what != tool_choice::mode::named) {
    json tools = json::array();
    for (const auto& n : allowed) tools.push_back({{"type", "function"}, {"name", wire(n)}});
    return {{"type", "allowed_tools"},
            {"mode", choice.what == tool_choice::mode::required ? "required" : "auto"},
            {"tools", tools}};
  }
  switch (choice.what) {
    case tool_choice::mode::automatic:
      return "auto";
    case tool_choice::mode::none:
      return "none";
    case tool_choice::mode::required:
      return "required";
    case tool_choice::mode::named:
      return {{"type", "function"}, {"name", wire(choice.name)}};
  }
  return "auto";
}

usage responses_usage(const responses_wire::usage& u) {
  return token_usage(u.input_tokens, u.output_tokens, u.input_tokens_details,
                     u.output_tokens_details);
}

result<chat_response> responses_decode(const json& body, const chat_request& req,
                                       const schema::name_map& names) {
  if (!body.is_object() || !body.contains("output") || !body["output"].is_array())
    return fail(errc::protocol_error, "openai-responses: response has no output array: " +
                                          dump_json(body).substr(0, 300));
  auto wire = decode_answer<responses_wire::response>(body, "openai-responses", "response");
  if (!wire) return fail(wire.error());
  if (wire->status == "failed") {
    std::string why = wire->error && wire->error->message ? *wire->error->message
                                                          : dump_json(body["error"]);
    return fail(errc::http_error, "openai-responses: the response failed: " + why);
  }
  chat_response out;
  out.reply.role = role::assistant;
  std::string text;
  for (const auto& item : *wire->output) {
    std::string type = item.type.value_or("");
    if (type == "message") {
      for (const auto& part : item.content.value_or(std::vector<responses_wire::content_part>{}))
        if (part.type == "output_text") text += part.text.value_or("");
    } else if (type == "function_call") {
      json args = item.arguments.value_or(json("{}"));
      out.reply.tool_calls.push_back(decode_call(
          item.call_id.value_or(""), item.name.value_or(""),
          args.is_string() ? args.get<std::string>() : dump_json(args), req, names));
    } else if (type == "reasoning") {
      for (const auto& s : item.summary.value_or(std::vector<responses_wire::content_part>{}))
        out.reply.reasoning += s.text.value_or("");
    }
  }
  if (!text.empty()) out.reply.content.push_back(content_part::text_part(text));
  out.reply.extras["openai_responses"]["output"] = body["output"];
  out.finish = responses_finish(*wire, !out.reply.tool_calls.empty(), out.raw_finish);
  if (wire->usage) out.usage = responses_usage(*wire->usage);
  out.model = wire->model.value_or("");
  out.id = wire->id.value_or("");
  return out;
}

}  // namespace tooluse::llm::detail
