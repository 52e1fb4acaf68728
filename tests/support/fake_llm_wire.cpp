// Wire-format builders for fake_llm_server: OpenAI Chat Completions and Anthropic Messages,
// as JSON bodies and as SSE streams (shapes from ../shared/reference/wire-formats.md 2.1, 2.3).
#include "fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

// halves splits text in two so streams exercise fragment assembly.
std::vector<std::string> halves(const std::string& s) {
  if (s.size() < 2) return {s};
  size_t mid = s.size() / 2;
  return {s.substr(0, mid), s.substr(mid)};
}

std::string sse_data(const json& j) { return "data: " + dump_json(j) + "\n\n"; }

std::string sse_event(const std::string& name, const json& j) {
  return "event: " + name + "\n" + sse_data(j);
}

json openai_chunk(const json& delta, const json& finish) {
  return {{"id", "chatcmpl-fake"},
          {"object", "chat.completion.chunk"},
          {"created", 1700000000},
          {"model", "fake-model"},
          {"choices", json::array({{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}})}};
}

std::string openai_finish(const fake_turn& t) {
  if (!t.finish.empty()) return t.finish;
  return t.calls.empty() ? "stop" : "tool_calls";
}

std::string anthropic_stop(const fake_turn& t) {
  if (!t.finish.empty()) return t.finish;
  return t.calls.empty() ? "end_turn" : "tool_use";
}

json openai_usage(const fake_turn& t) {
  return {{"prompt_tokens", t.input_tokens},
          {"completion_tokens", t.output_tokens},
          {"total_tokens", t.input_tokens + t.output_tokens}};
}

std::vector<std::string> openai_stream(const fake_turn& t) {
  std::vector<std::string> chunks;
  chunks.push_back(sse_data(openai_chunk({{"role", "assistant"}, {"content", ""}}, nullptr)));
  if (!t.reasoning.empty())
    chunks.push_back(sse_data(openai_chunk({{"reasoning_content", t.reasoning}}, nullptr)));
  for (const auto& piece : halves(t.text))
    if (!piece.empty()) chunks.push_back(sse_data(openai_chunk({{"content", piece}}, nullptr)));
  for (size_t i = 0; i < t.calls.size(); ++i) {
    const auto& c = t.calls[i];
    json first = {{"index", i},
                  {"id", c.id},
                  {"type", "function"},
                  {"function", {{"name", c.name}, {"arguments", ""}}}};
    chunks.push_back(sse_data(openai_chunk({{"tool_calls", json::array({first})}}, nullptr)));
    for (const auto& piece : halves(c.arguments)) {
      json frag = {{"index", i}, {"function", {{"arguments", piece}}}};
      chunks.push_back(sse_data(openai_chunk({{"tool_calls", json::array({frag})}}, nullptr)));
    }
  }
  chunks.push_back(sse_data(openai_chunk(json::object(), openai_finish(t))));
  json usage = openai_chunk(json::object(), nullptr);
  usage["choices"] = json::array();
  usage["usage"] = openai_usage(t);
  chunks.push_back(sse_data(usage));
  chunks.push_back("data: [DONE]\n\n");
  return chunks;
}

std::vector<std::string> anthropic_stream(const fake_turn& t) {
  std::vector<std::string> chunks;
  json start_msg = {{"id", "msg_fake"},
                    {"type", "message"},
                    {"role", "assistant"},
                    {"model", "fake-model"},
                    {"content", json::array()},
                    {"stop_reason", nullptr},
                    {"stop_sequence", nullptr},
                    {"usage", {{"input_tokens", t.input_tokens}, {"output_tokens", 1}}}};
  chunks.push_back(sse_event("message_start", {{"type", "message_start"}, {"message", start_msg}}));
  int index = 0;
  auto block = [&](const json& start, const std::vector<json>& deltas) {
    chunks.push_back(
        sse_event("content_block_start",
                  {{"type", "content_block_start"}, {"index", index}, {"content_block", start}}));
    for (const auto& d : deltas)
      chunks.push_back(
          sse_event("content_block_delta",
                    {{"type", "content_block_delta"}, {"index", index}, {"delta", d}}));
    chunks.push_back(
        sse_event("content_block_stop", {{"type", "content_block_stop"}, {"index", index}}));
    ++index;
  };
  if (!t.reasoning.empty())
    block({{"type", "thinking"}, {"thinking", ""}},
          {{{"type", "thinking_delta"}, {"thinking", t.reasoning}},
           {{"type", "signature_delta"}, {"signature", "sig-fake"}}});
  if (!t.text.empty()) {
    std::vector<json> deltas;
    for (const auto& p : halves(t.text)) deltas.push_back({{"type", "text_delta"}, {"text", p}});
    block({{"type", "text"}, {"text", ""}}, deltas);
  }
  for (const auto& c : t.calls) {
    std::vector<json> deltas;
    for (const auto& p : halves(c.arguments))
      deltas.push_back({{"type", "input_json_delta"}, {"partial_json", p}});
    block({{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", json::object()}},
          deltas);
  }
  chunks.push_back(sse_event("ping", {{"type", "ping"}}));
  chunks.push_back(sse_event(
      "message_delta", {{"type", "message_delta"},
                        {"delta", {{"stop_reason", anthropic_stop(t)}, {"stop_sequence", nullptr}}},
                        {"usage", {{"output_tokens", t.output_tokens}}}}));
  chunks.push_back(sse_event("message_stop", {{"type", "message_stop"}}));
  return chunks;
}

}  // namespace

scripted_response openai_response(const fake_turn& t, bool stream) {
  scripted_response r;
  json message = {{"role", "assistant"}, {"content", t.text.empty() ? json() : json(t.text)}};
  if (!t.reasoning.empty()) message["reasoning_content"] = t.reasoning;
  if (!t.calls.empty()) {
    json calls = json::array();
    for (const auto& c : t.calls)
      calls.push_back({{"id", c.id},
                       {"type", "function"},
                       {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
    message["tool_calls"] = calls;
  }
  r.turn_output = message;
  if (stream) {
    r.chunks = openai_stream(t);
    return r;
  }
  json body = {
      {"id", "chatcmpl-fake"},
      {"object", "chat.completion"},
      {"created", 1700000000},
      {"model", "fake-model"},
      {"choices",
       json::array({{{"index", 0}, {"message", message}, {"finish_reason", openai_finish(t)}}})},
      {"usage", openai_usage(t)}};
  r.body = dump_json(body);
  return r;
}

scripted_response anthropic_response(const fake_turn& t, bool stream) {
  scripted_response r;
  json content = json::array();
  if (!t.reasoning.empty())
    content.push_back({{"type", "thinking"}, {"thinking", t.reasoning}, {"signature", "sig-fake"}});
  if (!t.text.empty()) content.push_back({{"type", "text"}, {"text", t.text}});
  for (const auto& c : t.calls) {
    auto input = parse_json(c.arguments.empty() ? "{}" : c.arguments);
    content.push_back({{"type", "tool_use"},
                       {"id", c.id},
                       {"name", c.name},
                       {"input", input ? *input : json(c.arguments)}});
  }
  r.turn_output = content;
  if (stream) {
    r.chunks = anthropic_stream(t);
    return r;
  }
  json body = {{"id", "msg_fake"},
               {"type", "message"},
               {"role", "assistant"},
               {"model", "fake-model"},
               {"content", content},
               {"stop_reason", anthropic_stop(t)},
               {"stop_sequence", nullptr},
               {"usage", {{"input_tokens", t.input_tokens}, {"output_tokens", t.output_tokens}}}};
  r.body = dump_json(body);
  return r;
}

scripted_response error_response(int status, std::string message, int retry_after) {
  scripted_response r;
  r.status = status;
  if (retry_after >= 0) r.headers.emplace_back("Retry-After", std::to_string(retry_after));
  r.body = dump_json({{"error", {{"message", message}, {"type", "fake_error"}}}});
  return r;
}

}  // namespace tooluse::testing
