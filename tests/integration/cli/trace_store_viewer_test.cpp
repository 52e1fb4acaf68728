// `tooluse trace serve --store`: runs kept in the durable run store (SQLite) shown by the same
// page as trace files. Runs are made by `tooluse run --store` against the scripted model:
// three parallel calculator calls (one fails), and a run that waits for an approval and is then
// approved and resumed; a PostgreSQL store as well. Headless Chromium renders the pages; the JSON
// API is checked for a run still being journaled (the model holds its answer until the test has
// looked), for run ids that need escaping, and for the mistakes a user makes (unknown run, missing
// store).
#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <mutex>

#include "headless_browser.hpp"
#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"
#include "support/response_gate.hpp"
#include "support/postgres_fixture.hpp"
#include "tooluse/http/client.hpp"

namespace tooluse::testing {
namespace {

const std::map<std::string, std::string> key = {{"OPENAI_API_KEY", "sk-test"}};

std::vector<std::string> stored_run(const fake_llm_server& server, const std::string& question,
                                    const std::string& id, const std::filesystem::path& store) {
  return {"run",     question,     "--base-url",  server.url("/v1"), "--model",      "fake-model",
          "--tools", "calculator", "--no-stream", "--store",         store.string(), "--run-id",
          id};
}

void push_parallel_calls(fake_llm_server& server) {
  server.push(openai_response({.calls = {{"call_a", "calculator", R"({"expression":"6*7"})"},
                                         {"call_b", "calculator", R"({"expression":"2**10"})"},
                                         {"call_c", "calculator", R"({"expression":"1/0"})"}}},
                              false));
  server.push(openai_response({.text = "42 and 1024; 1/0 is undefined."}, false));
}

std::string viewer_url(background_tooluse& viewer) {
  std::string line = viewer.wait_for_line("trace viewer ");
  auto at = line.find("http://");
  return at == std::string::npos ? "" : line.substr(at);
}

int count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// card returns the rendered tool-call card of call `id` ("" if the page has none).
std::string card(const std::string& dom, const std::string& id) {
  auto at = dom.find("class=\"tool-call");
  for (; at != std::string::npos; at = dom.find("class=\"tool-call", at + 1)) {
    auto end = dom.find("class=\"tool-call", at + 1);
    std::string c = dom.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (c.find("data-id=\"" + id + "\"") != std::string::npos) return c;
  }
  return "";
}

TEST(trace_store_viewer, chromium_shows_every_stored_tool_call_with_its_result) {
  auto browser = chromium_path();
  if (browser.empty()) TOOLUSE_PEER_MISSING("chromium is not installed (apt-get install chromium)");
  fake_llm_server server;
  temp_dir dir;
  auto store = dir.path() / "runs.db";
  push_parallel_calls(server);
  auto r = run_tooluse(stored_run(server, "Compute 6*7, 2**10 and 1/0", "run-calc", store), key,
                       dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // A second run asks for a calculator call that needs approval; with no terminal it waits.
  server.push(
      openai_response({.calls = {{"call_w", "calculator", R"({"expression":"7*6"})"}}}, false));
  auto args = stored_run(server, "What is 7*6?", "run-wait", store);
  args.insert(args.end(), {"--confirm", "calculator"});
  r = run_tooluse(args, key, dir.path());
  ASSERT_EQ(r.exit_code, 3) << r.err;

  background_tooluse viewer({"trace", "serve", "--store", store.string()}, dir.path());
  auto url = viewer_url(viewer);
  ASSERT_NE(url.find("http://127.0.0.1:"), std::string::npos) << viewer.stderr_so_far();
  int status = 0;
  std::string dom = rendered_dom(browser, url + "runs/run-calc", dir.path() / "profile1", status);
  ASSERT_EQ(status, 0) << dom;
  struct expected {
    const char* id;
    const char* arguments;
    const char* result;
    bool error;
  };
  for (const auto& e :
       {expected{"call_a", "6*7", "42", false}, expected{"call_b", "2**10", "1024", false},
        expected{"call_c", "1/0", "division by zero", true}}) {
    std::string c = card(dom, e.id);
    ASSERT_FALSE(c.empty()) << e.id << " not shown:\n" << dom.substr(0, 4000);
    EXPECT_NE(c.find("calculator"), std::string::npos) << c;
    EXPECT_NE(c.find(e.arguments), std::string::npos) << c;
    auto result_at = c.find("class=\"tool-result\">");
    ASSERT_NE(result_at, std::string::npos) << e.id << " has no result:\n" << c;
    EXPECT_NE(c.find(e.result, result_at), std::string::npos) << c;
    EXPECT_EQ(c.find("class=\"badge\">error") != std::string::npos, e.error) << c;
    // The duration and the error badge read apart ("0 ms error", not "0 mserror").
    if (e.error) {
      EXPECT_NE(c.find("</span> <span class=\"badge\">error"), std::string::npos) << c;
    }
    EXPECT_NE(dom.find(std::string("data-call=\"") + e.id + "\""), std::string::npos) << e.id;
  }
  EXPECT_NE(dom.find("Compute 6*7, 2**10 and 1/0"), std::string::npos);
  EXPECT_NE(dom.find("Model request 2"), std::string::npos);
  EXPECT_NE(dom.find("out tokens"), std::string::npos);
  EXPECT_NE(dom.find("42 and 1024; 1/0 is undefined."), std::string::npos);
  EXPECT_NE(dom.find("status-done"), std::string::npos);
  EXPECT_NE(dom.find("href=\"/runs\""), std::string::npos) << "a way to the run list";

  // The run list (/ when there are several runs): both stored runs, linked by id, with status.
  dom = rendered_dom(browser, url, dir.path() / "profile-list", status);
  ASSERT_EQ(status, 0) << dom;
  auto row = [&](const std::string& id) {
    auto at = dom.find("data-run=\"" + id + "\"");
    return at == std::string::npos ? std::string() : dom.substr(at, dom.find("</tr>", at) - at);
  };
  EXPECT_NE(row("run-calc").find("href=\"/runs/run-calc\""), std::string::npos) << dom.substr(0, 3000);
  EXPECT_NE(row("run-calc").find("status-done"), std::string::npos) << row("run-calc");
  EXPECT_NE(row("run-calc").find("openai · fake-model"), std::string::npos) << row("run-calc");
  EXPECT_NE(row("run-wait").find("href=\"/runs/run-wait\""), std::string::npos);
  EXPECT_NE(row("run-wait").find("waiting for approval"), std::string::npos) << row("run-wait");

  dom = rendered_dom(browser, url + "runs/run-wait", dir.path() / "profile2", status);
  ASSERT_EQ(status, 0) << dom;
  std::string w = card(dom, "call_w");
  ASSERT_FALSE(w.empty()) << dom.substr(0, 4000);
  EXPECT_NE(w.find("waiting for approval"), std::string::npos) << w;
  EXPECT_NE(dom.find(">waiting for approval</span>"), std::string::npos) << dom.substr(0, 3000);
  // The waiting call shows the commands that unblock the run.
  auto unblock = w.find("class=\"tool-unblock\">");
  ASSERT_NE(unblock, std::string::npos) << w;
  EXPECT_NE(w.find("tooluse runs approve run-wait call_w --store " + store.string(), unblock),
            std::string::npos)
      << w;
  EXPECT_NE(w.find("tooluse runs resume run-wait --store " + store.string(), unblock),
            std::string::npos)
      << w;

  // Approved and resumed, the same run is done, its call shown once, with its result.
  server.push(openai_response({.text = "It is 42."}, false));
  r = run_tooluse({"runs", "approve", "run-wait", "--store", store.string()}, key, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_tooluse({"runs", "resume", "run-wait", "--store", store.string()}, key, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  dom = rendered_dom(browser, url + "runs/run-wait", dir.path() / "profile3", status);
  ASSERT_EQ(status, 0) << dom;
  EXPECT_EQ(count(dom, "data-id=\"call_w\""), 1) << dom.substr(0, 4000);
  w = card(dom, "call_w");
  auto result_at = w.find("class=\"tool-result\">");
  ASSERT_NE(result_at, std::string::npos) << w;
  EXPECT_NE(w.find("42", result_at), std::string::npos) << w;
  EXPECT_NE(dom.find("It is 42."), std::string::npos);
  EXPECT_NE(dom.find("status-done"), std::string::npos);
  EXPECT_NE(dom.find("2 model requests · 1 tool call · "), std::string::npos)
      << dom.substr(0, 3000);
  // The approval is shown: on the call, in the header and on the timeline.
  EXPECT_NE(w.find("class=\"decision approved\">approved</span>"), std::string::npos) << w;
  EXPECT_NE(w.find("for the decision"), std::string::npos) << w;
  EXPECT_NE(dom.find("id=\"approvals\">1 approved</span>"), std::string::npos)
      << dom.substr(0, 3000);
  EXPECT_NE(dom.find("class=\"bar waiting\""), std::string::npos);
}

TEST(trace_store_viewer, a_denied_call_shows_the_denial_and_its_message) {
  auto browser = chromium_path();
  if (browser.empty()) TOOLUSE_PEER_MISSING("chromium is not installed (apt-get install chromium)");
  fake_llm_server server;
  temp_dir dir;
  auto store = dir.path() / "runs.db";
  server.push(
      openai_response({.calls = {{"call_d", "calculator", R"({"expression":"7*6"})"}}}, false));
  auto args = stored_run(server, "What is 7*6?", "run-deny", store);
  args.insert(args.end(), {"--confirm", "calculator"});
  ASSERT_EQ(run_tooluse(args, key, dir.path()).exit_code, 3);
  auto r = run_tooluse({"runs", "deny", "run-deny", "--store", store.string(), "--message",
                        "not today"},
                       key, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  server.push(openai_response({.text = "I was not allowed."}, false));
  r = run_tooluse({"runs", "resume", "run-deny", "--store", store.string()}, key, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  background_tooluse viewer({"trace", "serve", "--store", store.string()}, dir.path());
  auto url = viewer_url(viewer);
  ASSERT_FALSE(url.empty()) << viewer.stderr_so_far();
  int status = 0;
  // One run: / shows it.
  std::string dom = rendered_dom(browser, url, dir.path() / "profile", status);
  ASSERT_EQ(status, 0) << dom;
  std::string c = card(dom, "call_d");
  EXPECT_NE(c.find("class=\"decision denied\">denied</span>"), std::string::npos) << c;
  EXPECT_NE(c.find("not today"), std::string::npos) << c;
  EXPECT_NE(dom.find("id=\"approvals\">1 denied</span>"), std::string::npos) << dom.substr(0, 3000);
}

TEST(trace_store_viewer, api_follows_a_run_still_being_journaled) {
  response_gate gate;
  fake_llm_server server;
  gate_opener open_at_end{gate};
  temp_dir dir;
  auto store = dir.path() / "runs.db";
  auto n = std::make_shared<std::atomic<int>>(0);
  server.set_responder([n, &gate](const recorded_request&) {
    if ((*n)++ == 0) {
      gate.wait();
      return openai_response({.calls = {{"call_1", "calculator", R"({"expression":"2*3"})"}}},
                             false);
    }
    return openai_response({.text = "It is 6."}, false);
  });
  auto running = std::async(std::launch::async, [&] {
    return run_tooluse(stored_run(server, "What is 2*3?", "run-live", store), key, dir.path());
  });
  // The model has the request: the run is journaled up to its first model request.
  ASSERT_TRUE(gate.wait_arrival());
  background_tooluse viewer({"trace", "serve", "run-live"}, dir.path(),
                            {{"TOOLUSE_STORE", store.string()}});
  auto url = viewer_url(viewer);
  ASSERT_FALSE(url.empty()) << viewer.stderr_so_far();
  auto events = [&](int from) {
    auto r = http::send({.url = url + "api/runs/run-live/events?from=" + std::to_string(from)});
    EXPECT_TRUE(r && r->status == 200) << (r ? r->body : r.error().message);
    auto j = r ? parse_json(r->body) : result<json>(fail(errc::io_error, "no answer"));
    return j ? *j : json::object();
  };
  json first = events(0);
  ASSERT_EQ(first["events"].size(), 2u) << first.dump();
  EXPECT_EQ(first["events"][0]["event"], "run");
  EXPECT_EQ(first["events"][0]["question"], "What is 2*3?");
  EXPECT_EQ(first["events"][0]["model"], "fake-model");
  EXPECT_EQ(first["events"][1]["event"], "model_request");
  gate.open();
  auto r = running.get();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json rest = events(first["next"].get<int>());
  std::vector<std::string> kinds;
  for (const auto& e : rest["events"]) kinds.push_back(e["event"]);
  EXPECT_EQ(kinds, (std::vector<std::string>{"model_response", "tool_call", "tool_result",
                                             "model_request", "model_response", "answer"}));
  EXPECT_EQ(rest["events"][2]["result"], "6");
  EXPECT_EQ(rest["events"][2]["arguments"]["expression"], "2*3");
  EXPECT_EQ(rest["events"][5]["text"], "It is 6.");
  // Only the run asked for is listed.
  auto list = http::send({.url = url + "api/runs"});
  ASSERT_TRUE(list.has_value());
  auto runs = parse_json(list->body);
  ASSERT_TRUE(runs && runs->size() == 1u) << list->body;
  EXPECT_EQ((*runs)[0]["id"], "run-live");
}

TEST(trace_store_viewer, serves_runs_of_a_postgresql_store) {
  postgres_cluster cluster;
  TOOLUSE_REQUIRE_POSTGRES(cluster);
  fake_llm_server server;
  temp_dir dir;
  push_parallel_calls(server);
  std::string url = cluster.url("traces");
  auto r = run_tooluse(
      {"run", "Compute 6*7, 2**10 and 1/0", "--base-url", server.url("/v1"), "--model",
       "fake-model", "--tools", "calculator", "--no-stream", "--store", url, "--run-id", "run-pg"},
      key, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  background_tooluse viewer({"trace", "serve", "--store", url}, dir.path());
  auto base = viewer_url(viewer);
  ASSERT_FALSE(base.empty()) << viewer.stderr_so_far();
  auto list = http::send({.url = base + "api/runs"});
  ASSERT_TRUE(list.has_value());
  EXPECT_NE(list->body.find("\"run-pg\""), std::string::npos) << list->body;
  auto page = http::send({.url = base});  // "/" is the newest stored run
  ASSERT_TRUE(page && page->status == 200);
  auto events = parse_json(
      page->body.substr(page->body.find('>', page->body.find("id=\"initial\"")) + 1,
                        page->body.find("</script>", page->body.find("id=\"initial\"")) -
                            page->body.find('>', page->body.find("id=\"initial\"")) - 1));
  ASSERT_TRUE(events.has_value()) << page->body.substr(0, 3000);
  std::map<std::string, std::string> results;
  for (const auto& e : *events)
    if (e["event"] == "tool_result") results[e["id"]] = e["result"];
  EXPECT_EQ(results["call_a"], "42");
  EXPECT_EQ(results["call_b"], "1024");
  EXPECT_NE(results["call_c"].find("division by zero"), std::string::npos);
}

TEST(trace_store_viewer, odd_run_ids_are_escaped_in_the_page_and_found_by_url) {
  fake_llm_server server;
  temp_dir dir;
  auto store = dir.path() / "runs.db";
  server.push(openai_response({.text = "Hi."}, false));
  const std::string id = "my run/\"1\"</script>";
  auto r = run_tooluse(stored_run(server, "Say hi", id, store), key, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  background_tooluse viewer({"trace", "serve", "--store", store.string(), id}, dir.path());
  auto url = viewer_url(viewer);
  ASSERT_FALSE(url.empty()) << viewer.stderr_so_far();
  const std::string encoded = "my%20run%2F%221%22%3C%2Fscript%3E";
  auto page = http::send({.url = url + "runs/" + encoded});
  ASSERT_TRUE(page.has_value());
  ASSERT_EQ(page->status, 200) << page->body;
  EXPECT_EQ(page->body.find(id), std::string::npos) << "the id must not appear unescaped";
  EXPECT_NE(page->body.find(R"(const RUN_ID = "my run/\"1\"\u003c/script>";)"), std::string::npos)
      << page->body.substr(page->body.find("const RUN_ID"), 100);
  auto events = http::send({.url = url + "api/runs/" + encoded + "/events?from=0"});
  ASSERT_TRUE(events.has_value());
  ASSERT_EQ(events->status, 200) << events->body;
  EXPECT_NE(events->body.find("\"answer\""), std::string::npos) << events->body;
}

TEST(trace_store_viewer, mistakes_are_usage_errors_that_say_what_to_do) {
  fake_llm_server server;
  temp_dir dir;
  auto store = dir.path() / "runs.db";
  server.push(openai_response({.text = "Hi."}, false));
  ASSERT_EQ(run_tooluse(stored_run(server, "Say hi", "run-1", store), key, dir.path()).exit_code,
            0);
  auto r = run_tooluse({"trace", "serve", "--store", store.string(), "run-2"}, {}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("run-2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("runs.db"), std::string::npos) << r.err;
  r = run_tooluse({"trace", "serve", "--store", (dir.path() / "typo.db").string()}, {}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no run store"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "typo.db")) << "a viewer creates no store";
  r = run_tooluse({"trace", "serve"}, {}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--store"), std::string::npos) << r.err;
  r = run_tooluse({"trace", "serve", "run-1"}, {}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no trace file \"run-1\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--store"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tooluse::testing
