// durable_tool_server DIR: an MCP stdio server with one side-effecting tool for the crash tests
// of durable runs (tests/integration/durable). `append {text}`:
//   1. appends "KEY TEXT" to DIR/executions.log (every execution, retries included);
//   2. unless KEY is already in DIR/effects.log, appends "KEY TEXT" there (the side effect,
//      made idempotent with the call's key from `_meta` "io.tooluse/idempotency-key");
//   3. if DIR/block_text holds TEXT: removes it, writes its parent's pid (the tooluse process
//      running the call) to DIR/blocker_pid, and blocks reading the FIFO DIR/fifo until the
//      test closes it (a call killed mid-way, after its side effect);
//   4. returns "ok TEXT".
#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tooluse/mcp/protocol.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/transport.hpp"

namespace mcp = tooluse::mcp;
using tooluse::json;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void append_line(const std::string& path, const std::string& line) {
  std::ofstream out(path, std::ios::app);
  out << line << "\n" << std::flush;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const std::string dir = argv[1];
  mcp::server server({.name = "durable-tool-server", .version = "1.0.0"});
  server.add_tool({.name = "append",
                   .description = "Append a line to the log",
                   .input_schema = json{{"type", "object"},
                                        {"properties", {{"text", {{"type", "string"}}}}},
                                        {"required", {"text"}}}},
                  [dir](const json& args, mcp::request_context& ctx) -> mcp::tool_outcome {
                    std::string text = args.value("text", "");
                    std::string key = ctx.meta().value(std::string(mcp::meta_idempotency_key),
                                                       std::string("none"));
                    append_line(dir + "/executions.log", key + " " + text);
                    std::string effects = slurp(dir + "/effects.log");
                    if (effects.find(key + " ") == std::string::npos)
                      append_line(dir + "/effects.log", key + " " + text);
                    std::string block = slurp(dir + "/block_text");
                    if (!block.empty() && block == text) {
                      ::unlink((dir + "/block_text").c_str());
                      std::ofstream(dir + "/blocker_pid")
                          << ::getppid();  // the process running the call
                      int fd = ::open((dir + "/fifo").c_str(), O_RDONLY);
                      char buf[64];
                      while (fd >= 0 && ::read(fd, buf, sizeof buf) > 0) {
                      }
                      if (fd >= 0) ::close(fd);
                    }
                    return tooluse::tool_result::text("ok " + text);
                  });
  return mcp::serve_stdio(server) ? 0 : 1;
}
