// `tooluse trace serve`: a run recorded with --trace (parallel calls, a failing call) served by
// the binary and rendered by headless Chromium (Debian's chromium; a missing browser fails the
// test under CI=true). The rendered DOM must show every tool call with its arguments and result.
// The JSON API the page polls is checked for a trace still being written.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "headless_browser.hpp"
#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"
#include "tooluse/http/client.hpp"

namespace tooluse::testing::trace_viewer_test {
namespace {

// record_run writes a trace: turn 1 asks for three calculator calls at once (one fails), turn 2
// answers.
std::filesystem::path record_run(fake_llm_server& server, const std::filesystem::path& dir) {
  server.push(openai_response({.calls = {{"call_a", "calculator", R"({"expression":"6*7"})"},
                                         {"call_b", "calculator", R"({"expression":"2**10"})"},
                                         {"call_c", "calculator", R"({"expression":"1/0"})"}}},
                              true));
  server.push(openai_response({.text = "42 and 1024; 1/0 is undefined."}, true));
  auto trace = dir / "run.jsonl";
  auto r =
      run_tooluse({"run", "Compute 6*7, 2**10 and 1/0", "--base-url", server.url("/v1"), "--model",
                   "fake-model", "--tools", "calculator", "--trace", trace.string()},
                  {{"OPENAI_API_KEY", "sk-test"}}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return trace;
}

std::string viewer_url(background_tooluse& viewer) {
  std::string line = viewer.wait_for_line("trace viewer ");
  auto at = line.find("http://");
  return at == std::string::npos ? "" : line.substr(at);
}

TEST(trace_viewer, chromium_shows_every_tool_call_with_its_result) {
  auto browser = chromium_path();
  if (browser.empty()) TOOLUSE_PEER_MISSING("chromium is not installed (apt-get install chromium)");
  fake_llm_server server;
  temp_dir dir;
  auto trace = record_run(server, dir.path());
  background_tooluse viewer({"trace", "serve", trace.string()}, dir.path());
  auto url = viewer_url(viewer);
  ASSERT_FALSE(url.empty()) << viewer.stderr_so_far();
  ASSERT_NE(url.find("http://127.0.0.1:"), std::string::npos) << url;

  int status = 0;
  std::string dom = rendered_dom(browser, url, dir.path() / "chromium-profile", status);
  ASSERT_EQ(status, 0) << dom;
  ASSERT_NE(dom.find("id=\"steps\""), std::string::npos) << dom.substr(0, 2000);

  struct expected {
    const char* id;
    const char* arguments;
    const char* result;
    bool error;
  };
  for (const auto& e :
       {expected{"call_a", "6*7", "42", false}, expected{"call_b", "2**10", "1024", false},
        expected{"call_c", "1/0", "division by zero", true}}) {
    auto at = dom.find(std::string("data-id=\"") + e.id + "\"");
    ASSERT_NE(at, std::string::npos) << e.id << " not shown:\n" << dom.substr(0, 4000);
    auto card = dom.substr(at, dom.find("</pre></div>", dom.find("tool-result", at)) - at);
    EXPECT_NE(card.find("calculator"), std::string::npos) << card;
    EXPECT_NE(card.find(e.arguments), std::string::npos) << card;
    auto result_at = card.find("class=\"tool-result\">");
    ASSERT_NE(result_at, std::string::npos) << e.id << " has no result:\n" << card;
    EXPECT_NE(card.find(e.result, result_at), std::string::npos) << card;
    EXPECT_EQ(card.find("class=\"badge\">error") != std::string::npos, e.error) << card;
  }
  // The conversation, the model request with its tokens, the answer and the timeline with the
  // three parallel calls.
  EXPECT_NE(dom.find("Model request 1"), std::string::npos);
  EXPECT_NE(dom.find("out tokens"), std::string::npos);
  EXPECT_NE(dom.find("42 and 1024; 1/0 is undefined."), std::string::npos);
  EXPECT_NE(dom.find("Compute 6*7, 2**10 and 1/0"), std::string::npos);
  for (const char* id : {"call_a", "call_b", "call_c"})
    EXPECT_NE(dom.find(std::string("data-call=\"") + id + "\""), std::string::npos) << id;
  EXPECT_NE(dom.find("status-done"), std::string::npos);
}

TEST(trace_viewer, api_follows_a_trace_still_being_written) {
  temp_dir dir;
  auto trace = dir.path() / "live.jsonl";
  std::ofstream out(trace);
  out << R"({"event":"run","question":"q","ts":1})"
      << "\n"
      << std::flush;
  background_tooluse viewer({"trace", "serve", trace.string(), "--http", "127.0.0.1:0"},
                            dir.path());
  auto url = viewer_url(viewer);
  ASSERT_FALSE(url.empty()) << viewer.stderr_so_far();
  auto get = [&](const std::string& path) {
    auto r = http::send({.url = url + path.substr(1)});
    EXPECT_TRUE(r.has_value());
    return r ? *r : http::response{};
  };
  auto first = get("/api/runs/live.jsonl/events?from=0");
  ASSERT_EQ(first.status, 200) << first.body;
  auto j = parse_json(first.body);
  ASSERT_TRUE(j.has_value());
  EXPECT_EQ((*j)["events"].size(), 1u);
  EXPECT_EQ((*j)["next"], 1);
  out << R"({"event":"model_request","turn":1,"ts":2})"
      << "\n"
      << R"({"event":"mod)" << std::flush;
  auto second = parse_json(get("/api/runs/live.jsonl/events?from=1").body);
  ASSERT_TRUE(second.has_value());
  ASSERT_EQ((*second)["events"].size(), 1u) << "a half-written line must wait";
  EXPECT_EQ((*second)["events"][0]["event"], "model_request");
  out << R"(el_response","turn":1,"ts":3})"
      << "\n"
      << std::flush;
  auto third = parse_json(get("/api/runs/live.jsonl/events?from=2").body);
  ASSERT_TRUE(third.has_value());
  ASSERT_EQ((*third)["events"].size(), 1u);
  EXPECT_EQ((*third)["events"][0]["event"], "model_response");
  auto page = get("/");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<!doctype html>"), std::string::npos);
  EXPECT_EQ(page.body.find("src=\"http"), std::string::npos)
      << "the page must load nothing from outside";
  EXPECT_NE(page.header_value("content-security-policy").value_or("").find("default-src 'none'"),
            std::string::npos);
  auto rebinding = http::send({.url = url + "api/runs", .headers = {{"Host", "evil.example:80"}}});
  ASSERT_TRUE(rebinding.has_value());
  EXPECT_EQ(rebinding->status, 403);
}

}  // namespace
}  // namespace tooluse::testing
