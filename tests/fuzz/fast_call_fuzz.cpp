// Fuzzes the fast path of a stateless tools/call (src/mcp/fast_call.hpp) against the general
// path: the input is a request body. When the fast path takes it, the general path (what the
// HTTP server does for it: jsonrpc::parse, stateless_check, server_session::handle) must take it
// as a valid 2026-07-28 request too and answer with the same bytes; when it declines, it must
// not have run the tool. Nothing may crash.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "mcp/fast_call.hpp"
#include "mcp/server_impl.hpp"
#include "tooluse/jsonrpc/message.hpp"
#include "tooluse/mcp/connection.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/server_session.hpp"
#include "tooluse/tools/registry.hpp"

namespace {

namespace mcp = tooluse::mcp;
using tooluse::json;

int runs = 0;  // calls of the tools, to tell whether a declined request ran one

struct fixture {
  tooluse::tool_registry registry;
  mcp::server server;
  std::unique_ptr<mcp::server_session> fast_root, general_root;
  // No circuit breaker: "fails" fails on every call, and a breaker that opens between the fast
  // and the general call would answer them differently for a reason that is not the path.
  fixture() : server({.name = "fuzz", .version = "0"}, &registry, {.exec_options = {.breaker = {.failure_threshold = 0}}}) {
    const json schema = {{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}};
    registry.add({.name = "echo", .input_schema = schema, .synchronous = true},
                 [](const json& a, tooluse::call_context&) {
                   ++runs;
                   return tooluse::tool_result::text(tooluse::dump_json(a));
                 });
    registry.add({.name = "fails", .synchronous = true}, [](const json&, tooluse::call_context&) {
      ++runs;
      tooluse::tool_result r = tooluse::tool_result::error("no \xff");
      r.structured_content = json{{"x", 0.5}};
      return r;
    });
    // Reads its request's params, which the fast path builds only when asked.
    registry.add({.name = "sees", .synchronous = true}, [](const json&, tooluse::call_context& ctx) {
      ++runs;
      auto r = mcp::request_of(ctx);
      return tooluse::tool_result::text(r ? tooluse::dump_json(r->params()) + tooluse::dump_json(r->meta()) : "none");
    });
    fast_root = server.connect_stateless();
    general_root = server.connect_stateless();
  }
};

fixture& the_fixture() {
  static auto* f = new fixture;
  return *f;
}

// recorder keeps the response (text or message) of the fast path.
struct recorder final : mcp::detail::fast_reply {
  std::string response;
  void related(const json&) override {}
  bool text(std::string r) override {
    response = std::move(r);
    return true;
  }
  void message(const json& m) override { response = tooluse::dump_json(m); }
};

// general_connection keeps the last message the general path writes.
class general_connection final : public mcp::connection {
 public:
  std::string response;
  tooluse::result<mcp::connection_info> start(mcp::connection_handlers) override { return mcp::connection_info{}; }
  tooluse::status write(const mcp::outgoing& out) override {
    response = tooluse::dump_json(out.message);
    return {};
  }
  void close() override {}
  std::string describe() const override { return "fuzz"; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto& f = the_fixture();
  auto doc = tooluse::parse_json(text);
  if (!doc) return 0;
  std::string name = "echo";
  if (doc->is_object())
    if (auto p = doc->find("params"); p != doc->end() && p->is_object())
      if (auto n = p->find("name"); n != p->end() && n->is_string()) name = n->get<std::string>();
  recorder fast;
  const int before = runs;
  // As the HTTP route calls it: the tool checked first. Every other input is read in a copy (the
  // fuzzer's data has nothing to spare past its end); one in eight is also read where it is.
  std::string spare(text);
  spare.reserve(text.size() + 64);
  const bool in_place = size % 8 == 0;
  const bool taken = mcp::detail::fast_tool(f.server, name) &&
                     mcp::detail::fast_tools_call(f.server, *f.fast_root->state(), in_place ? std::string_view(spare) : text,
                                                  in_place ? spare.capacity() : text.size(), "2026-07-28", name, fast, "");
  if (!taken) {
    if (runs != before || !fast.response.empty()) __builtin_trap();  // declined after running
    return 0;
  }
  auto parsed = tooluse::jsonrpc::parse(text);
  if (!parsed.errors.empty() || parsed.messages.size() != 1) __builtin_trap();
  const auto* r = std::get_if<tooluse::jsonrpc::request>(&parsed.messages.front());
  if (!r || r->method != "tools/call") __builtin_trap();
  mcp::wire::request_meta checked;
  if (f.server.stateless_check(*r, &checked)) __builtin_trap();  // the general path would refuse it
  general_connection general;
  f.general_root->handle(parsed.messages.front(), general, checked);
  if (general.response != fast.response) __builtin_trap();
  return 0;
}
