// MCP tasks through real processes: tooluse's client against the npm reference everything
// server (its task-only tool `simulate-research-query`, with its elicitation round and a
// cancellation) over stdio and Streamable HTTP, and against tooluse's own server in a child
// process (tests/programs/task_mcp_server.cpp) over stdio and HTTP, for both revisions: the
// tool sees a cancellation, input inside a task, a client that goes away and a new one that
// fetches the result, and 2025-11-25 notifications/tasks/status.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "npm_peers.hpp"
#include "support/test_support.hpp"
#include "task_server.hpp"
#include "tooluse/mcp/client.hpp"
#include "tooluse/mcp/http_client_transport.hpp"
#include "tooluse/mcp/stdio_client_transport.hpp"

using namespace tooluse;
using namespace std::chrono_literals;

namespace {

// statuses records what on_task saw.
struct statuses {
  std::mutex mu;
  std::vector<mcp::task_update> seen;
  std::function<void(const mcp::task_update&)> callback() {
    return [this](const mcp::task_update& u) {
      std::lock_guard lock(mu);
      seen.push_back(u);
    };
  }
  bool saw(const std::string& status) {
    std::lock_guard lock(mu);
    for (const auto& u : seen)
      if (u.status == status) return true;
    return false;
  }
  bool saw_message(const std::string& message) {
    std::lock_guard lock(mu);
    for (const auto& u : seen)
      if (u.status_message == message) return true;
    return false;
  }
};

// ---------------------------------------------------------------------------------------------
// The npm reference server (@modelcontextprotocol/server-everything): 2025-11-25 tasks.

class npm_tasks : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { TOOLUSE_SKIP_WITHOUT_PEER("everything"); }
  std::shared_ptr<mcp::client> connect(mcp::client_options o) {
    o.request_timeout = 30s;
    std::unique_ptr<mcp::client_transport> t;
    if (GetParam() == "stdio") {
      t = std::make_unique<mcp::stdio_client_transport>(mcp::stdio_server_options{
          .command = {tooluse::testing::node_binary().string(),
                      tooluse::testing::server_script("everything").string(), "stdio"},
          .name = "everything"});
    } else {
      peer_ = std::make_unique<tooluse::testing::http_peer>("everything");
      if (!peer_->start()) ADD_FAILURE() << "server-everything did not start over HTTP";
      t = mcp::make_http_client_transport({.url = peer_->url()});
    }
    auto c = mcp::client::connect(std::move(t), std::move(o));
    EXPECT_TRUE(c) << (c ? "" : c.error().message);
    return c ? *c : nullptr;
  }
  std::unique_ptr<tooluse::testing::http_peer> peer_;
};

TEST_P(npm_tasks, call_tool_runs_a_task_only_tool_and_waits_for_its_report) {
  auto c = connect({});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->protocol_version(), "2025-11-25");
  statuses s;
  auto r = c->call_tool("simulate-research-query", {{"topic", "tool calling"}, {"ambiguous", false}},
                        {.on_task = s.callback()});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->is_error) << r->all_text();
  EXPECT_NE(r->all_text().find("# Research Report: tool calling\n"), std::string::npos)
      << r->all_text();
  EXPECT_TRUE(s.saw("working"));
  EXPECT_TRUE(s.saw_message("Gathering sources..."));  // statusMessage of the first stage
}

TEST_P(npm_tasks, an_ambiguous_query_asks_for_clarification_inside_the_task) {
  std::atomic<int> asked{0};
  std::string question;
  mcp::client_options o;
  o.on_elicitation = [&](const json& params, std::stop_token) -> result<json> {
    ++asked;
    question = params.value("message", "");
    return json{{"action", "accept"}, {"content", {{"interpretation", "historical"}}}};
  };
  auto c = connect(std::move(o));
  ASSERT_TRUE(c);
  statuses s;
  auto r = c->call_tool("simulate-research-query", {{"topic", "tool calling"}, {"ambiguous", true}},
                        {.on_task = s.callback()});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->is_error) << r->all_text();
  EXPECT_EQ(asked.load(), 1);
  EXPECT_NE(question.find("multiple interpretations"), std::string::npos) << question;
  // The report names the interpretation the handler chose.
  EXPECT_NE(r->all_text().find("# Research Report: tool calling (historical)"), std::string::npos)
      << r->all_text();
  EXPECT_TRUE(s.saw("input_required"));
}

TEST_P(npm_tasks, a_cancelled_task_is_cancelled_for_every_reader) {
  auto c = connect({});
  ASSERT_TRUE(c);
  auto t = c->start_tool_task("simulate-research-query", {{"topic", "tool calling"}});
  ASSERT_TRUE(t) << t.error().message;
  const std::string id = t->value("taskId", "");
  ASSERT_FALSE(id.empty()) << dump_json(*t);
  EXPECT_EQ(t->value("status", ""), "working");
  ASSERT_TRUE(c->cancel_task(id));
  auto got = c->get_task(id);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(got->value("status", ""), "cancelled");
  auto w = c->wait_task(id);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, errc::cancelled) << w.error().message;
}

INSTANTIATE_TEST_SUITE_P(transports, npm_tasks, ::testing::Values("stdio", "http"),
                         [](const auto& info) { return info.param; });

// ---------------------------------------------------------------------------------------------
// tooluse's own server in a child process, both revisions.

class own_tasks : public ::testing::TestWithParam<std::string> {
 protected:
  std::shared_ptr<mcp::client> stdio_client(mcp::client_options o = {},
                                            std::vector<std::string> extra = {}) {
    auto cmd = tooluse::testing::task_server_command({"--stdio"}, events.path());
    cmd.insert(cmd.end(), extra.begin(), extra.end());
    o.protocol_version = GetParam();
    o.request_timeout = 30s;
    auto c = mcp::client::connect(std::make_unique<mcp::stdio_client_transport>(
                                      mcp::stdio_server_options{.command = cmd, .name = "tasks"}),
                                  std::move(o));
    EXPECT_TRUE(c) << (c ? "" : c.error().message);
    return c ? *c : nullptr;
  }
  std::shared_ptr<mcp::client> http_client(const std::string& url) {
    mcp::client_options o;
    o.protocol_version = GetParam();
    auto c = mcp::client::connect(mcp::make_http_client_transport({.url = url}), std::move(o));
    EXPECT_TRUE(c) << (c ? "" : c.error().message);
    return c ? *c : nullptr;
  }
  tooluse::testing::temp_dir dir;
  tooluse::testing::task_events events{dir.path()};
};

TEST_P(own_tasks, cancel_task_stops_the_tool_over_stdio) {
  auto c = stdio_client();
  ASSERT_TRUE(c);
  auto t = c->start_tool_task("long_job", {{"label", "c1"}});
  ASSERT_TRUE(t) << t.error().message;
  const std::string id = t->value("taskId", "");
  ASSERT_FALSE(id.empty()) << dump_json(*t);
  ASSERT_TRUE(events.wait_for("started c1")) << events.seen();
  ASSERT_TRUE(c->cancel_task(id));
  EXPECT_TRUE(events.wait_for("stopped c1")) << events.seen();  // the tool saw its stop token
  auto got = c->get_task(id);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(got->value("status", ""), "cancelled");
}

TEST_P(own_tasks, a_caller_stop_cancels_the_task_on_the_server) {
  auto c = stdio_client();
  ASSERT_TRUE(c);
  std::stop_source stop;
  // The stop comes once the client knows the task (its first status) and the tool runs. A
  // stop that comes before the CreateTaskResult reaches the client cancels only the request,
  // and the task runs on (docs/rough_edges.md).
  auto stop_once_running = [&](const mcp::task_update&) {
    EXPECT_TRUE(events.wait_for("started c2")) << events.seen();
    stop.request_stop();  // also when the tool never started: the call must not hang
  };
  auto r = c->call_tool("long_job", {{"label", "c2"}},
                        {.stop = stop.get_token(), .on_task = stop_once_running});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::cancelled) << r.error().message;
  EXPECT_TRUE(events.wait_for("stopped c2")) << events.seen();
}

TEST_P(own_tasks, input_inside_a_task_goes_to_the_elicitation_handler_over_stdio) {
  mcp::client_options o;
  o.on_elicitation = [](const json& params, std::stop_token) -> result<json> {
    if (params.value("message", "") != "What is your name?") return json{{"action", "decline"}};
    return json{{"action", "accept"}, {"content", {{"name", "Ada"}}}};
  };
  auto c = stdio_client(std::move(o));
  ASSERT_TRUE(c);
  statuses s;
  auto r = c->call_tool("ask_job", {{"label", "q"}}, {.on_task = s.callback()});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->all_text(), "hello Ada from q");
  EXPECT_TRUE(s.saw("completed"));
}

TEST_P(own_tasks, a_new_client_fetches_the_result_of_a_task_its_predecessor_started_over_http) {
  tooluse::testing::task_server_http server(events.path());
  ASSERT_TRUE(server.start());
  std::string id;
  {
    auto first = http_client(server.url());
    ASSERT_TRUE(first);
    auto t = first->start_tool_task("long_job", {{"label", "r1"}, {"seconds", 0.3}});
    ASSERT_TRUE(t) << t.error().message;
    id = t->value("taskId", "");
    ASSERT_FALSE(id.empty()) << dump_json(*t);
    ASSERT_TRUE(events.wait_for("started r1")) << events.seen();
    first->close();  // the connection (and 2025-11-25 session) that started the task is gone
  }
  auto second = http_client(server.url());
  ASSERT_TRUE(second);
  auto r = second->wait_task(id);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ((*r)["content"][0].value("text", ""), "long_job r1 finished") << dump_json(*r);
  EXPECT_TRUE(events.wait_for("finished r1")) << events.seen();
}

// --task-store: the records live in a SQLite file. The server process dies (SIGTERM, no clean
// shutdown) with one task finished and one running; the next process serves the finished
// task's result and reports the running one failed, saying why.
TEST_P(own_tasks, a_finished_task_survives_a_restart_and_a_running_one_is_failed) {
  const std::string store = (dir.path() / "tasks.db").string();
  std::string done_id, orphan_id;
  {
    tooluse::testing::task_server_http server(events.path(), {"--task-store", store});
    ASSERT_TRUE(server.start());
    auto c = http_client(server.url());
    ASSERT_TRUE(c);
    auto done = c->start_tool_task("long_job", {{"label", "d1"}, {"seconds", 0.1}});
    ASSERT_TRUE(done) << done.error().message;
    done_id = done->value("taskId", "");
    auto r = c->wait_task(done_id);
    ASSERT_TRUE(r) << r.error().message;
    auto orphan = c->start_tool_task("long_job", {{"label", "d2"}});
    ASSERT_TRUE(orphan) << orphan.error().message;
    orphan_id = orphan->value("taskId", "");
    ASSERT_TRUE(events.wait_for("started d2")) << events.seen();
    c->close();
  }  // the server process is terminated here
  tooluse::testing::task_server_http server(events.path(), {"--task-store", store});
  ASSERT_TRUE(server.start());
  auto c = http_client(server.url());
  ASSERT_TRUE(c);
  auto r = c->wait_task(done_id);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ((*r)["content"][0].value("text", ""), "long_job d1 finished") << dump_json(*r);
  auto orphan = c->get_task(orphan_id);
  ASSERT_TRUE(orphan) << orphan.error().message;
  EXPECT_EQ(orphan->value("status", ""), "failed") << dump_json(*orphan);
  EXPECT_NE(orphan->value("statusMessage", "").find("the server restarted while task " + orphan_id),
            std::string::npos)
      << dump_json(*orphan);
  auto w = c->wait_task(orphan_id);
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().message.find("call the tool again"), std::string::npos) << w.error().message;
}

INSTANTIATE_TEST_SUITE_P(revisions, own_tasks, ::testing::Values("2026-07-28", "2025-11-25"),
                         [](const auto& info) {
                           return info.param == "2026-07-28" ? std::string("v2026")
                                                             : std::string("v2025");
                         });

// 2025-11-25: the server sends notifications/tasks/status; wait_task reports them and wakes on
// them. The server suggests a 60 s poll interval, so the end of the task is seen through the
// notification, not a second poll.
TEST(own_tasks_2025, status_notifications_reach_on_task) {
  tooluse::testing::temp_dir dir;
  tooluse::testing::task_events events{dir.path()};
  auto cmd = tooluse::testing::task_server_command({"--stdio"}, events.path());
  cmd.insert(cmd.end(), {"--poll-interval-ms", "60000"});
  mcp::client_options o;
  o.protocol_version = "2025-11-25";
  auto c = mcp::client::connect(std::make_unique<mcp::stdio_client_transport>(
                                    mcp::stdio_server_options{.command = cmd, .name = "tasks"}),
                                std::move(o));
  ASSERT_TRUE(c) << c.error().message;
  statuses s;
  auto r = (*c)->call_tool("long_job", {{"label", "n1"}, {"seconds", 1}}, {.on_task = s.callback()});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->all_text(), "long_job n1 finished");
  std::lock_guard lock(s.mu);
  ASSERT_FALSE(s.seen.empty());
  EXPECT_EQ(s.seen.front().status, "working");
  EXPECT_FALSE(s.seen.front().from_notification);  // the first tasks/get
  bool notified_completed = false;
  for (const auto& u : s.seen) notified_completed |= u.from_notification && u.status == "completed";
  EXPECT_TRUE(notified_completed);
}

}  // namespace
