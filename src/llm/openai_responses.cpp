// The OpenAI Responses adapter: request building, the JSON answer and the SSE event stream.
#include "tooluse/llm/openai_responses.hpp"

#include <map>

#include "exchange.hpp"
#include "responses_wire.hpp"

namespace tooluse::llm {
namespace openai_responses_impl {

// stream_state assembles a streamed Response: output items by output_index, completed by
// response.output_item.done; response.completed carries the final Response (usage, status).
struct stream_state final : detail::stream_decoder {
  struct streamed_item {
    json raw;                      // as sent, to go in the final output
    bool wants_arguments = false;  // a function_call whose arguments came as deltas
  };
  std::map<int, streamed_item> items;
  std::map<int, std::string> arguments;
  json final_response;

  void on_event(const http::sse_event& ev) override {
    if (failure) return;
    if (ev.data == "[DONE]") return;
    auto e = decode_event<detail::responses_wire::event>(ev, "event");
    if (!e) return;
    std::string type = e->type.value_or(ev.event);
    int index = e->output_index.value_or(0);
    if (type == "response.output_item.added" || type == "response.output_item.done") {
      json raw = e->item.value_or(json::object());
      auto item = detail::decode_answer<detail::responses_wire::output_item>(
          raw, "openai-responses", "event.item");
      if (!item) {
        failure = item.error();
        return;
      }
      if (type == "response.output_item.added" && item->type == "function_call" &&
          callbacks->on_tool_call_start) {
        std::string wire = item->name.value_or("");
        callbacks->on_tool_call_start(item->call_id.value_or(""),
                                      names->original_name(wire).value_or(wire));
      }
      bool no_arguments = !item->arguments || (item->arguments->is_string() &&
                                               item->arguments->get_ref<const std::string&>().empty());
      items[index] = {std::move(raw), item->type == "function_call" && no_arguments};
    } else if (type == "response.function_call_arguments.delta") {
      arguments[index] += e->delta.value_or("");
    } else if (type == "response.function_call_arguments.done") {
      if (e->arguments) arguments[index] = *e->arguments;
    } else if (type == "response.output_text.delta") {
      std::string s = e->delta.value_or("");
      if (!s.empty() && callbacks->on_text) callbacks->on_text(s);
    } else if (type == "response.reasoning_summary_text.delta" ||
               type == "response.reasoning_text.delta") {
      std::string s = e->delta.value_or("");
      if (!s.empty() && callbacks->on_reasoning) callbacks->on_reasoning(s);
    } else if (type == "response.completed" || type == "response.incomplete" ||
               type == "response.failed") {
      final_response = e->response.value_or(json::object());
    } else if (type == "error") {
      error_event(ev);
    }
  }

  result<chat_response> assemble() override {
    if (failure) return fail(*failure);
    if (!final_response.is_object() || final_response.empty())
      return fail(cut_short("response.completed"));
    // The final Response lists the output; if a server leaves it empty, use the items streamed.
    auto listed = final_response.find("output");
    if (listed == final_response.end() || !listed->is_array() || listed->empty()) {
      json output = json::array();
      for (auto& [index, item] : items) {
        if (item.wants_arguments && arguments.count(index))
          item.raw["arguments"] = arguments[index];
        output.push_back(item.raw);
      }
      final_response["output"] = output;
    }
    return detail::responses_decode(final_response, *req, *names);
  }
};

}  // namespace openai_responses_impl

namespace openai_responses_impl {

json encode_body(const provider_options& options, const chat_request& req,
                 const detail::wire_tools& tools) {
  json body = {{"model", options.model},
               {"input", detail::responses_input(req.messages, tools.names)}};
  std::string system = detail::system_text(req.messages);
  if (!system.empty()) body["instructions"] = system;
  if (!req.tools.empty()) {
    detail::place_tools(body, tools);
    if (req.choice.what != tool_choice::mode::automatic || !req.allowed_tools.empty())
      body["tool_choice"] =
          detail::responses_tool_choice(req.choice, req.allowed_tools, tools.names);
    if (req.parallel_tool_calls) body["parallel_tool_calls"] = *req.parallel_tool_calls;
  }
  if (req.max_tokens) body["max_output_tokens"] = *req.max_tokens;
  if (req.temperature) body["temperature"] = *req.temperature;
  if (req.stream) body["stream"] = true;
  return body;
}

result<detail::wire_tools> responses_tools(const chat_request& req) {
  return detail::export_wire_tools(req.tools, schema::export_target::responses, req.strict);
}

const detail::provider_wire wire{
    .who = "openai-responses", .tools = responses_tools, .body = encode_body, .path = "responses",
    .headers = detail::bearer_key, .decode = detail::responses_decode,
    .stream = detail::decoder_of<stream_state>};

}  // namespace openai_responses_impl

openai_responses::openai_responses(provider_options options)
    : http_adapter(std::move(options), openai_responses_impl::wire, "openai_responses") {}

}  // namespace tooluse::llm
