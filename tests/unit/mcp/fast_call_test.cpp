// The fast path of a stateless tools/call (src/mcp/fast_call.hpp): it takes the common request
// and declines everything else before running anything, and what a client receives is the same,
// byte for byte, whether the HTTP server takes it (http_options::fast_calls) or not.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mcp/fast_call.hpp"
#include "mcp/server_impl.hpp"
#include "tooluse/mcp/http_server.hpp"
#include "unit/mcp/http_test_util.hpp"
#include "unit/mcp/mcp_test_util.hpp"

namespace fast_call_test {
namespace mcp = tooluse::mcp;
using namespace tooluse::mcp::test;
using tooluse::call_context;
using tooluse::json;
using tooluse::tool_result;

namespace {

const json text_schema = {{"type", "object"},
                          {"properties", {{"text", {{"type", "string"}}}}},
                          {"required", {"text"}},
                          {"additionalProperties", false}};

// tools: registry tools of each kind the fast path meets, and one it must leave alone.
struct tools {
  tooluse::tool_registry registry;
  tools() {
    registry.add({.name = "echo", .input_schema = text_schema, .synchronous = true},
                 [](const json& a, call_context&) { return tool_result::text(a.value("text", "")); });
    registry.add({.name = "fails", .synchronous = true},
                 [](const json&, call_context&) { return tool_result::error("it \"failed\"\n\t(as asked)"); });
    registry.add({.name = "rich", .synchronous = true}, [](const json&, call_context& ctx) {
      ctx.report_progress(1, 2, "half");  // no progress token: nobody is told
      tool_result r = tool_result::text("ünïcödé ☃");
      r.structured_content = json{{"n", 1.5}, {"list", {1, "two", nullptr}}};
      r.meta["why"] = "because";
      return r;
    });
    registry.add({.name = "throws", .synchronous = true},
                 [](const json&, call_context&) -> tool_result { throw std::runtime_error("boom"); });
    registry.add({.name = "queued"}, [](const json&, call_context&) { return tool_result::text("pooled"); });
    // A handler that reads its request (request_of): the fast path builds the params it read in
    // place only when asked.
    registry.add({.name = "sees", .synchronous = true}, [](const json&, call_context& ctx) {
      auto r = mcp::request_of(ctx);
      if (!r) return tool_result::error("no request");
      r->progress(1, 2);  // no progress token: nothing is sent
      return tool_result::text(tooluse::dump_json(r->params()) + " " + tooluse::dump_json(r->meta()) + " " +
                               tooluse::dump_json(r->client_capabilities()));
    });
  }
};

struct served {
  tools t;
  mcp::server server{{.name = "fast", .version = "1"}, &t.registry};
  mcp::http_server fast{server, {.fast_calls = true}};
  mcp::http_server general{server, {.fast_calls = false}};
  served() {
    server.add_tool({.name = "own"}, [](const json&, mcp::request_context&) -> mcp::tool_outcome {
      return tool_result::text("added");
    });
    EXPECT_TRUE(fast.start());
    EXPECT_TRUE(general.start());
  }
};

json meta(const std::string& version = "2026-07-28") {
  return {{"io.modelcontextprotocol/protocolVersion", version},
          {"io.modelcontextprotocol/clientCapabilities", json::object()}};
}

json call_body(const json& id, const std::string& name, const json& args, const json& m = meta()) {
  json params = {{"name", name}};
  if (!args.is_null()) params["arguments"] = args;
  if (!m.is_null()) params["_meta"] = m;
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", params}};
}

header_fields call_headers(const std::string& name, const std::string& version = "2026-07-28") {
  return json_post({{"MCP-Protocol-Version", version}, {"Mcp-Method", "tools/call"}, {"Mcp-Name", name}});
}

// raw_exchange: the whole reply to one request, as received.
std::string raw_exchange(unsigned short port, const header_fields& h, const std::string& body) {
  raw_conn c(port);
  if (!c.ok() || !c.send_all(request_text("POST", "/mcp", h, body, port))) return "<no connection>";
  return c.read_all();
}

struct request_case {
  std::string what;
  header_fields headers;
  std::string body;
};

std::vector<request_case> cases() {
  std::vector<request_case> out;
  auto add = [&](std::string what, header_fields h, const json& body) {
    out.push_back({std::move(what), std::move(h), body.dump()});
  };
  add("the common call", call_headers("echo"), call_body(1, "echo", {{"text", "hi"}}));
  add("a string id", call_headers("echo"), call_body("a-1", "echo", {{"text", "hi"}}));
  add("a negative id", call_headers("echo"), call_body(-7, "echo", {{"text", "hi"}}));
  add("the largest id", call_headers("echo"), call_body(json(9223372036854775807LL), "echo", {{"text", "x"}}));
  add("an id past int64", call_headers("echo"), call_body(json(9223372036854775808ULL), "echo", {{"text", "x"}}));
  add("a fractional id", call_headers("echo"), call_body(1.5, "echo", {{"text", "x"}}));
  add("a null id", call_headers("echo"), call_body(nullptr, "echo", {{"text", "x"}}));
  add("invalid arguments", call_headers("echo"), call_body(2, "echo", {{"text", 5}}));
  add("an unknown argument", call_headers("echo"), call_body(2, "echo", {{"text", "a"}, {"more", 1}}));
  add("no arguments", call_headers("echo"), call_body(3, "echo", nullptr));
  add("arguments not an object", call_headers("echo"), call_body(3, "echo", json::array()));
  add("a tool error", call_headers("fails"), call_body(4, "fails", json::object()));
  add("structured content and _meta", call_headers("rich"), call_body(5, "rich", json::object()));
  add("a handler that throws", call_headers("throws"), call_body(6, "throws", json::object()));
  add("a tool not synchronous", call_headers("queued"), call_body(7, "queued", json::object()));
  add("an add_tool handler", call_headers("own"), call_body(8, "own", json::object()));
  add("an unknown tool", call_headers("nope"), call_body(9, "nope", json::object()));
  add("Mcp-Name not the tool", call_headers("fails"), call_body(10, "echo", {{"text", "hi"}}));
  add("a base64 Mcp-Name", call_headers("=?base64?ZWNobw==?="), call_body(11, "echo", {{"text", "b64"}}));
  add("header and _meta versions differ", call_headers("echo", "2026-07-28"),
      call_body(12, "echo", {{"text", "v"}}, meta("2025-11-25")));
  add("an unknown version", call_headers("echo", "2099-01-01"), call_body(13, "echo", {{"text", "v"}}, meta("2099-01-01")));
  add("no _meta", call_headers("echo"), call_body(14, "echo", {{"text", "v"}}, nullptr));
  json progress = meta();
  progress["progressToken"] = "p1";
  add("a progress token", call_headers("rich"), call_body(15, "rich", json::object(), progress));
  json info = meta();
  info["io.modelcontextprotocol/clientInfo"] = {{"name", "c"}, {"version", "1"}};
  add("client info", call_headers("echo"), call_body(16, "echo", {{"text", "i"}}, info));
  json caps = meta();
  caps["io.modelcontextprotocol/clientCapabilities"] = "none";
  add("capabilities not an object", call_headers("echo"), call_body(17, "echo", {{"text", "c"}}, caps));
  json wrong = call_body(18, "echo", {{"text", "w"}});
  wrong["jsonrpc"] = "1.0";
  add("jsonrpc 1.0", call_headers("echo"), wrong);
  json extra = call_body(19, "echo", {{"text", "e"}});
  extra["extra"] = true;
  add("a member the envelope does not have", call_headers("echo"), extra);
  json task = call_body(20, "echo", {{"text", "t"}});
  task["params"]["task"] = json::object();
  add("params.task", call_headers("echo"), task);
  add("Mcp-Method not the method", json_post({{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/list"},
                                              {"Mcp-Name", "echo"}}),
      call_body(21, "echo", {{"text", "m"}}));
  add("a handler that reads its params", call_headers("sees"),
      call_body(24, "sees", {{"a", {1, 2.5, "x", nullptr}}, {"b", {{"c", false}}}}));
  json sees_caps = meta();
  sees_caps["io.modelcontextprotocol/clientCapabilities"] = {{"sampling", json::object()}};
  add("a handler that reads its params, no arguments", call_headers("sees"), call_body(25, "sees", nullptr, sees_caps));
  out.push_back({"not JSON", call_headers("echo"), "{\"jsonrpc\":\"2.0\",\"id\":22,"});
  // Text no JSON value writes: members twice, numbers only text has.
  const std::string m = R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";
  for (const auto& [what, body] : std::vector<std::pair<std::string, std::string>>{
           {"the id twice", R"({"jsonrpc":"2.0","id":26,"id":27,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"},)" + m + "}}"},
           {"the name twice", R"({"jsonrpc":"2.0","id":28,"method":"tools/call","params":{"name":"fails","name":"echo","arguments":{"text":"a"},)" + m + "}}"},
           {"the params twice", R"({"jsonrpc":"2.0","id":29,"method":"tools/call","params":{},"params":{"name":"echo","arguments":{"text":"a"},)" + m + "}}"},
           {"a _meta member twice", R"({"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})"},
           {"an id of -0", R"({"jsonrpc":"2.0","id":-0,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"},)" + m + "}}"},
           {"a -0.0 in the arguments", R"({"jsonrpc":"2.0","id":31,"method":"tools/call","params":{"name":"sees","arguments":{"x":-0.0},)" + m + "}}"},
           {"an integer past 64 bits in the arguments", R"({"jsonrpc":"2.0","id":32,"method":"tools/call","params":{"name":"sees","arguments":{"x":123456789012345678901234567890},)" + m + "}}"},
           {"escapes in the name and arguments", R"({"jsonrpc":"2.0","id":33,"method":"tools\/call","params":{"name":"s\u0065es","arguments":{"t\"x":"\ud83d\ude00\n"},)" + m + "}}"},
       }) {
    header_fields h = call_headers(what.find("name twice") != std::string::npos ? "echo" : "sees");
    if (what == "the id twice" || what == "the params twice" || what == "a _meta member twice" || what == "an id of -0")
      h = call_headers("echo");
    out.push_back({what, h, body});
  }
  out.push_back({"a duplicate member", call_headers("echo"),
                 R"({"jsonrpc":"2.0","id":23,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a","text":"b"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})"});
  return out;
}

}  // namespace

TEST(mcp_fast_call, a_client_gets_the_same_bytes_from_the_fast_and_the_general_path) {
  served s;
  for (const auto& c : cases()) {
    SCOPED_TRACE(c.what);
    std::string fast = raw_exchange(s.fast.port(), c.headers, c.body);
    std::string general = raw_exchange(s.general.port(), c.headers, c.body);
    EXPECT_EQ(fast, general);
    EXPECT_NE(parse_reply(fast).status, 0) << fast;
  }
}

// Variations of the common request, each member replaced by a value of another kind, removed,
// or joined by another, one or two at a time (a fixed seed: the same requests every run).
TEST(mcp_fast_call, variations_of_the_common_request_get_the_same_bytes_too) {
  served s;
  const json base = call_body(1, "echo", {{"text", "hi"}});
  const std::vector<json> values = {nullptr, true, 0, -1, 7, 2.5, "", "echo", "2.0", "tools/call", "2026-07-28",
                                    json::array(), json::object(), json{{"text", "x"}}, meta()};
  const std::vector<std::vector<std::string>> paths = {
      {"jsonrpc"}, {"id"}, {"method"}, {"params"}, {"params", "name"}, {"params", "arguments"},
      {"params", "arguments", "text"}, {"params", "_meta"},
      {"params", "_meta", "io.modelcontextprotocol/protocolVersion"},
      {"params", "_meta", "io.modelcontextprotocol/clientCapabilities"}, {"params", "other"}, {"other"}};
  std::uint32_t seed = 12345;
  auto next = [&seed](std::size_t n) {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<std::size_t>(seed >> 8) % n;
  };
  int variations = 0;
  for (int i = 0; i < 150; ++i) {
    json body = base;
    for (int k = 0; k < 1 + static_cast<int>(next(2)); ++k) {
      const auto& path = paths[next(paths.size())];
      json* at = &body;
      for (std::size_t p = 0; p + 1 < path.size() && at->is_object(); ++p) at = &(*at)[path[p]];
      if (!at->is_object()) continue;
      if (next(4) == 0) at->erase(path.back());
      else (*at)[path.back()] = values[next(values.size())];
    }
    SCOPED_TRACE(body.dump());
    std::string fast = raw_exchange(s.fast.port(), call_headers("echo"), body.dump());
    std::string general = raw_exchange(s.general.port(), call_headers("echo"), body.dump());
    EXPECT_EQ(fast, general);
    ++variations;
  }
  EXPECT_EQ(variations, 150);
}

// recorder is a fast_reply that keeps what it is given.
struct recorder final : mcp::detail::fast_reply {
  std::vector<json> related_messages;
  std::string text_response;
  json message_response;
  void related(const json& m) override { related_messages.push_back(m); }
  bool text(std::string r) override {
    text_response = std::move(r);
    return true;
  }
  void message(const json& m) override { message_response = m; }
};

TEST(mcp_fast_call, it_takes_the_common_request_and_declines_the_rest_before_running_anything) {
  tools t;
  int runs = 0;
  t.registry.add({.name = "count", .synchronous = true}, [&](const json&, call_context&) {
    ++runs;
    return tool_result::text("counted");
  });
  mcp::server server({.name = "fast", .version = "1"}, &t.registry);
  auto root = server.connect_stateless();
  auto serve = [&](const json& body, const std::string& header_version, const std::string& header_name, recorder& r) {
    // as the HTTP route calls it: the tool checked first
    const std::string text = body.dump();
    return mcp::detail::fast_tool(server, header_name) &&
           mcp::detail::fast_tools_call(server, *root->state(), text, text.size(), header_version, header_name, r, "");
  };
  recorder taken;
  EXPECT_TRUE(serve(call_body(1, "count", json::object()), "2026-07-28", "count", taken));
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(taken.text_response,
            R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"counted"}],"resultType":"complete"}})");
  recorder invalid;
  EXPECT_TRUE(serve(call_body(2, "echo", {{"text", 1}}), "2026-07-28", "echo", invalid));
  EXPECT_TRUE(json::parse(invalid.text_response)["result"]["isError"].get<bool>());
  // A handler that asks for its request's params gets them whole, though the path read them in
  // place; and a zero in the arguments of a request with a date in it is still built.
  recorder sees;
  const json sees_body = call_body(3, "sees", {{"a", {0, 2.5, "2026-07-28"}}});
  EXPECT_TRUE(serve(sees_body, "2026-07-28", "sees", sees));
  EXPECT_EQ(json::parse(sees.text_response)["result"]["content"][0]["text"],
            tooluse::dump_json(sees_body["params"]) + " " + tooluse::dump_json(sees_body["params"]["_meta"]) + " {}");
  // Text that no JSON value writes: each member must come once; a "-0" id is left to the general
  // parser, which keeps its sign.
  const std::string m = tooluse::dump_json(meta());
  for (const std::string& text : {
           R"({"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"count","_meta":)" + m + "}}",
           R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","name":"count","_meta":)" + m + "}}",
           R"({"jsonrpc":"2.0","id":-0,"method":"tools/call","params":{"name":"count","_meta":)" + m + "}}",
           R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{"x":-0.0},"_meta":)" + m + "}}",
           R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","_meta":)" + m + "}} x"}) {
    SCOPED_TRACE(text);
    recorder r;
    EXPECT_FALSE(mcp::detail::fast_tools_call(server, *root->state(), text, text.size(), "2026-07-28", "count", r, ""));
    EXPECT_TRUE(r.text_response.empty());
  }
  struct declined_case {
    std::string what;
    json body;
    std::string version = "2026-07-28";
    std::string name = "count";
  };
  json progress = meta();
  progress["progressToken"] = 1;
  json extra = call_body(3, "count", json::object());
  extra["params"]["other"] = 1;
  const std::vector<declined_case> declined = {
      {"another header version", call_body(3, "count", json::object()), "2025-11-25"},
      {"another header name", call_body(3, "count", json::object()), "2026-07-28", "echo"},
      {"a progress token", call_body(3, "count", json::object(), progress)},
      {"a params member it does not know", extra},
      {"a tool not synchronous", call_body(3, "queued", json::object()), "2026-07-28", "queued"},
      {"an unknown tool", call_body(3, "nope", json::object()), "2026-07-28", "nope"},
      {"not an object", json::array()},
  };
  for (const auto& d : declined) {
    SCOPED_TRACE(d.what);
    recorder r;
    EXPECT_FALSE(serve(d.body, d.version, d.name, r));
    EXPECT_TRUE(r.text_response.empty());
    EXPECT_TRUE(r.message_response.is_null());
  }
  EXPECT_EQ(runs, 1);
  EXPECT_TRUE(mcp::detail::fast_tool(server, "count"));
  EXPECT_FALSE(mcp::detail::fast_tool(server, "queued"));
}

}  // namespace fast_call_test
