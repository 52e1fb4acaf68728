// everything_server: the MCP conformance suite's "everything" server, written with the public
// tooluse::mcp API. Serves every tool, resource and prompt the server scenarios of
// @modelcontextprotocol/conformance exercise, for the session revisions (2025-11-25) and the
// stateless 2026-07-28 revision alike, and the task tools of the tasks-* scenarios
// (everything_tasks.hpp).
//
//   everything_server --http 127.0.0.1:3000     # Streamable HTTP on http://127.0.0.1:3000/mcp
//   everything_server --stdio                   # newline-delimited JSON on stdin/stdout
#include <csignal>
#include <iostream>
#include <string>
#include <thread>

#include "everything_tasks.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/transport.hpp"

using namespace std::chrono_literals;
using tooluse::json;
using tooluse::tool_result;
namespace mcp = tooluse::mcp;

namespace {

const std::string png =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const std::string wav = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

tooluse::tool no_args(std::string name, std::string description) {
  return {.name = std::move(name), .description = std::move(description),
          .input_schema = json{{"type", "object"}, {"properties", json::object()}}};
}

tooluse::tool string_arg(std::string name, std::string description, std::string arg) {
  return {.name = std::move(name), .description = std::move(description),
          .input_schema = json{{"type", "object"},
                               {"properties", {{arg, {{"type", "string"}}}}},
                               {"required", {arg}}}};
}

json string_form(const std::string& message, const std::string& field) {
  return {{"message", message},
          {"requestedSchema", {{"type", "object"},
                               {"properties", {{field, {{"type", "string"}}}}},
                               {"required", {field}}}}};
}

json elicit(const std::string& message, const std::string& field) {
  return {{"method", "elicitation/create"}, {"params", string_form(message, field)}};
}

json sample(const std::string& text, int max_tokens) {
  return {{"method", "sampling/createMessage"},
          {"params", {{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", text}}}}}},
                      {"maxTokens", max_tokens}}}};
}

// answer reads inputResponses[key].content[field] as text (MRTR tools).
std::string answer(const mcp::request_context& ctx, const char* key, const char* field) {
  const json* r = ctx.input_response(key);
  if (!r || !r->contains("content") || !(*r)["content"].is_object()) return "unknown";
  return (*r)["content"].value(field, "unknown");
}

// ask_client runs a server-to-client request (session revisions) and describes the answer.
tool_result ask_client(mcp::request_context& ctx, const std::string& method, json params,
                       const std::string& prefix) {
  auto reply = ctx.request_client(method, std::move(params));
  if (!reply) return tool_result::text(prefix + " not supported or error: " + reply.error().message);
  if (method == "sampling/createMessage") {
    const json& content = reply->value("content", json::object());
    return tool_result::text("LLM response: " + content.value("text", std::string("No response")));
  }
  return tool_result::text(prefix + ": action=" + reply->value("action", "") +
                           ", content=" + tooluse::dump_json(reply->value("content", json::object())));
}

void add_content_tools(mcp::server& s) {
  s.add_tool(no_args("test_simple_text", "Returns a simple text response"), [](const json&, auto&) -> mcp::tool_outcome {
    return tool_result::text("This is a simple text response for testing.");
  });
  s.add_tool(no_args("test_image_content", "Returns image content"), [](const json&, auto&) -> mcp::tool_outcome {
    return tool_result{.content = {tooluse::image_content{png, "image/png"}}};
  });
  s.add_tool(no_args("test_audio_content", "Returns audio content"), [](const json&, auto&) -> mcp::tool_outcome {
    return tool_result{.content = {tooluse::audio_content{wav, "audio/wav"}}};
  });
  s.add_tool(no_args("test_embedded_resource", "Returns an embedded resource"), [](const json&, auto&) -> mcp::tool_outcome {
    return tool_result{.content = {tooluse::embedded_resource{
                           "test://embedded-resource", "text/plain", "This is an embedded resource content.", {}}}};
  });
  s.add_tool(no_args("test_multiple_content_types", "Returns text, image and resource"),
             [](const json&, auto&) -> mcp::tool_outcome {
               return tool_result{.content = {
                   tooluse::text_content{"Multiple content types test:"},
                   tooluse::image_content{png, "image/png"},
                   tooluse::embedded_resource{"test://mixed-content-resource", "application/json",
                                              R"({"test":"data","value":123})", {}}}};
             });
  s.add_tool(no_args("test_error_handling", "Always fails"), [](const json&, auto&) -> mcp::tool_outcome {
    return tool_result::error("This tool intentionally returns an error for testing");
  });
}

void add_streaming_tools(mcp::server& s) {
  s.add_tool(no_args("test_tool_with_logging", "Sends three log messages"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               ctx.log(mcp::log_level::info, "Tool execution started");
               std::this_thread::sleep_for(50ms);
               ctx.log(mcp::log_level::info, "Tool processing data");
               std::this_thread::sleep_for(50ms);
               ctx.log(mcp::log_level::info, "Tool execution completed");
               return tool_result::text("Tool with logging executed successfully");
             });
  s.add_tool(no_args("test_tool_with_progress", "Reports progress 0, 50, 100 of 100"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               for (int p : {0, 50, 100}) {
                 ctx.progress(p, 100, "Completed step " + std::to_string(p) + " of 100");
                 if (p < 100) std::this_thread::sleep_for(50ms);
               }
               json token = ctx.meta().value("progressToken", json(0));
               return tool_result::text(token.is_string() ? token.get<std::string>() : token.dump());
             });
  s.add_tool(no_args("test_reconnection", "Answers after a short pause"), [](const json&, auto&) -> mcp::tool_outcome {
    std::this_thread::sleep_for(100ms);
    return tool_result::text("Reconnection test completed successfully");
  });
  s.add_tool(no_args("test_logging_tool", "Logs one message when the request asks for logs"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               ctx.log(mcp::log_level::info, "Diagnostic trace logging activated");
               return tool_result::text("Logging evaluated");
             });
  s.add_tool(no_args("test_streaming_elicitation", "Streams progress, then answers"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               ctx.progress(50, 100);
               return tool_result::text("Streaming complete");
             });
}

void add_client_request_tools(mcp::server& s) {
  s.add_tool(string_arg("test_sampling", "Asks the client's LLM", "prompt"),
             [](const json& args, mcp::request_context& ctx) -> mcp::tool_outcome {
               return ask_client(ctx, "sampling/createMessage", sample(args.value("prompt", ""), 100)["params"], "Sampling");
             });
  s.add_tool(string_arg("test_elicitation", "Asks the user", "message"),
             [](const json& args, mcp::request_context& ctx) -> mcp::tool_outcome {
               json params = string_form(args.value("message", ""), "response");
               params["requestedSchema"]["properties"]["response"]["description"] = "User's response";
               return ask_client(ctx, "elicitation/create", params, "User response");
             });
  s.add_tool(no_args("test_elicitation_sep1034_defaults", "Elicitation with defaults"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               json props = {
                   {"name", {{"type", "string"}, {"description", "User name"}, {"default", "John Doe"}}},
                   {"age", {{"type", "integer"}, {"description", "User age"}, {"default", 30}}},
                   {"score", {{"type", "number"}, {"description", "User score"}, {"default", 95.5}}},
                   {"status", {{"type", "string"}, {"description", "User status"},
                               {"enum", {"active", "inactive", "pending"}}, {"default", "active"}}},
                   {"verified", {{"type", "boolean"}, {"description", "Verification status"}, {"default", true}}}};
               json params = {{"message", "Please review and update the form fields with defaults"},
                              {"requestedSchema", {{"type", "object"}, {"properties", props}, {"required", json::array()}}}};
               return ask_client(ctx, "elicitation/create", params, "Elicitation completed");
             });
  s.add_tool(no_args("test_elicitation_sep1330_enums", "Elicitation with enum variants"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               auto titled = [](const char* t1, const char* t2, const char* t3) {
                 return json::array({{{"const", "value1"}, {"title", t1}}, {{"const", "value2"}, {"title", t2}},
                                     {{"const", "value3"}, {"title", t3}}});
               };
               json props = {
                   {"untitledSingle", {{"type", "string"}, {"description", "Select one option"},
                                       {"enum", {"option1", "option2", "option3"}}}},
                   {"titledSingle", {{"type", "string"}, {"description", "Select one option with titles"},
                                     {"oneOf", titled("First Option", "Second Option", "Third Option")}}},
                   {"legacyEnum", {{"type", "string"}, {"description", "Select one option (legacy)"},
                                   {"enum", {"opt1", "opt2", "opt3"}},
                                   {"enumNames", {"Option One", "Option Two", "Option Three"}}}},
                   {"untitledMulti", {{"type", "array"}, {"description", "Select multiple options"},
                                      {"minItems", 1}, {"maxItems", 3},
                                      {"items", {{"type", "string"}, {"enum", {"option1", "option2", "option3"}}}}}},
                   {"titledMulti", {{"type", "array"}, {"description", "Select multiple options with titles"},
                                    {"minItems", 1}, {"maxItems", 3},
                                    {"items", {{"anyOf", titled("First Choice", "Second Choice", "Third Choice")}}}}}};
               json params = {{"message", "Please select options from the enum fields"},
                              {"requestedSchema", {{"type", "object"}, {"properties", props}, {"required", json::array()}}}};
               return ask_client(ctx, "elicitation/create", params, "Elicitation completed");
             });
}

// Multi-round-trip tools (2026-07-28): they return mcp::input_required until the client's
// retry carries the answers; state the server sealed comes back verified in request_state().
void add_input_required_tools(mcp::server& s) {
  s.add_tool(no_args("test_input_required_result_elicitation", "MRTR: asks for a name"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               if (ctx.input_response("user_name")) return tool_result::text("Hello, " + answer(ctx, "user_name", "name") + "!");
               return mcp::input_required{.input_requests = {{"user_name", elicit("What is your name?", "name")}}};
             });
  s.add_tool(no_args("test_input_required_result_sampling", "MRTR: asks the client's LLM"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               if (const json* r = ctx.input_response("sample_request"))
                 return tool_result::text("Sampling result: " +
                                          r->value("content", json::object()).value("text", std::string("no response")));
               return mcp::input_required{.input_requests = {{"sample_request", sample("What is the capital of France?", 100)}}};
             });
  s.add_tool(no_args("test_input_required_result_list_roots", "MRTR: asks for the client's roots"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               if (const json* r = ctx.input_response("roots_request"))
                 return tool_result::text("Found " + std::to_string(r->value("roots", json::array()).size()) + " root(s)");
               return mcp::input_required{.input_requests = {{"roots_request", {{"method", "roots/list"}, {"params", json::object()}}}}};
             });
  auto confirm = json{{"confirm", {{"method", "elicitation/create"},
                                   {"params", {{"message", "Please confirm"},
                                               {"requestedSchema", {{"type", "object"},
                                                                    {"properties", {{"ok", {{"type", "boolean"}}}}},
                                                                    {"required", {"ok"}}}}}}}}};
  s.add_tool(no_args("test_input_required_result_request_state", "MRTR: round trip with requestState"),
             [confirm](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               const auto& state = ctx.request_state();
               if (state && state->value("kind", "") == "request-state" && ctx.input_response("confirm"))
                 return tool_result::text("state-ok: requestState validated");
               return mcp::input_required{.input_requests = confirm, .state = json{{"kind", "request-state"}}};
             });
  s.add_tool(no_args("test_input_required_result_tampered_state", "MRTR: integrity-checked requestState"),
             [confirm](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               if (ctx.request_state() && ctx.input_response("confirm")) return tool_result::text("integrity-ok: state verified");
               return mcp::input_required{.input_requests = confirm, .state = json{{"kind", "tamper-test"}}};
             });
  s.add_tool(no_args("test_input_required_result_multiple_inputs", "MRTR: three inputs at once"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               const json* greeting = ctx.input_response("greeting");
               const json* roots = ctx.input_response("client_roots");
               if (ctx.request_state() && ctx.input_response("user_name") && greeting && roots)
                 return tool_result::text("Name: " + answer(ctx, "user_name", "name") + "; Greeting: " +
                                          greeting->value("content", json::object()).value("text", std::string("Hello there!")) +
                                          "; Roots: " + std::to_string(roots->value("roots", json::array()).size()));
               return mcp::input_required{
                   .input_requests = {{"user_name", elicit("What is your name?", "name")},
                                      {"greeting", sample("Generate a greeting", 50)},
                                      {"client_roots", {{"method", "roots/list"}, {"params", json::object()}}}},
                   .state = json{{"kind", "multiple-inputs"}}};
             });
  s.add_tool(no_args("test_input_required_result_multi_round", "MRTR: two rounds of questions"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               const auto& state = ctx.request_state();
               int round = state ? state->value("round", 0) : 0;
               if (round == 1 && ctx.input_response("step1"))
                 return mcp::input_required{
                     .input_requests = {{"step2", elicit("Step 2: What is your favorite color?", "color")}},
                     .state = json{{"round", 2}, {"name", answer(ctx, "step1", "name")}}};
               if (round == 2 && ctx.input_response("step2"))
                 return tool_result::text("Multi-round complete for " + state->value("name", std::string("friend")) +
                                          " who likes " + answer(ctx, "step2", "color"));
               return mcp::input_required{.input_requests = {{"step1", elicit("Step 1: What is your name?", "name")}},
                                          .state = json{{"round", 1}}};
             });
  s.add_tool(no_args("test_input_required_result_capabilities", "MRTR: asks only what the client supports"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               if (!ctx.input_responses().empty()) {
                 std::string keys;
                 for (const auto& [k, v] : ctx.input_responses().items()) keys += (keys.empty() ? "" : ",") + k;
                 return tool_result::text("capabilities-ok: received " + keys);
               }
               json requests = json::object();
               if (ctx.has_client_capability("elicitation")) requests["elicit_input"] = elicit("Elicitation input", "value");
               if (ctx.has_client_capability("sampling")) requests["sample_input"] = sample("Sample request", 50);
               if (requests.empty()) return tool_result::text("No supported capabilities declared");
               return mcp::input_required{.input_requests = requests, .state = json{{"kind", "capabilities-test"}}};
             });
  s.add_tool(no_args("test_missing_capability", "Needs the client's sampling capability"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               if (!ctx.has_client_capability("sampling")) return mcp::missing_capability({{"sampling", json::object()}});
               return tool_result::text("Success");
             });
}

void add_misc_tools(mcp::server& s) {
  json schema = json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
    "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                          "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                   "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                   "phone": {"type": "string"}, "email": {"type": "string"}},
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]}, "else": {"required": ["email"]},
    "additionalProperties": false})");
  s.add_tool({.name = "json_schema_2020_12_tool",
              .description = "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
              .input_schema = schema},
             [](const json& args, auto&) -> mcp::tool_outcome {
               return tool_result::text("JSON Schema 2020-12 tool called with: " + tooluse::dump_json(args));
             });
  s.add_tool(no_args("test_trigger_tool_change", "Sends tools/list_changed"), [&s](const json&, auto&) -> mcp::tool_outcome {
    s.notify_list_changed("tools");
    return tool_result::text("Mutation triggered");
  });
  s.add_tool(no_args("test_trigger_prompt_change", "Sends prompts/list_changed"), [&s](const json&, auto&) -> mcp::tool_outcome {
    s.notify_list_changed("prompts");
    return tool_result::text("Mutation triggered");
  });
}

mcp::resource_handler fixed(std::string mime, std::optional<std::string> text, std::optional<std::string> blob = {}) {
  return [=](const std::string& uri, const json&, auto&) -> tooluse::result<std::vector<mcp::resource_contents>> {
    return std::vector<mcp::resource_contents>{{uri, mime, text, blob}};
  };
}

void add_resources(mcp::server& s) {
  s.add_resource({.uri = "test://static-text", .name = "static-text", .title = "Static Text Resource",
                  .description = "A static text resource for testing", .mime_type = "text/plain"},
                 fixed("text/plain", "This is the content of the static text resource."));
  s.add_resource({.uri = "test://static-binary", .name = "static-binary", .title = "Static Binary Resource",
                  .description = "A static binary resource (image) for testing", .mime_type = "image/png"},
                 fixed("image/png", std::nullopt, png));
  s.add_resource({.uri = "test://watched-resource", .name = "watched-resource", .title = "Watched Resource",
                  .description = "A resource that can be subscribed to", .mime_type = "text/plain"},
                 fixed("text/plain", "Watched resource content"));
  s.add_resource_template(
      {.uri_template = "test://template/{id}/data", .name = "template", .title = "Resource Template",
       .description = "A resource template with parameter substitution", .mime_type = "application/json"},
      [](const std::string& uri, const json& vars, auto&) -> tooluse::result<std::vector<mcp::resource_contents>> {
        std::string id = vars.value("id", "");
        json data = {{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}};
        return std::vector<mcp::resource_contents>{{uri, "application/json", tooluse::dump_json(data), {}}};
      });
}

mcp::prompt_message user_text(std::string text) { return {"user", tooluse::text_content{std::move(text)}}; }

void add_prompts(mcp::server& s) {
  s.add_prompt({.name = "test_simple_prompt", .title = "Simple Test Prompt", .description = "A simple prompt without arguments"},
               [](const json&, auto&) -> tooluse::result<mcp::prompt_outcome> {
                 return mcp::prompt_result{.messages = {user_text("This is a simple prompt for testing.")}};
               });
  s.add_prompt({.name = "test_prompt_with_arguments", .title = "Prompt With Arguments",
                .description = "A prompt with required arguments",
                .arguments = {{"arg1", "First test argument", true}, {"arg2", "Second test argument", true}}},
               [](const json& args, auto&) -> tooluse::result<mcp::prompt_outcome> {
                 return mcp::prompt_result{.messages = {user_text("Prompt with arguments: arg1='" + args.value("arg1", "") +
                                                                  "', arg2='" + args.value("arg2", "") + "'")}};
               });
  s.add_prompt({.name = "test_prompt_with_embedded_resource", .title = "Prompt With Embedded Resource",
                .description = "A prompt that includes an embedded resource",
                .arguments = {{"resourceUri", "URI of the resource to embed", true}}},
               [](const json& args, auto&) -> tooluse::result<mcp::prompt_outcome> {
                 tooluse::embedded_resource r{args.value("resourceUri", ""), "text/plain",
                                              "Embedded resource content for testing.", {}};
                 return mcp::prompt_result{.messages = {{"user", r}, user_text("Please process the embedded resource above.")}};
               });
  s.add_prompt({.name = "test_prompt_with_image", .title = "Prompt With Image", .description = "A prompt that includes image content"},
               [](const json&, auto&) -> tooluse::result<mcp::prompt_outcome> {
                 return mcp::prompt_result{.messages = {{"user", tooluse::image_content{png, "image/png"}},
                                                        user_text("Please analyze the image above.")}};
               });
  s.add_prompt({.name = "test_input_required_result_prompt", .description = "MRTR: prompt that requires elicitation input"},
               [](const json&, mcp::request_context& ctx) -> tooluse::result<mcp::prompt_outcome> {
                 if (ctx.input_response("user_context"))
                   return mcp::prompt_result{.messages = {user_text("Prompt with context: " + answer(ctx, "user_context", "context"))}};
                 return mcp::input_required{.input_requests = {{"user_context", elicit("What context should the prompt use?", "context")}}};
               });
  s.set_completion([](const json&, const std::string&, const std::string&, auto&) {
    return mcp::completion_result{.values = {}, .total = 0, .has_more = false};
  });
}

int usage() {
  std::cout << "usage: everything_server --http HOST:PORT | --stdio\n"
               "The MCP conformance suite's everything-server (endpoint /mcp over HTTP).\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string mode = argv[1];
  mcp::server server({.name = "tooluse-everything-server", .version = "1.0.0"});
  add_content_tools(server);
  add_streaming_tools(server);
  add_client_request_tools(server);
  add_input_required_tools(server);
  add_misc_tools(server);
  everything_tasks::add_task_tools(server);
  add_resources(server);
  add_prompts(server);
  if (mode == "--stdio") return mcp::serve_stdio(server) ? 0 : 1;
  if (mode != "--http" || argc < 3) return usage();
  std::string addr = argv[2];
  auto colon = addr.rfind(':');
  if (colon == std::string::npos) return usage();
  mcp::http_server http(server, {.host = addr.substr(0, colon),
                                 .port = static_cast<unsigned short>(std::stoi(addr.substr(colon + 1)))});
  if (auto ok = http.start(); !ok) {
    std::cerr << "everything_server: " << ok.error().message << "\n";
    return 1;
  }
  std::cerr << "everything_server: listening on " << http.url() << "\n";
  std::signal(SIGPIPE, SIG_IGN);
  http.wait();
  return 0;
}
