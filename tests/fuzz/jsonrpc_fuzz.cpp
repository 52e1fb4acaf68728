// Fuzzes JSON-RPC framing and MCP request handling: the input is split into lines, each parsed
// as JSON-RPC (batches allowed) and re-serialized, then fed to an MCP server through the
// in-memory transport. Nothing may crash, and every serialized message must parse back.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tooluse/jsonrpc/message.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/transport.hpp"

namespace {

tooluse::mcp::server& fuzz_server() {
  static tooluse::mcp::server* srv = [] {
    auto* s = new tooluse::mcp::server({.name = "fuzz", .version = "0"});
    s->add_tool({.name = "echo"}, [](const tooluse::json& args, tooluse::mcp::request_context&) -> tooluse::mcp::tool_outcome {
      return tooluse::tool_result::text(tooluse::dump_json(args));
    });
    s->add_prompt({.name = "p", .arguments = {{"a", "", true}}},
                  [](const tooluse::json&, tooluse::mcp::request_context&) -> tooluse::result<tooluse::mcp::prompt_outcome> {
                    return tooluse::mcp::prompt_result{};
                  });
    return s;
  }();
  return *srv;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = tooluse::jsonrpc::parse(text, {.allow_batch = true});
  for (const auto& m : parsed.messages) {
    auto again = tooluse::jsonrpc::parse(tooluse::jsonrpc::serialize(m));
    if (again.messages.size() != 1) __builtin_trap();
  }
  tooluse::mcp::memory_client client(fuzz_server());
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    // Skip calls that would wait on the client (none registered) and keep the run short.
    client.send_text(std::string(text.substr(start, nl - start)));
    start = nl + 1;
  }
  client.close();
  while (client.receive(std::chrono::milliseconds(0))) {
  }
  return 0;
}
