// The MCP client against @modelcontextprotocol/server-everything over stdio and Streamable
// HTTP: every tool it lists is called with valid arguments, resources are read, prompts got,
// progress and logging received.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "npm_peers.hpp"
#include "tooluse/mcp/client.hpp"
#include "tooluse/mcp/http_client_transport.hpp"
#include "tooluse/mcp/mount.hpp"
#include "tooluse/mcp/stdio_client_transport.hpp"

using namespace tooluse;
using namespace std::chrono_literals;

namespace {

// Arguments for the tools we know; others get arguments built from their schema.
json known_arguments(const std::string& tool) {
  static const json table = {
      {"echo", {{"message", "hello everything"}}},
      {"get-annotated-message", {{"messageType", "success"}, {"includeImage", true}}},
      {"get-resource-links", {{"count", 2}}},
      {"get-resource-reference", {{"resourceType", "Text"}, {"resourceId", 1}}},
      {"get-structured-content", {{"location", "Chicago"}}},
      {"get-sum", {{"a", 2}, {"b", 40}}},
      // A data URI: no network needed.
      {"gzip-file-as-resource",
       {{"name", "hello.gz"}, {"data", "data:text/plain;base64,aGVsbG8gd29ybGQ="},
        {"outputType", "resource"}}},
      {"trigger-long-running-operation", {{"duration", 1}, {"steps", 3}}},
      {"simulate-research-query", {{"topic", "tool calling"}, {"ambiguous", false}}},
  };
  return table.contains(tool) ? table[tool] : json();
}

// schema_arguments fills every required property: its default, the first enum value, or a
// value of its type.
json schema_arguments(const json& schema) {
  json args = json::object();
  for (const auto& name : schema.value("required", json::array())) {
    const json& p = schema["properties"].value(name.get<std::string>(), json::object());
    if (p.contains("default")) args[name] = p["default"];
    else if (p.contains("enum")) args[name] = p["enum"][0];
    else if (p.value("type", "") == "number" || p.value("type", "") == "integer") args[name] = 1;
    else if (p.value("type", "") == "boolean") args[name] = false;
    else args[name] = "x";
  }
  return args;
}

struct observed {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<mcp::log_entry> logs;
  int sampling = 0;
};

mcp::client_options options(observed& seen) {
  mcp::client_options o;
  o.request_timeout = 30s;
  o.on_log = [&seen](const mcp::log_entry& e) {
    std::lock_guard lock(seen.mutex);
    seen.logs.push_back(e);
    seen.cv.notify_all();
  };
  o.on_sampling = [&seen](const json&, std::stop_token) -> result<json> {
    std::lock_guard lock(seen.mutex);
    ++seen.sampling;
    return json{{"role", "assistant"},
                {"content", {{"type", "text"}, {"text", "sampled answer"}}},
                {"model", "fake-model"},
                {"stopReason", "endTurn"}};
  };
  o.on_elicitation = [](const json&, std::stop_token) -> result<json> {
    return json{{"action", "decline"}};
  };
  o.roots = {{.uri = "file:///tmp", .name = "tmp"}};
  return o;
}

void exercise(mcp::client& c, observed& seen) {
  ASSERT_TRUE(c.set_logging_level(mcp::log_level::debug));
  auto tools = c.list_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  ASSERT_GE(tools->size(), 10u);
  std::vector<std::string> failed;
  std::size_t task_only = 0;
  for (const auto& t : *tools) {
    const std::string name = t["name"];
    // Tools that only run as tasks take seconds: tasks_test.cpp calls them.
    if (t.contains("execution") && t["execution"].value("taskSupport", "") == "required") {
      ++task_only;
      continue;
    }
    json args = known_arguments(name);
    if (args.is_null()) args = schema_arguments(t["inputSchema"]);
    std::vector<mcp::progress_update> progress;
    auto r = c.call_tool(name, args,
                         {.on_progress = [&](const mcp::progress_update& p) { progress.push_back(p); }});
    if (!r) {
      failed.push_back(name + ": " + r.error().message);
      continue;
    }
    if (r->is_error) failed.push_back(name + ": is_error: " + r->all_text());
    if (name == "get-sum") {
      EXPECT_NE(r->all_text().find("42"), std::string::npos);
    }
    if (name == "echo") {
      EXPECT_NE(r->all_text().find("hello everything"), std::string::npos);
    }
    if (name == "get-structured-content") {
      EXPECT_TRUE(r->structured_content);
    }
    if (name == "get-tiny-image") {
      bool image = false;
      for (const auto& b : r->content) image = image || std::holds_alternative<image_content>(b);
      EXPECT_TRUE(image);
    }
    if (name == "trigger-long-running-operation") {
      ASSERT_EQ(progress.size(), 3u);
      EXPECT_EQ(progress.back().progress, 3);
    }
  }
  EXPECT_TRUE(failed.empty()) << ::testing::PrintToString(failed);
  EXPECT_LE(task_only, 1u);  // simulate-research-query

  auto resources = c.list_resources();
  ASSERT_TRUE(resources) << resources.error().message;
  ASSERT_FALSE(resources->empty());
  int read = 0;
  for (const auto& res : *resources) {
    auto contents = c.read_resource(res["uri"].get<std::string>());
    ASSERT_TRUE(contents) << res["uri"] << ": " << contents.error().message;
    EXPECT_FALSE((*contents)["contents"].empty());
    if (++read == 5) break;
  }
  auto prompts = c.list_prompts();
  ASSERT_TRUE(prompts) << prompts.error().message;
  ASSERT_FALSE(prompts->empty());
  for (const auto& p : *prompts) {
    json args = json::object();
    for (const auto& a : p.value("arguments", json::array()))
      if (a.value("required", false)) {
        const std::string arg = a["name"];
        args[arg] = arg == "resourceType" ? "Text" : arg == "resourceId" ? "1" : "Chicago";
      }
    auto got = c.get_prompt(p["name"].get<std::string>(), args);
    ASSERT_TRUE(got) << p["name"] << ": " << got.error().message;
    EXPECT_FALSE((*got)["messages"].empty());
  }
  // toggle-simulated-logging (called above) sends one message at once, then one every 5 s.
  std::unique_lock lock(seen.mutex);
  EXPECT_TRUE(seen.cv.wait_for(lock, 30s, [&] { return !seen.logs.empty(); }));
}

}  // namespace

TEST(server_everything, stdio_every_tool_resources_prompts_progress_logging) {
  TOOLUSE_SKIP_WITHOUT_PEER("everything");
  observed seen;
  auto transport = std::make_unique<mcp::stdio_client_transport>(mcp::stdio_server_options{
      .command = {tooluse::testing::node_binary().string(), tooluse::testing::server_script("everything").string(),
                  "stdio"},
      .name = "everything"});
  auto c = mcp::client::connect(std::move(transport), options(seen));
  ASSERT_TRUE(c) << c.error().message;
  exercise(**c, seen);
}

TEST(server_everything, http_every_tool_resources_prompts_progress_logging) {
  TOOLUSE_SKIP_WITHOUT_PEER("everything");
  tooluse::testing::http_peer peer("everything");
  ASSERT_TRUE(peer.start());
  observed seen;
  auto c = mcp::client::connect(mcp::make_http_client_transport({.url = peer.url()}), options(seen));
  ASSERT_TRUE(c) << c.error().message;
  exercise(**c, seen);
}

TEST(server_everything, mounted_tools_forward_progress_images_and_structured_content) {
  TOOLUSE_SKIP_WITHOUT_PEER("everything");
  auto config = mcp::parse_client_config(
      json{{"mcpServers",
            {{"everything",
              {{"command", tooluse::testing::node_binary().string()},
               {"args", {tooluse::testing::server_script("everything").string(), "stdio"}}}}}}});
  ASSERT_TRUE(config);
  tool_registry reg;
  auto mounts = mcp::mount_servers(reg, *config, {.on_log = [](std::string_view) {}});
  ASSERT_TRUE(mounts) << mounts.error().message;
  auto entry = reg.find("everything__get-structured-content");
  ASSERT_TRUE(entry);
  EXPECT_TRUE(entry->definition.output_schema);  // kept from the server's outputSchema

  std::vector<progress_update> progress;
  call_context ctx{.on_progress = [&](const progress_update& p) { progress.push_back(p); }};
  auto r = reg.call({.name = "everything__trigger-long-running-operation",
                     .arguments = {{"duration", 1}, {"steps", 2}}}, ctx);
  EXPECT_FALSE(r.is_error) << r.all_text();
  ASSERT_EQ(progress.size(), 2u);
  EXPECT_EQ(progress[1].total, 2);

  call_context plain;
  auto s = reg.call({.name = "everything__get-structured-content",
                     .arguments = {{"location", "Chicago"}}}, plain);
  ASSERT_TRUE(s.structured_content) << s.all_text();
  EXPECT_TRUE(s.structured_content->contains("temperature"));
  auto img = reg.call({.name = "everything__get-tiny-image"}, plain);
  bool image = false;
  for (const auto& b : img.content)
    if (auto* i = std::get_if<image_content>(&b)) image = i->mime_type == "image/png" && !i->data.empty();
  EXPECT_TRUE(image);
}
