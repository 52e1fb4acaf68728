// progress_mcp_server: an MCP server on stdio with one tool, `steps`, that reports progress
// 1/3, 2/3, 3/3 ("step N of 3") through call_context::report_progress (sent to the client as
// notifications/progress when its request carries a progressToken) and answers
// "all 3 steps done". For the tests of what `tooluse run`/`chat` show on a terminal.
#include <iostream>

#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/transport.hpp"

int main() {
  tooluse::tool_registry tools;
  tools.add({.name = "steps",
             .description = "Works through three steps, reporting progress after each; returns "
                            "a line saying all steps are done.",
             .input_schema = {{"type", "object"}, {"properties", tooluse::json::object()}}},
            [](const tooluse::json&, tooluse::call_context& ctx) {
              for (int i = 1; i <= 3; ++i)
                ctx.report_progress(i, 3, "step " + std::to_string(i) + " of 3");
              return tooluse::tool_result::text("all 3 steps done");
            });
  tooluse::mcp::server server({.name = "progress", .version = "1.0.0"}, &tools);
  auto ok = tooluse::mcp::serve_stdio(server);
  if (!ok) std::cerr << "progress_mcp_server: " << ok.error().message << "\n";
  return ok ? 0 : 1;
}
