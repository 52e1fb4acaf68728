// Wire-format builders for fake_llm_server: OpenAI Responses and Gemini, as JSON bodies and SSE
// streams (shapes from ../shared/reference/wire-formats.md 2.2, 2.4 and the providers' docs).
#include "fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

std::vector<std::string> halves(const std::string& s) {
  if (s.size() < 2) return {s};
  size_t mid = s.size() / 2;
  return {s.substr(0, mid), s.substr(mid)};
}

std::string sse(const json& j) { return "data: " + dump_json(j) + "\n\n"; }

std::string sse_named(const std::string& name, json j) {
  j["type"] = name;
  return "event: " + name + "\n" + sse(j);
}

json responses_output(const fake_turn& t) {
  json output = json::array();
  if (!t.reasoning.empty())
    output.push_back({{"type", "reasoning"},
                      {"id", "rs_fake"},
                      {"summary", json::array({{{"type", "summary_text"}, {"text", t.reasoning}}})},
                      {"encrypted_content", "enc-" + std::to_string(t.reasoning.size())}});
  if (!t.text.empty())
    output.push_back({{"type", "message"},
                      {"id", "msg_fake"},
                      {"status", "completed"},
                      {"role", "assistant"},
                      {"content", json::array({{{"type", "output_text"},
                                                {"text", t.text},
                                                {"annotations", json::array()}}})}});
  for (const auto& c : t.calls)
    output.push_back({{"type", "function_call"},
                      {"id", "fc_" + c.id},
                      {"call_id", c.id},
                      {"name", c.name},
                      {"arguments", c.arguments},
                      {"status", "completed"}});
  return output;
}

json responses_body(const fake_turn& t, const json& output) {
  json body = {{"id", "resp_fake"},
               {"object", "response"},
               {"created_at", 1700000000},
               {"model", "fake-model"},
               {"output", output},
               {"usage",
                {{"input_tokens", t.input_tokens},
                 {"input_tokens_details", {{"cached_tokens", t.cached_tokens}}},
                 {"output_tokens", t.output_tokens},
                 {"output_tokens_details", {{"reasoning_tokens", 0}}},
                 {"total_tokens", t.input_tokens + t.output_tokens}}}};
  if (t.finish == "max_output_tokens") {
    body["status"] = "incomplete";
    body["incomplete_details"] = {{"reason", "max_output_tokens"}};
  } else {
    body["status"] = "completed";
  }
  return body;
}

std::vector<std::string> responses_stream(const fake_turn& t, const json& output) {
  std::vector<std::string> chunks;
  json created = responses_body(t, json::array());
  created["status"] = "in_progress";
  created.erase("usage");
  int seq = 0;
  auto ev = [&](const std::string& name, json j) {
    j["sequence_number"] = seq++;
    chunks.push_back(sse_named(name, std::move(j)));
  };
  ev("response.created", {{"response", created}});
  for (size_t i = 0; i < output.size(); ++i) {
    json item = output[i];
    std::string type = item["type"];
    json added = item;
    if (type == "function_call") {
      added["arguments"] = "";
      added["status"] = "in_progress";
    }
    if (type == "message") added["content"] = json::array();
    ev("response.output_item.added", {{"output_index", i}, {"item", added}});
    if (type == "function_call") {
      for (const auto& piece : halves(item["arguments"].get<std::string>()))
        ev("response.function_call_arguments.delta",
           {{"item_id", item["id"]}, {"output_index", i}, {"delta", piece}});
      ev("response.function_call_arguments.done",
         {{"item_id", item["id"]}, {"output_index", i}, {"arguments", item["arguments"]}});
    } else if (type == "message") {
      for (const auto& piece : halves(t.text))
        ev("response.output_text.delta",
           {{"item_id", item["id"]}, {"output_index", i}, {"content_index", 0}, {"delta", piece}});
      ev("response.output_text.done",
         {{"item_id", item["id"]}, {"output_index", i}, {"content_index", 0}, {"text", t.text}});
    } else if (type == "reasoning") {
      ev("response.reasoning_summary_text.delta", {{"item_id", item["id"]},
                                                   {"output_index", i},
                                                   {"summary_index", 0},
                                                   {"delta", t.reasoning}});
    }
    ev("response.output_item.done", {{"output_index", i}, {"item", item}});
  }
  json done = responses_body(t, output);
  ev(done["status"] == "completed" ? "response.completed" : "response.incomplete",
     {{"response", done}});
  return chunks;
}

json gemini_parts(const fake_turn& t) {
  json parts = json::array();
  if (!t.reasoning.empty()) parts.push_back({{"text", t.reasoning}, {"thought", true}});
  if (!t.text.empty()) parts.push_back({{"text", t.text}});
  for (size_t i = 0; i < t.calls.size(); ++i) {
    const auto& c = t.calls[i];
    auto args = parse_json(c.arguments.empty() ? "{}" : c.arguments);
    json part = {{"functionCall",
                  {{"id", c.id}, {"name", c.name}, {"args", args ? *args : json(c.arguments)}}}};
    // Gemini 3 signs the first function call of a turn; it must come back on that part.
    if (i == 0) part["thoughtSignature"] = "sig-" + c.id;
    parts.push_back(part);
  }
  return parts;
}

json gemini_usage(const fake_turn& t) {
  json u = {{"promptTokenCount", t.input_tokens},
            {"candidatesTokenCount", t.output_tokens},
            {"totalTokenCount", t.input_tokens + t.output_tokens}};
  if (t.cached_tokens) u["cachedContentTokenCount"] = t.cached_tokens;
  return u;
}

std::string gemini_finish(const fake_turn& t) { return t.finish.empty() ? "STOP" : t.finish; }

json gemini_chunk(const json& parts, const std::string& finish) {
  json cand = {{"content", {{"role", "model"}, {"parts", parts}}}, {"index", 0}};
  if (!finish.empty()) cand["finishReason"] = finish;
  return {{"candidates", json::array({cand})},
          {"modelVersion", "fake-model"},
          {"responseId", "gemini-fake"}};
}

}  // namespace

scripted_response responses_response(const fake_turn& t, bool stream) {
  scripted_response r;
  json output = responses_output(t);
  r.turn_output = output;
  if (stream)
    r.chunks = responses_stream(t, output);
  else
    r.body = dump_json(responses_body(t, output));
  return r;
}

scripted_response gemini_response(const fake_turn& t, bool stream) {
  scripted_response r;
  json parts = gemini_parts(t);
  r.turn_output = parts;
  if (!stream) {
    json body = gemini_chunk(parts, gemini_finish(t));
    body["usageMetadata"] = gemini_usage(t);
    r.body = dump_json(body);
    return r;
  }
  // Text streams in pieces; each function call comes whole in its own chunk.
  for (const auto& p : parts) {
    if (p.contains("text") && !p.contains("thought")) {
      for (const auto& piece : halves(p["text"].get<std::string>()))
        r.chunks.push_back(sse(gemini_chunk(json::array({{{"text", piece}}}), "")));
    } else {
      r.chunks.push_back(sse(gemini_chunk(json::array({p}), "")));
    }
  }
  json last = gemini_chunk(json::array({{{"text", ""}}}), gemini_finish(t));
  last["usageMetadata"] = gemini_usage(t);
  r.chunks.push_back(sse(last));
  return r;
}

}  // namespace tooluse::testing
