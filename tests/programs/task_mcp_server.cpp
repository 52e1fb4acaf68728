// task_mcp_server: an MCP server whose tools run only as tasks, for the tests that drive tasks
// through a real process (the client over stdio and HTTP, `tooluse run --mcp`, restarts).
//   task_mcp_server --stdio [--events PATH] [--poll-interval-ms N] [--task-store FILE]
//   task_mcp_server --http PORT [...]     # prints "listening on URL" on stderr
// Tools (taskSupport required):
//   long_job {seconds, label}  waits `seconds` (default 3600) or until cancelled, then answers
//                              "long_job LABEL finished"; a cancelled call answers an error.
//   ask_job {label}            asks the client for a name (elicitation inside the task), then
//                              answers "hello NAME from LABEL".
// With --events, the tools append one line per event to PATH (a file or a FIFO the test
// reads): "started LABEL", "stopped LABEL" (its stop token fired: the task was cancelled),
// "finished LABEL". That is how a test sees, without sleeping, that a tool runs or saw the
// cancellation.
#include <fcntl.h>
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <iostream>
#include <mutex>
#include <string>

#include "tooluse/mcp/http_server.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/transport.hpp"
#include "tooluse/mcp_store/task_store.hpp"

namespace {

using tooluse::json;
using tooluse::tool_result;
namespace mcp = tooluse::mcp;

std::string events_path;
std::mutex events_mu;

// event appends a line to --events (opened per line, so a FIFO reader sees each at once).
void event(const std::string& line) {
  if (events_path.empty()) return;
  std::lock_guard lock(events_mu);
  int fd = ::open(events_path.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) return;
  std::string l = line + "\n";
  (void)!::write(fd, l.data(), l.size());
  ::close(fd);
}

// pause waits `ms` or until the call is stopped; false when stopped.
bool pause(mcp::request_context& ctx, long long ms) {
  std::mutex m;
  std::condition_variable_any cv;
  std::unique_lock lock(m);
  cv.wait_for(lock, ctx.stop(), std::chrono::milliseconds(ms), [] { return false; });
  return !ctx.stop().stop_requested();
}

void add_tools(mcp::server& s) {
  s.add_tool({.name = "long_job",
              .description = "Works for `seconds` seconds (a task), then says it finished",
              .input_schema = json{{"type", "object"},
                                   {"properties",
                                    {{"seconds", {{"type", "number"}}},
                                     {"label", {{"type", "string"}}}}}}},
             [](const json& args, mcp::request_context& ctx) -> mcp::tool_outcome {
               const std::string label = args.value("label", std::string("job"));
               event("started " + label);
               if (!pause(ctx, static_cast<long long>(args.value("seconds", 3600.0) * 1000))) {
                 event("stopped " + label);
                 return tool_result::error("long_job " + label + " was cancelled");
               }
               event("finished " + label);
               return tool_result::text("long_job " + label + " finished");
             },
             mcp::task_support::required);
  s.add_tool({.name = "ask_job",
              .description = "Asks for a name inside a task, then greets it",
              .input_schema = json{{"type", "object"},
                                   {"properties", {{"label", {{"type", "string"}}}}}}},
             [](const json& args, mcp::request_context& ctx) -> mcp::tool_outcome {
               const std::string label = args.value("label", std::string("job"));
               const json* r = ctx.input_response("name");
               if (!r)
                 return mcp::input_required{
                     .input_requests = {
                         {"name",
                          {{"method", "elicitation/create"},
                           {"params",
                            {{"message", "What is your name?"},
                             {"requestedSchema",
                              {{"type", "object"},
                               {"properties", {{"name", {{"type", "string"}}}}},
                               {"required", {"name"}}}}}}}}}};
               std::string name = "nobody";
               if (r->value("action", "") == "accept" && r->contains("content") &&
                   (*r)["content"].is_object())
                 name = (*r)["content"].value("name", name);
               event("finished " + label);
               return tool_result::text("hello " + name + " from " + label);
             },
             mcp::task_support::required);
}

int usage() {
  std::cerr << "usage: task_mcp_server --stdio | --http PORT  [--events PATH] [--poll-interval-ms N] [--task-store FILE]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string mode = argv[1];
  int port = 0;
  int i = 2;
  if (mode == "--http") {
    if (argc < 3) return usage();
    port = std::stoi(argv[2]);
    i = 3;
  } else if (mode != "--stdio") {
    return usage();
  }
  mcp::server_options options;
  for (; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--events") events_path = argv[i + 1];
    if (std::string(argv[i]) == "--poll-interval-ms") options.tasks.poll_interval_ms = std::stoll(argv[i + 1]);
    if (std::string(argv[i]) == "--task-store") {
      auto store = tooluse::mcp_store::open_task_store(argv[i + 1]);
      if (!store) {
        std::cerr << "task_mcp_server: " << store.error().message << "\n";
        return 1;
      }
      options.tasks.store = *store;
    }
  }
  mcp::server server({.name = "task-test-server", .version = "1.0.0"}, nullptr, options);
  add_tools(server);
  if (mode == "--stdio") {
    auto ok = mcp::serve_stdio(server);
    if (!ok) std::cerr << "task_mcp_server: " << ok.error().message << "\n";
    return ok ? 0 : 1;
  }
  mcp::http_server http(server, {.host = "127.0.0.1", .port = static_cast<unsigned short>(port)});
  if (auto ok = http.start(); !ok) {
    std::cerr << "task_mcp_server: " << ok.error().message << "\n";
    return 1;
  }
  std::cerr << "task_mcp_server: listening on " << http.url() << std::endl;
  std::signal(SIGPIPE, SIG_IGN);
  http.wait();
  return 0;
}
