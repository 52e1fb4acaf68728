// Fuzzes the MCP client's input side: the bytes are an SSE stream (split in two chunks at a
// position the first byte picks); every event's data, and the whole input, are parsed as JSON
// and handed to a connected mcp::client as messages from the server (responses, server
// requests, notifications). A JSON array found in the input also becomes the next tools/list
// page, which goes through the 2026-07-28 x-mcp-header validation. Nothing may crash, hang or
// leak; the client answers server requests on its worker threads.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "tooluse/http/sse.hpp"
#include "tooluse/json.hpp"
#include "tooluse/mcp/client.hpp"

namespace {

using tooluse::json;
namespace mcp = tooluse::mcp;

// fuzz_transport plays a 2026-07-28 HTTP server: discover succeeds, tools/list returns the
// tools the fuzzer chose, everything else gets an empty result.
class fuzz_transport : public mcp::client_transport {
 public:
  tooluse::result<mcp::connection_info> start(mcp::transport_handlers h) override {
    h_ = std::move(h);
    return mcp::connection_info{.carries_headers = true};  // as HTTP: x-mcp-header rules apply
  }
  tooluse::status write(const mcp::outgoing& out) override {
    const json& m = out.message;
    if (!m.is_object() || !m.contains("id") || !m.contains("method")) return {};
    json result = json::object();
    const std::string method = m["method"];
    if (method == "server/discover") {
      result = {{"supportedVersions", {"2026-07-28"}},
                {"capabilities", {{"tools", json::object()}}}};
    } else if (method == "tools/list") {
      std::lock_guard lock(mu_);
      result = {{"tools", tools_}};
    }
    h_.on_message({{"jsonrpc", "2.0"}, {"id", m["id"]}, {"result", result}});
    return {};
  }
  void close() override {}
  std::string describe() const override { return "fuzz server"; }

  void deliver(json m) { h_.on_message(std::move(m)); }
  void set_tools(json tools) {
    std::lock_guard lock(mu_);
    tools_ = std::move(tools);
  }

 private:
  mcp::transport_handlers h_;
  std::mutex mu_;
  json tools_ = json::array();
};

struct harness {
  fuzz_transport* transport = nullptr;
  std::shared_ptr<mcp::client> client;

  harness() {
    auto t = std::make_unique<fuzz_transport>();
    transport = t.get();
    auto c = mcp::client::connect(
        std::move(t), {.request_timeout = std::chrono::seconds(5),
                       .on_elicitation = [](const json&, std::stop_token) -> tooluse::result<json> {
                         return json{{"action", "accept"}, {"content", json::object()}};
                       },
                       .roots = {{.uri = "file:///fuzz", .name = "fuzz"}},
                       .on_log = [](const mcp::log_entry&) {},
                       .on_tools_changed = [] {},
                       .on_warning = [](std::string_view) {}});  // dropped notifications
    if (c) client = *c;
  }
};

void feed_message(harness& h, const std::string& text) {
  auto parsed = tooluse::parse_json(text);
  if (!parsed) return;
  if (parsed->is_array()) {
    h.transport->set_tools(*parsed);
    (void)h.client->list_tools({.refresh = true});
    return;
  }
  h.transport->deliver(std::move(*parsed));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static harness h;
  if (!h.client || size == 0) return 0;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  const std::size_t split = static_cast<unsigned char>(in[0]) % in.size();
  tooluse::http::sse_parser parser;
  auto on_event = [&](const tooluse::http::sse_event& e) { feed_message(h, e.data); };
  parser.feed(in.substr(0, split), on_event);
  parser.feed(in.substr(split), on_event);
  parser.finish();
  feed_message(h, std::string(in));
  (void)mcp::apply_schema_defaults(tooluse::parse_json(std::string(in)).value_or(json()),
                                   json::object());
  return 0;
}
