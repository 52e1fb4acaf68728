// Encoding a chat_request as OpenAI Responses input items, and decoding a Response object.
#include "openai_wire.hpp"
#include "responses_wire.hpp"

namespace tooluse::llm::detail {
namespace {

json user_content(const message& m) {
  if (m.content.size() == 1 && m.content[0].type == content_part::kind::text)
    return m.content[0].text;
  json parts = json::array();
  for (const auto& p : m.content) {
    if (p.type == content_part::kind::text) {
      parts.push_back({{"type", "input_text"}, {"text", p.text}});
    } else {
      std::string url = p.url.empty() ? "data:" + p.mime_type + ";base64," + p.data : p.url;
      parts.push_back({{"type", "input_image"}, {"image_url", url}});
    }
  }
  return parts;
}

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
  std::string text;
  for (const auto& p : m.content) {
    if (!text.empty()) text += "\n";
    text += p.type == content_part::kind::text
                ? p.text
                : "[image " + p.mime_type + ", " + std::to_string(p.data.size()) +
                      " base64 bytes not shown]";
  }
  if (m.is_error && text.rfind("Error", 0) != 0 && text.rfind("error", 0) != 0)
    text = "Error: " + text;
  return {{"type", "function_call_output"}, {"call_id", m.tool_call_id}, {"output", text}};
}

finish_reason responses_finish(const json& body, bool has_calls, std::string& raw) {
  std::string status = body.value("status", "completed");
  if (status == "incomplete") {
    const json& d = body.value("incomplete_details", json::object());
    raw = d.is_object() ? d.value("reason", "incomplete") : "incomplete";
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
  json out = json::array();
  for (const auto& m : messages) {
    switch (m.role) {
      case role::system:
        break;  // instructions
      case role::user:
        out.push_back({{"role", "user"}, {"content", user_content(m)}});
        break;
      case role::assistant:
        assistant_items(m, names, out);
        break;
      case role::tool:
        out.push_back(tool_output(m));
        break;
    }
  }
  return out;
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

usage responses_usage(const json& u) {
  usage out;
  if (!u.is_object()) return out;
  out.input_tokens = u.value("input_tokens", std::int64_t{0});
  out.output_tokens = u.value("output_tokens", std::int64_t{0});
  if (u.contains("input_tokens_details") && u["input_tokens_details"].is_object())
    out.cache_read_tokens = u["input_tokens_details"].value("cached_tokens", std::int64_t{0});
  if (u.contains("output_tokens_details") && u["output_tokens_details"].is_object())
    out.reasoning_tokens = u["output_tokens_details"].value("reasoning_tokens", std::int64_t{0});
  out.requests = 1;
  return out;
}

result<chat_response> responses_decode(const json& body, const chat_request& req,
                                       const schema::name_map& names) {
  if (!body.is_object() || !body.contains("output") || !body["output"].is_array())
    return fail(errc::protocol_error, "openai-responses: response has no output array: " +
                                          dump_json(body).substr(0, 300));
  if (body.value("status", "") == "failed") {
    const json& e = body.value("error", json::object());
    return fail(errc::http_error,
                "openai-responses: the response failed: " +
                    (e.is_object() ? e.value("message", dump_json(e)) : dump_json(e)));
  }
  chat_response out;
  out.reply.role = role::assistant;
  std::string text;
  for (const auto& item : body["output"]) {
    std::string type = item.value("type", "");
    if (type == "message") {
      for (const auto& part : item.value("content", json::array()))
        if (part.value("type", "") == "output_text") text += part.value("text", "");
    } else if (type == "function_call") {
      const json& args = item.contains("arguments") ? item["arguments"] : json("{}");
      out.reply.tool_calls.push_back(
          decode_call(item.value("call_id", ""), item.value("name", ""),
                      args.is_string() ? args.get<std::string>() : dump_json(args), req, names));
    } else if (type == "reasoning") {
      for (const auto& s : item.value("summary", json::array()))
        out.reply.reasoning += s.value("text", "");
    }
  }
  if (!text.empty()) out.reply.content.push_back(content_part::text_part(text));
  out.reply.extras["openai_responses"]["output"] = body["output"];
  out.finish = responses_finish(body, !out.reply.tool_calls.empty(), out.raw_finish);
  out.usage = responses_usage(body.value("usage", json()));
  out.model = body.value("model", "");
  out.id = body.value("id", "");
  return out;
}

}  // namespace tooluse::llm::detail
