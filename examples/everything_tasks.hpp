#pragma once
// The task tools of everything_server (included by everything_server.cpp only): the fixtures
// the conformance suite's tasks-* scenarios call. Tools that set `.task` run as MCP tasks for
// clients that support them (2026-07-28: the io.modelcontextprotocol/tasks extension;
// 2025-11-25: a tools/call with params.task).
#include <condition_variable>
#include <mutex>
#include <string>

#include "tooluse/mcp/server.hpp"

namespace everything_tasks {

using tooluse::json;
using tooluse::tool_result;
namespace mcp = tooluse::mcp;

// pause waits `ms` milliseconds or until the call is stopped (cancelled); false if stopped.
inline bool pause(mcp::request_context& ctx, long long ms) {
  std::mutex m;
  std::condition_variable_any cv;
  std::unique_lock lock(m);
  cv.wait_for(lock, ctx.stop(), std::chrono::milliseconds(ms), [] { return false; });
  return !ctx.stop().stop_requested();
}

inline json confirm_request(const std::string& message, const std::string& field) {
  return {{"method", "elicitation/create"},
          {"params", {{"message", message},
                      {"requestedSchema", {{"type", "object"},
                                           {"properties", {{field, {{"type", "boolean"}}}}},
                                           {"required", {field}}}}}}};
}

inline json name_request(const std::string& message) {
  return {{"method", "elicitation/create"},
          {"params", {{"message", message},
                      {"requestedSchema", {{"type", "object"},
                                           {"properties", {{"name", {{"type", "string"}}}}},
                                           {"required", {"name"}}}}}}};
}

inline std::string content_field(const mcp::request_context& ctx, const char* key, const char* field) {
  const json* r = ctx.input_response(key);
  if (!r || !r->contains("content") || !(*r)["content"].is_object() || !(*r)["content"].contains(field))
    return "unknown";
  const json& v = (*r)["content"][field];
  return v.is_string() ? v.get<std::string>() : tooluse::dump_json(v);
}

inline tooluse::tool task_tool(std::string name, std::string description, json properties = json::object()) {
  return {.name = std::move(name), .description = std::move(description),
          .input_schema = json{{"type", "object"}, {"properties", std::move(properties)}}};
}

inline void add_task_tools(mcp::server& s) {
  using mcp::task_support;
  s.add_tool({.name = "greet", .description = "Says hello (never a task)",
              .input_schema = json{{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}}},
             [](const json& args, auto&) -> mcp::tool_outcome {
               return tool_result::text("Hello, " + args.value("name", std::string("World")) + "!");
             });
  s.add_tool(task_tool("slow_compute", "Sleeps `seconds` seconds, then answers; a task when the client supports tasks",
                       {{"seconds", {{"type", "number"}}}, {"label", {{"type", "string"}}}}),
             [](const json& args, mcp::request_context& ctx) -> mcp::tool_outcome {
               double seconds = args.value("seconds", 1.0);
               std::string label = args.value("label", std::string("compute"));
               if (!pause(ctx, static_cast<long long>(seconds * 1000)))
                 return tool_result::error("slow_compute " + label + " was cancelled");
               return tool_result::text("slow_compute " + label + " finished after " + tooluse::dump_json(args.value("seconds", json(1))) + "s");
             }, task_support::optional);
  s.add_tool(task_tool("failing_job", "Fails with a tool error after a moment (always a task)"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               pause(ctx, 300);
               return tool_result::error("failing_job: the job failed (as it always does)");
             }, task_support::required);
  s.add_tool(task_tool("protocol_error_job", "Fails with a protocol error (a failed task)"),
             [](const json&, mcp::request_context&) -> mcp::tool_outcome {
               return tooluse::jsonrpc::error_object{tooluse::jsonrpc::error_code::internal_error,
                                                    "protocol_error_job: internal failure", nullptr};
             }, task_support::optional);
  s.add_tool(task_tool("confirm_delete", "Asks the user to confirm, then 'deletes' the file",
                       {{"filename", {{"type", "string"}}}}),
             [](const json& args, mcp::request_context& ctx) -> mcp::tool_outcome {
               std::string file = args.value("filename", std::string("file"));
               const json* r = ctx.input_response("confirm");
               if (!r) return mcp::input_required{.input_requests = {{"confirm", confirm_request("Delete " + file + "?", "confirm")}}};
               if (r->value("action", "") == "accept" && content_field(ctx, "confirm", "confirm") == "true")
                 return tool_result::text("Deleted " + file);
               return tool_result::text("Kept " + file + " (not confirmed)");
             }, task_support::optional);
  s.add_tool(task_tool("multi_input", "Asks two questions at once"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               if (!ctx.input_response("first") || !ctx.input_response("second"))
                 return mcp::input_required{.input_requests = {{"first", name_request("First name?")},
                                                               {"second", name_request("Second name?")}}};
               return tool_result::text("Got " + content_field(ctx, "first", "name") + " and " +
                                        content_field(ctx, "second", "name"));
             }, task_support::optional);
  // test_tool_with_task: asks for a name (multi-round-trip, no task yet), then runs as a task.
  s.add_tool(task_tool("test_tool_with_task", "Asks for a name, then greets it from a task"),
             [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
               pause(ctx, 100);
               return tool_result::text("Hello, " + content_field(ctx, "user_name", "name") + "! (from a task)");
             }, task_support::required,
             [](const json&, mcp::request_context& ctx) -> std::optional<mcp::input_required> {
               if (ctx.input_response("user_name")) return std::nullopt;
               return mcp::input_required{.input_requests = {{"user_name", name_request("What is your name?")}}};
             });
}

}  // namespace everything_tasks
