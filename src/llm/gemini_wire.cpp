// Encoding a chat_request as Gemini contents, and decoding a GenerateContentResponse.
#include <set>

#include "gemini_wire.hpp"

namespace tooluse::llm::detail {
namespace {

json user_parts(const message& m) {
  json parts = json::array();
  for (const auto& p : m.content) {
    if (p.type == content_part::kind::text)
      parts.push_back({{"text", p.text}});
    else if (!p.url.empty())
      parts.push_back({{"fileData", {{"mimeType", p.mime_type}, {"fileUri", p.url}}}});
    else
      parts.push_back({{"inlineData", {{"mimeType", p.mime_type}, {"data", p.data}}}});
  }
  if (parts.empty()) parts.push_back({{"text", ""}});
  return parts;
}

// model_parts: the parts as the model sent them (thought signatures included), else built.
json model_parts(const message& m, const schema::name_map& names) {
  if (m.extras.contains("gemini") && m.extras["gemini"].contains("parts"))
    return m.extras["gemini"]["parts"];
  json parts = json::array();
  std::string text = m.text();
  if (!text.empty()) parts.push_back({{"text", text}});
  for (const auto& c : m.tool_calls)
    parts.push_back({{"functionCall",
                      {{"name", names.provider_name(c.name).value_or(c.name)},
                       {"args", c.arguments.is_object() ? c.arguments : json::object()}}}});
  return parts;
}

json function_response(const message& m, const schema::name_map& names, bool with_id) {
  // response must be an object: the text goes under "result", or "error" for a failed call.
  std::string text = tool_result_text(m);
  json fr = {{"name", names.provider_name(m.tool_name).value_or(m.tool_name)},
             {"response", {{m.is_error ? "error" : "result", text}}}};
  if (with_id) fr["id"] = m.tool_call_id;
  return {{"functionResponse", fr}};
}

finish_reason gemini_finish(const std::string& raw, bool has_calls) {
  if (raw == "STOP" || raw.empty() || raw == "FINISH_REASON_UNSPECIFIED")
    return has_calls ? finish_reason::tool_calls : finish_reason::stop;
  if (raw == "MAX_TOKENS") return finish_reason::length;
  if (raw == "SAFETY" || raw == "RECITATION" || raw == "BLOCKLIST" || raw == "PROHIBITED_CONTENT" ||
      raw == "SPII" || raw == "IMAGE_SAFETY")
    return finish_reason::content_filter;
  return finish_reason::other;  // MALFORMED_FUNCTION_CALL, OTHER, ...
}

}  // namespace

json gemini_contents(const std::vector<message>& messages, const schema::name_map& names) {
  std::set<std::string> given_ids;  // ids the API gave in the last model turn
  role_encoders by_role;            // no system: it is the request's "systemInstruction"
  by_role.user = [](json& out, const message& m) {
    out.push_back({{"role", "user"}, {"parts", user_parts(m)}});
  };
  by_role.assistant = [&](json& out, const message& m) {
    json parts = model_parts(m, names);
    given_ids.clear();
    for (const auto& p : parts)
      if (p.contains("functionCall") && p["functionCall"].contains("id"))
        given_ids.insert(p["functionCall"].value("id", ""));
    out.push_back({{"role", "model"}, {"parts", std::move(parts)}});
  };
  by_role.tool = [&](json& out, const message& m) {
    add_tool_result(out, "parts", function_response(m, names, given_ids.count(m.tool_call_id) > 0),
                    [](const json& part) { return part.contains("functionResponse"); });
  };
  return encode_conversation(messages, by_role);
}

json gemini_tool_config(const tool_choice& choice, const std::vector<std::string>& allowed,
                        const schema::name_map& names) {
  auto wire = [&](const std::string& n) { return names.provider_name(n).value_or(n); };
  json config;
  switch (choice.what) {
    case tool_choice::mode::automatic:
      // AUTO takes no allowedFunctionNames; VALIDATED lets the model answer or call one of them.
      config = {{"mode", allowed.empty() ? "AUTO" : "VALIDATED"}};
      break;
    case tool_choice::mode::none:
      config = {{"mode", "NONE"}};
      break;
    case tool_choice::mode::required:
      config = {{"mode", "ANY"}};
      break;
    case tool_choice::mode::named:
      config = {{"mode", "ANY"}, {"allowedFunctionNames", json::array({wire(choice.name)})}};
      break;
  }
  if (!allowed.empty() && choice.what != tool_choice::mode::none &&
      choice.what != tool_choice::mode::named) {
    json names_json = json::array();
    for (const auto& n : allowed) names_json.push_back(wire(n));
    config["allowedFunctionNames"] = names_json;
  }
  if (config["mode"] == "AUTO") return nullptr;
  return {{"functionCallingConfig", config}};
}

usage gemini_usage(const gemini_wire::usage_metadata& u) {
  usage out;
  out.input_tokens = u.prompt_token_count.value_or(0);
  out.cache_read_tokens = u.cached_content_token_count.value_or(0);
  out.reasoning_tokens = u.thoughts_token_count.value_or(0);
  // Thinking tokens are billed as output but not counted in candidatesTokenCount.
  out.output_tokens = u.candidates_token_count.value_or(0) + out.reasoning_tokens;
  out.requests = 1;
  return out;
}

result<chat_response> gemini_decode(const json& body, const schema::name_map& names) {
  if (!body.is_object() || !body.contains("candidates") || !body["candidates"].is_array() ||
      body["candidates"].empty()) {
    std::string why = "response has no candidates";
    if (body.is_object() && body.contains("promptFeedback"))
      why += " (prompt blocked: " + dump_json(body["promptFeedback"]).substr(0, 200) + ")";
    return fail(errc::protocol_error, "gemini: " + why + ": " + dump_json(body).substr(0, 300));
  }
  auto wire = decode_answer<gemini_wire::response>(body, "gemini", "response");
  if (!wire) return fail(wire.error());
  const gemini_wire::candidate& cand = wire->candidates->front();
  // The parts are echoed as sent (thought signatures must go back untouched).
  const json& raw_content = body["candidates"][0].value("content", json::object());
  json parts = raw_content.is_object() ? raw_content.value("parts", json::array()) : json::array();
  chat_response out;
  out.reply.role = role::assistant;
  std::string text;
  int n = 0;
  for (const auto& p : cand.content ? cand.content->parts.value_or(std::vector<gemini_wire::part>{})
                                    : std::vector<gemini_wire::part>{}) {
    if (p.function_call) {
      const gemini_wire::function_call& fc = *p.function_call;
      std::string wire_name = fc.name.value_or("");
      json args = fc.args && fc.args->is_object() ? *fc.args : json::object();
      // Without an API id, tooluse makes one up; it never goes on the wire.
      std::string id = fc.id.value_or("gemini_call_" + std::to_string(n));
      ++n;
      out.reply.tool_calls.push_back({.id = id,
                                      .name = names.original_name(wire_name).value_or(wire_name),
                                      .raw_arguments = dump_json(args),
                                      .arguments = args});
    } else if (p.text) {
      (p.thought.value_or(false) ? out.reply.reasoning : text) += *p.text;
    }
  }
  if (!text.empty()) out.reply.content.push_back(content_part::text_part(text));
  out.reply.extras["gemini"]["parts"] = parts;
  out.raw_finish = cand.finish_reason.value_or("");
  out.finish = gemini_finish(out.raw_finish, !out.reply.tool_calls.empty());
  if (wire->usage_metadata) out.usage = gemini_usage(*wire->usage_metadata);
  out.model = wire->model_version.value_or("");
  out.id = wire->response_id.value_or("");
  return out;
}

}  // namespace tooluse::llm::detail
