// Strict request checking for fake_llm_server: what the real APIs reject (unanswered or
// unknown call ids, results in the wrong role or order, reasoning items or thought signatures
// not replayed, malformed tools and tool choices). Each check returns "" or the problem.
#include <set>

#include "fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

std::string check_chat(const json& body, const std::vector<json>& earlier) {
  if (!body.contains("model") || !body.contains("messages") || !body["messages"].is_array() ||
      body["messages"].empty())
    return "model and a non-empty messages array are required";
  const json& msgs = body["messages"];
  size_t turn = 0;
  for (size_t i = 0; i < msgs.size(); ++i) {
    const json& m = msgs[i];
    if (m["role"] == "tool")
      return "messages[" + std::to_string(i) +
             "]: a tool message must follow an assistant message with tool_calls";
    if (m["role"] != "assistant") continue;
    if (turn < earlier.size() && earlier[turn].contains("tool_calls") &&
        m.value("tool_calls", json::array()) != earlier[turn]["tool_calls"])
      return "messages[" + std::to_string(i) +
             "]: the assistant's tool_calls differ from what the model sent";
    ++turn;
    if (!m.contains("tool_calls")) continue;
    size_t k = i + 1;
    for (const auto& c : m["tool_calls"]) {
      if (k >= msgs.size() || msgs[k]["role"] != "tool" ||
          msgs[k].value("tool_call_id", "") != c["id"])
        return "messages[" + std::to_string(k) +
               "]: expected the tool message answering tool_call_id " + c["id"].get<std::string>() +
               " (every call answered, in order)";
      ++k;
    }
    i = k - 1;
  }
  return "";
}

std::string check_anthropic(const json& body, const std::vector<json>& earlier) {
  if (!body.contains("model") || !body.contains("max_tokens") || !body.contains("messages"))
    return "model, max_tokens and messages are required";
  const json& msgs = body["messages"];
  size_t turn = 0;
  for (size_t i = 0; i < msgs.size(); ++i) {
    const json& m = msgs[i];
    std::string want = i % 2 == 0 ? "user" : "assistant";
    if (m["role"] != want)
      return "messages[" + std::to_string(i) + "]: roles must alternate, starting with user";
    if (m["role"] != "assistant") continue;
    if (turn < earlier.size() && m["content"] != earlier[turn])
      return "messages[" + std::to_string(i) +
             "]: the assistant content (thinking blocks, tool_use) must be replayed unchanged";
    ++turn;
    std::vector<std::string> ids;
    for (const auto& b : m["content"])
      if (b["type"] == "tool_use") ids.push_back(b["id"]);
    if (ids.empty()) continue;
    if (i + 1 >= msgs.size())
      return "tool_use ids without tool_result blocks in the next user message";
    const json& next = msgs[i + 1]["content"];
    for (size_t k = 0; k < ids.size(); ++k)
      if (!next.is_array() || k >= next.size() || next[k]["type"] != "tool_result" ||
          next[k]["tool_use_id"] != ids[k])
        return "messages[" + std::to_string(i + 1) +
               "]: tool_result blocks must come first and answer " + ids[k];
  }
  return "";
}

std::string check_responses(const json& body, const std::vector<json>& earlier) {
  if (!body.contains("model") || !body.contains("input")) return "model and input are required";
  for (const auto& t : body.value("tools", json::array())) {
    if (t.value("type", "") != "function" || !t.contains("name") || t.contains("function"))
      return "tools must be flat {type:function,name,parameters,strict}: " +
             dump_json(t).substr(0, 120);
    if (t.value("strict", true) && t.contains("parameters") &&
        t["parameters"].value("additionalProperties", true) != false)
      return "tool " + t["name"].get<std::string>() + ": strict needs additionalProperties:false";
  }
  if (body.contains("tool_choice") && body["tool_choice"].is_object() &&
      body["tool_choice"].value("type", "") == "allowed_tools") {
    const json& tc = body["tool_choice"];
    if (tc.value("mode", "") != "auto" && tc.value("mode", "") != "required")
      return "allowed_tools mode must be auto or required";
    std::set<std::string> names;
    for (const auto& t : body.value("tools", json::array())) names.insert(t.value("name", ""));
    for (const auto& t : tc.value("tools", json::array()))
      if (!names.count(t.value("name", ""))) return "allowed_tools names a tool not in tools";
  }
  const json& input = body["input"];
  if (!input.is_array()) return "";
  // Every item the model sent earlier (reasoning, function calls) must be replayed in order.
  size_t pos = 0;
  for (const auto& out : earlier) {
    for (const auto& item : out) {
      std::string type = item.value("type", "");
      if (type != "reasoning" && type != "function_call") continue;
      while (pos < input.size() && !(input[pos].value("type", "") == type &&
                                     input[pos].value("id", "") == item.value("id", "")))
        ++pos;
      if (pos == input.size())
        return type + " item " + item.value("id", "") +
               " from an earlier response is missing from input" +
               (type == "reasoning" ? " (reasoning items must be passed back with function calls)"
                                    : "");
      if (type == "reasoning" &&
          input[pos].value("encrypted_content", "") != item.value("encrypted_content", ""))
        return "reasoning item " + item.value("id", "") +
               " came back without its encrypted_content";
      if (type == "function_call" &&
          (input[pos].value("call_id", "") != item.value("call_id", "") ||
           input[pos].value("arguments", "") != item.value("arguments", "")))
        return "function_call " + item.value("id", "") + " came back changed";
    }
  }
  std::set<std::string> open;
  for (size_t i = 0; i < input.size(); ++i) {
    const json& it = input[i];
    std::string type = it.value("type", "");
    if (type == "function_call") open.insert(it.value("call_id", ""));
    if (type == "function_call_output") {
      if (!open.erase(it.value("call_id", "")))
        return "input[" + std::to_string(i) + "]: function_call_output for unknown call_id " +
               it.value("call_id", "");
      if (!it["output"].is_string()) return "function_call_output.output must be a string";
    }
    if (!it.contains("type") && it.value("role", "") == "user" && !open.empty())
      return "input[" + std::to_string(i) + "]: a user message before the outputs of calls " +
             *open.begin();
  }
  if (!open.empty()) return "no function_call_output for call_id " + *open.begin();
  return "";
}

std::string check_gemini(const recorded_request& req, const json& body,
                         const std::vector<json>& earlier) {
  bool stream = req.target.find(":streamGenerateContent?alt=sse") != std::string::npos;
  if (req.target.find("/v1beta/models/") != 0 ||
      (!stream && req.target.find(":generateContent") == std::string::npos))
    return "unexpected path " + req.target;
  if (req.header("x-goog-api-key").empty()) return "x-goog-api-key header missing";
  if (!body.contains("contents") || !body["contents"].is_array() || body["contents"].empty())
    return "contents is required";
  std::set<std::string> declared;
  for (const auto& t : body.value("tools", json::array()))
    for (const auto& d : t.value("functionDeclarations", json::array())) {
      declared.insert(d.value("name", ""));
      if (d.contains("parameters") &&
          (d["parameters"].contains("additionalProperties") || d["parameters"].contains("$schema")))
        return "function " + d.value("name", "") + ": parameters has keywords Gemini rejects";
    }
  if (body.contains("toolConfig")) {
    const json& fc = body["toolConfig"].value("functionCallingConfig", json::object());
    std::string mode = fc.value("mode", "AUTO");
    if (mode != "AUTO" && mode != "ANY" && mode != "NONE" && mode != "VALIDATED")
      return "bad mode " + mode;
    if (fc.contains("allowedFunctionNames")) {
      if (mode != "ANY" && mode != "VALIDATED")
        return "allowedFunctionNames needs mode ANY or VALIDATED, not " + mode;
      for (const auto& n : fc["allowedFunctionNames"])
        if (!declared.count(n.get<std::string>()))
          return "allowedFunctionNames names an undeclared function";
    }
  }
  const json& contents = body["contents"];
  for (size_t i = 0; i < contents.size(); ++i)
    if (contents[i].value("role", "") != "user" && contents[i].value("role", "") != "model")
      return "contents[" + std::to_string(i) + "]: role must be user or model";
  size_t turn = 0;
  for (size_t i = 0; i < contents.size(); ++i) {
    const json& c = contents[i];
    std::string role = c.value("role", "");
    if (role != "user" && role != "model")
      return "contents[" + std::to_string(i) + "]: role must be user or model";
    if (role != "model") {
      for (const auto& p : c["parts"])
        if (p.contains("functionResponse") &&
            (i == 0 || contents[i - 1].value("role", "") != "model"))
          return "contents[" + std::to_string(i) +
                 "]: functionResponse must follow the model turn that called";
      continue;
    }
    if (turn < earlier.size() && c["parts"] != earlier[turn])
      return "contents[" + std::to_string(i) +
             "]: the model turn must be replayed as sent "
             "(thoughtSignature on its part: Function call is missing a thought_signature)";
    ++turn;
    std::vector<json> calls;
    for (const auto& p : c["parts"])
      if (p.contains("functionCall")) calls.push_back(p["functionCall"]);
    if (calls.empty()) continue;
    if (i + 1 >= contents.size() || contents[i + 1].value("role", "") != "user")
      return "contents[" + std::to_string(i + 1) +
             "]: the function responses must follow in a user turn";
    const json& parts = contents[i + 1]["parts"];
    if (parts.size() != calls.size())
      return "contents[" + std::to_string(i + 1) + "]: expected " + std::to_string(calls.size()) +
             " functionResponse parts, one per functionCall";
    for (size_t k = 0; k < calls.size(); ++k) {
      const json& fr = parts[k].value("functionResponse", json::object());
      if (fr.value("name", "") != calls[k].value("name", ""))
        return "functionResponse " + std::to_string(k) + " names " + fr.value("name", "") +
               ", call was " + calls[k].value("name", "") + " (order must match)";
      if (calls[k].contains("id") && fr.value("id", "") != calls[k]["id"])
        return "functionResponse " + std::to_string(k) + " id does not match functionCall id";
      if (!fr.contains("response") || !fr["response"].is_object())
        return "functionResponse.response must be an object";
    }
  }
  if (contents.back().value("role", "") != "user") return "the last content must be the user's";
  return "";
}

}  // namespace

std::string check_request(wire_format format, const recorded_request& req,
                          const std::vector<json>& earlier_outputs) {
  if (req.method != "POST") return "expected POST, got " + req.method;
  json body = req.json_body();
  if (!body.is_object()) return "the body is not a JSON object";
  switch (format) {
    case wire_format::openai_chat:
      if (req.header("authorization").rfind("Bearer ", 0) != 0)
        return "Authorization: Bearer missing";
      return check_chat(body, earlier_outputs);
    case wire_format::openai_responses:
      if (req.target.find("/responses") == std::string::npos)
        return "unexpected path " + req.target;
      if (req.header("authorization").rfind("Bearer ", 0) != 0)
        return "Authorization: Bearer missing";
      return check_responses(body, earlier_outputs);
    case wire_format::anthropic:
      if (req.header("x-api-key").empty() || req.header("anthropic-version").empty())
        return "x-api-key and anthropic-version headers are required";
      return check_anthropic(body, earlier_outputs);
    case wire_format::gemini:
      return check_gemini(req, body, earlier_outputs);
  }
  return "";
}

}  // namespace tooluse::testing
