// MCP tasks: a native tool declared long-running is served as a task; the client's call_tool
// waits for it; a task is cancelled; task records kept in a SQLite file outlive the server, so
// a second server (a restart) still serves a finished task's result. Server and client run in
// one process over Streamable HTTP on loopback.
#include <unistd.h>

#include <condition_variable>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <tooluse/mcp/client.hpp>
#include <tooluse/mcp/http_client_transport.hpp>
#include <tooluse/mcp/http_server.hpp>
#include <tooluse/mcp/server.hpp>
#include <tooluse/mcp_store/task_store.hpp>
#include <tooluse/tooluse.hpp>

namespace mcp = tooluse::mcp;
using tooluse::json;

// serve_tasks makes the demo server: `report` (a registry tool tagged long-running) and `watch`
// (an MCP-level tool that runs as a task until it is cancelled).
std::unique_ptr<mcp::server> serve_tasks(tooluse::tool_registry& tools,
                                         std::shared_ptr<mcp::task_store> store) {
  auto server = std::make_unique<mcp::server>(
      mcp::implementation{.name = "tasks-demo", .version = "1.0.0"}, &tools,
      mcp::server_options{.tasks = {.store = std::move(store)}});
  server->add_tool({.name = "watch", .description = "Watches until cancelled"},
                   [](const json&, mcp::request_context& ctx) -> mcp::tool_outcome {
                     std::mutex m;
                     std::condition_variable_any cv;
                     std::unique_lock lock(m);
                     cv.wait(lock, ctx.stop(), [] { return false; });  // until tasks/cancel
                     return tooluse::tool_result::error("watch stopped");
                   },
                   mcp::task_support::required);
  return server;
}

int main() {
  tooluse::tool_registry tools;
  tools.add({.name = "report",
             .description = "Writes a report on a topic (takes a while)",
             .input_schema = {{"type", "object"},
                              {"properties", {{"topic", {{"type", "string"}}}}},
                              {"required", {"topic"}}},
             .tags = {std::string(mcp::long_running_tag)}},  // served as a task
            [](const json& args, tooluse::call_context&) {
              return tooluse::tool_result::text("report on " + args["topic"].get<std::string>() +
                                                ": done");
            });
  const auto db = std::filesystem::temp_directory_path() /
                  ("tooluse-mcp-tasks-" + std::to_string(::getpid()) + ".db");
  std::string kept_id;
  {
    auto store = tooluse::mcp_store::open_task_store(db.string());
    if (!store) return std::cerr << store.error().message << "\n", 1;
    auto server = serve_tasks(tools, *store);
    mcp::http_server http(*server);
    if (auto ok = http.start(); !ok) return std::cerr << ok.error().message << "\n", 1;
    auto client = mcp::client::connect(mcp::make_http_client_transport({.url = http.url()}));
    if (!client) return std::cerr << client.error().message << "\n", 1;

    // call_tool waits for the task (polling tasks/get), on_task sees its statuses.
    std::string last;
    auto r = (*client)->call_tool("report", {{"topic", "tasks"}},
                                  {.on_task = [&](const mcp::task_update& u) { last = u.status; }});
    if (!r) return std::cerr << r.error().message << "\n", 1;
    std::cout << "report: " << r->all_text() << " (task " << last << ")\n";

    // Step by step: start, cancel; the tool's stop token fires.
    auto watch = (*client)->start_tool_task("watch");
    if (!watch) return std::cerr << watch.error().message << "\n", 1;
    const std::string watch_id = (*watch)["taskId"];
    (void)(*client)->cancel_task(watch_id);
    auto w = (*client)->wait_task(watch_id);
    std::cout << "watch: " << (!w && w.error().code == tooluse::errc::cancelled ? "cancelled" : "?")
              << "\n";

    // A task whose result we fetch after the server restarted.
    auto later = (*client)->start_tool_task("report", {{"topic", "durability"}});
    if (!later) return std::cerr << later.error().message << "\n", 1;
    kept_id = (*later)["taskId"];
    (void)(*client)->wait_task(kept_id);
  }  // the server goes away
  {
    auto store = tooluse::mcp_store::open_task_store(db.string());
    if (!store) return std::cerr << store.error().message << "\n", 1;
    auto server = serve_tasks(tools, *store);
    mcp::http_server http(*server);
    if (auto ok = http.start(); !ok) return std::cerr << ok.error().message << "\n", 1;
    auto client = mcp::client::connect(mcp::make_http_client_transport({.url = http.url()}));
    if (!client) return std::cerr << client.error().message << "\n", 1;
    auto again = (*client)->wait_task(kept_id);
    if (!again) return std::cerr << again.error().message << "\n", 1;
    std::cout << "after a restart: " << (*again)["content"][0]["text"].get<std::string>() << "\n";
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db.string() + suffix);
}
