// server::stateless_check reads a 2026-07-28 request's `_meta` in one pass over its members
// (server_context.cpp, read_meta) instead of the general decoder, and falls back to the general
// decoder when a member has the wrong type. Over a corpus of `_meta` objects, valid and not,
// what it accepts, what it refuses (and the message) and what it decodes must be exactly what
// the general decoder gives.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "tooluse/jsonrpc/message.hpp"
#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/wire.hpp"
#include "tooluse/schema/codec.hpp"

namespace request_meta_test {
namespace mcp = tooluse::mcp;
using tooluse::json;

// expected: what stateless_check gave before read_meta, by the general decoder.
std::optional<std::string> expected(const json& params, mcp::wire::request_meta& out) {
  static const json none = json::object();
  auto p = tooluse::decode<mcp::wire::with_meta>(params.is_object() ? params : none, "params");
  if (!p) return "Invalid params: " + p.error().message;
  if (!p->meta || !p->meta->protocol_version || !p->meta->client_capabilities ||
      !p->meta->client_capabilities->is_object())
    return std::string("Invalid params: _meta must carry io.modelcontextprotocol/protocolVersion and "
                       "io.modelcontextprotocol/clientCapabilities");
  out = std::move(*p->meta);
  return std::nullopt;
}

TEST(request_meta, the_one_pass_reader_agrees_with_the_general_decoder) {
  mcp::server server({.name = "m", .version = "1"});
  const json caps = json::object();
  const std::string v = "2026-07-28";
  std::vector<json> metas = {
      {{"io.modelcontextprotocol/protocolVersion", v}, {"io.modelcontextprotocol/clientCapabilities", caps}},
      {{"io.modelcontextprotocol/protocolVersion", v},
       {"io.modelcontextprotocol/clientCapabilities", {{"elicitation", json::object()}}},
       {"io.modelcontextprotocol/clientInfo", {{"name", "c"}, {"version", "1"}}},
       {"io.modelcontextprotocol/logLevel", "debug"},
       {"progressToken", 7},
       {"traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},
       {"vendor.example/x", {1, 2}},
       {"another", nullptr}},
      {{"progressToken", "tok"}, {"io.modelcontextprotocol/clientCapabilities", caps},
       {"io.modelcontextprotocol/protocolVersion", v}},
      // nulls: an absent optional
      {{"io.modelcontextprotocol/protocolVersion", v}, {"io.modelcontextprotocol/clientCapabilities", caps},
       {"traceparent", nullptr}, {"io.modelcontextprotocol/logLevel", nullptr}, {"progressToken", nullptr}},
      // wrong types: the general decoder's error
      {{"io.modelcontextprotocol/protocolVersion", 20260728}, {"io.modelcontextprotocol/clientCapabilities", caps}},
      {{"io.modelcontextprotocol/protocolVersion", v}, {"io.modelcontextprotocol/clientCapabilities", caps},
       {"traceparent", 5}},
      {{"io.modelcontextprotocol/protocolVersion", v}, {"io.modelcontextprotocol/clientCapabilities", caps},
       {"io.modelcontextprotocol/logLevel", json::array()}},
      // missing or not an object
      {{"io.modelcontextprotocol/protocolVersion", v}},
      {{"io.modelcontextprotocol/clientCapabilities", caps}},
      {{"io.modelcontextprotocol/protocolVersion", v}, {"io.modelcontextprotocol/clientCapabilities", "all"}},
      json::object(),
      json(nullptr),
      json("meta"),
      json::array({1}),
      // names that differ from a field's only in case or by a prefix
      {{"io.modelcontextprotocol/protocolversion", v}, {"io.modelcontextprotocol/clientCapabilities", caps}},
      {{"io.modelcontextprotocol/protocolVersion", v}, {"io.modelcontextprotocol/clientCapabilities", caps},
       {"traceparent2", "x"}, {"progress", 1}},
  };
  std::vector<json> all_params;
  for (const auto& m : metas) all_params.push_back({{"name", "t"}, {"_meta", m}});
  all_params.push_back({{"name", "t"}});  // no _meta
  all_params.push_back(json::array());    // params not an object
  all_params.push_back(json(nullptr));
  for (const auto& params : all_params) {
    tooluse::jsonrpc::request r{.id = tooluse::jsonrpc::message_id(std::int64_t{1}), .method = "tools/call",
                                .params = params};
    mcp::wire::request_meta want, got;
    auto want_error = expected(params, want);
    auto rej = server.stateless_check(r, &got);
    SCOPED_TRACE(params.dump());
    if (want_error) {
      ASSERT_TRUE(rej.has_value());
      ASSERT_TRUE(rej->response.error.has_value());
      EXPECT_EQ(rej->response.error->message, *want_error);
      continue;
    }
    if (rej) {  // accepted by the decoder, refused for its version only
      ASSERT_TRUE(rej->response.error.has_value());
      EXPECT_EQ(rej->response.error->message, "Unsupported protocol version");
      continue;
    }
    EXPECT_EQ(tooluse::encode(got), tooluse::encode(want));
    EXPECT_EQ(got.other, want.other);
    EXPECT_EQ(got.progress_token, want.progress_token);
  }
}

}  // namespace request_meta_test
