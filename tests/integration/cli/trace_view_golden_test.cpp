// The trace viewer's pages as a user sees them, in headless Chromium (Debian's chromium; a
// missing browser fails under CI=true): two trace files with fixed timestamps (a run with four
// tool calls, one failing, three too short to hold their name; a run that failed) are served by
// the real binary. The DOM must hold what a user asks of the page (a run list with time, status,
// cost and model, a working filter; a header with usage and cost; a time axis; names beside
// bars too short for them; "0 ms error"), and a screenshot at a fixed window size must match
// the golden PNG in tests/data/trace_view within a tolerance that forgives font rasterising but
// not a moved, missing or resized element. TOOLUSE_UPDATE_GOLDENS=1 writes the goldens anew.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>

#include "headless_browser.hpp"
#include "support/cli_process.hpp"
#include "tooluse/json.hpp"

namespace tooluse::testing::trace_view_golden_test {
namespace {

constexpr double t0 = 1764251400000;  // 2025-11-27 13:50:00 UTC

void write_events(const std::filesystem::path& path, const std::vector<json>& events) {
  std::ofstream out(path);
  for (const auto& e : events) out << e.dump() << "\n";
}

json usage(int in, int out, double cost) {
  return {{"input_tokens", in}, {"output_tokens", out}, {"total_tokens", in + out}, {"cost", cost}};
}

json call(const char* kind, const char* id, const char* name, json args, double ts) {
  return {{"event", kind}, {"turn", 1}, {"id", id}, {"name", name}, {"arguments", args},
          {"ts", t0 + ts}};
}

json result(const char* id, const char* name, json args, const char* text, bool error, int ms,
            double ts) {
  json e = call("tool_result", id, name, std::move(args), ts);
  e["result"] = text;
  e["is_error"] = error;
  e["ms"] = ms;
  return e;
}

// The calculator run: turn 1 asks for four calls at once, turn 2 answers.
void write_calc_run(const std::filesystem::path& path) {
  json a = {{"expression", "6*7"}}, b = {{"expression", "2**10"}}, c = {{"expression", "1/0"}},
       d = {{"timezone", "UTC"}};
  write_events(
      path,
      {{{"event", "run"}, {"question", "Compute 6*7, 2**10 and 1/0, and tell me the time"},
        {"provider", "openai"}, {"model", "gpt-4o-mini"}, {"tools", {"calculator", "datetime"}},
        {"ts", t0}},
       {{"event", "model_request"}, {"turn", 1}, {"ts", t0 + 5}},
       {{"event", "model_response"}, {"turn", 1}, {"finish", "tool_calls"},
        {"usage", usage(120, 40, 0.00042)}, {"ms", 800}, {"ts", t0 + 805}},
       call("tool_call", "call_a", "calculator", a, 806),
       call("tool_call", "call_b", "calculator", b, 806),
       call("tool_call", "call_c", "calculator", c, 806),
       call("tool_call", "call_d", "datetime", d, 806),
       result("call_c", "calculator", c, "division by zero", true, 0, 806),
       result("call_a", "calculator", a, "42", false, 4, 810),
       result("call_b", "calculator", b, "1024", false, 9, 815),
       result("call_d", "datetime", d, "2025-11-27T13:50:01Z", false, 420, 1226),
       {{"event", "model_request"}, {"turn", 2}, {"ts", t0 + 1230}},
       {{"event", "text_delta"}, {"turn", 2}, {"text", "42 and 1024; 1/0 is undefined. It is 13:50 UTC."},
        {"ts", t0 + 1700}},
       {{"event", "model_response"}, {"turn", 2}, {"finish", "stop"},
        {"usage", usage(210, 18, 0.0003)}, {"ms", 670}, {"ts", t0 + 1900}},
       {{"event", "answer"}, {"turn", 2}, {"text", "42 and 1024; 1/0 is undefined. It is 13:50 UTC."},
        {"usage", usage(330, 58, 0.00072)}, {"ts", t0 + 1912}}});
}

// A run a minute later that the provider refused.
void write_failed_run(const std::filesystem::path& path) {
  write_events(path, {{{"event", "run"}, {"question", "Summarise the news"},
                       {"provider", "anthropic"}, {"model", "claude-haiku"}, {"ts", t0 + 60000}},
                      {{"event", "model_request"}, {"turn", 1}, {"ts", t0 + 60010}},
                      {{"event", "error"}, {"turn", 1},
                       {"text", "anthropic: HTTP 429 rate limited after 3 retries"},
                       {"ts", t0 + 62010}}});
}

class trace_view_golden : public ::testing::Test {
 protected:
  temp_dir dir;
  std::string browser = chromium_path();
  std::unique_ptr<background_tooluse> viewer;
  std::string url;

  void SetUp() override {
    if (browser.empty()) TOOLUSE_PEER_MISSING("chromium is not installed (apt-get install chromium)");
    write_calc_run(dir.path() / "calc.jsonl");
    write_failed_run(dir.path() / "failed.jsonl");
    viewer = std::make_unique<background_tooluse>(
        std::vector<std::string>{"trace", "serve", "calc.jsonl", "failed.jsonl"}, dir.path());
    std::string line = viewer->wait_for_line("trace viewer ");
    auto at = line.find("http://");
    ASSERT_NE(at, std::string::npos) << viewer->stderr_so_far();
    url = line.substr(at);
  }
  std::string dom(const std::string& path, const std::string& profile) {
    int status = 0;
    auto d = rendered_dom(browser, url + path, dir.path() / profile, status);
    EXPECT_EQ(status, 0) << d;
    return d;
  }
  // matches_golden screenshots `path` and compares it with tests/data/trace_view/NAME.png.
  void matches_golden(const std::string& path, const std::string& name) {
    auto shot = dir.path() / (name + ".png");
    std::string log;
    ASSERT_TRUE(screenshot(browser, url + path, shot, dir.path() / ("shot-" + name), log)) << log;
    auto golden = data_dir() / "trace_view" / (name + ".png");
    const char* update = std::getenv("TOOLUSE_UPDATE_GOLDENS");
    if (update && std::string(update) == "1") {
      std::filesystem::copy_file(shot, golden, std::filesystem::copy_options::overwrite_existing);
      std::cerr << "wrote " << golden << "\n";
    }
    ASSERT_TRUE(std::filesystem::exists(golden))
        << golden << " is missing; run this test with TOOLUSE_UPDATE_GOLDENS=1 to write it";
    auto d = compare_images(browser, golden, shot, dir.path());
    ASSERT_TRUE(d.compared) << d.report;
    // Fonts rasterised differently move a few pixels; a layout change moves whole blocks.
    EXPECT_LT(d.blocks, 0.01) << name << ": " << d.report << "; the page looks different from "
                              << golden << " (screenshot kept at " << shot
                              << "; TOOLUSE_UPDATE_GOLDENS=1 accepts it)";
    EXPECT_LT(d.pixels, 0.03) << name << ": " << d.report;
    if (HasFailure()) {
      auto kept = std::filesystem::temp_directory_path() / ("tooluse-" + name + "-actual.png");
      std::filesystem::copy_file(shot, kept, std::filesystem::copy_options::overwrite_existing);
      std::cerr << "the screenshot that differs: " << kept << "\n";
    }
  }
};

int count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// row returns the rendered table row of run `id` ("" if none).
std::string row(const std::string& dom, const std::string& id) {
  auto at = dom.find("data-run=\"" + id + "\"");
  if (at == std::string::npos) return "";
  auto start = dom.rfind("<tr", at);
  return dom.substr(start, dom.find("</tr>", at) - start);
}

TEST_F(trace_view_golden, run_list_shows_time_status_cost_and_model_and_filters) {
  // With more than one run, / is the list.
  std::string d = dom("", "list");
  std::string calc = row(d, "calc.jsonl"), failed = row(d, "failed.jsonl");
  ASSERT_FALSE(calc.empty()) << d.substr(0, 3000);
  ASSERT_FALSE(failed.empty()) << d.substr(0, 3000);
  EXPECT_NE(calc.find("2025-11-27 13:50:00"), std::string::npos) << calc;
  EXPECT_NE(calc.find("status-done"), std::string::npos) << calc;
  EXPECT_NE(calc.find("href=\"/runs/calc.jsonl\""), std::string::npos) << calc;
  EXPECT_NE(calc.find("Compute 6*7, 2**10 and 1/0, and tell me the time"), std::string::npos);
  EXPECT_NE(calc.find("openai · gpt-4o-mini"), std::string::npos) << calc;
  EXPECT_NE(calc.find("$0.000720"), std::string::npos) << calc;
  EXPECT_NE(calc.find("4 (1 failed)"), std::string::npos) << calc;
  EXPECT_NE(calc.find("330 / 58"), std::string::npos) << calc;
  EXPECT_NE(calc.find("1.91 s"), std::string::npos) << calc;
  EXPECT_NE(failed.find("2025-11-27 13:51:00"), std::string::npos) << failed;
  EXPECT_NE(failed.find("status-failed"), std::string::npos) << failed;
  EXPECT_NE(failed.find("unknown"), std::string::npos) << "no price: " << failed;
  EXPECT_EQ(count(d, "class=\"hidden\""), 0);
  EXPECT_NE(d.find("2 runs"), std::string::npos);
  // The filter (its text from ?q=) keeps the rows holding every word.
  d = dom("runs?q=failed%20claude", "filtered");
  EXPECT_NE(row(d, "calc.jsonl").find("class=\"hidden\""), std::string::npos) << row(d, "calc.jsonl");
  EXPECT_EQ(row(d, "failed.jsonl").find("hidden"), std::string::npos) << row(d, "failed.jsonl");
  EXPECT_NE(d.find("1 of 2 runs"), std::string::npos);
  d = dom("runs?q=nothing-like-this", "none");
  EXPECT_EQ(count(d, "class=\"hidden\""), 2);
  EXPECT_NE(d.find("No run matches the filter."), std::string::npos);
}

TEST_F(trace_view_golden, run_page_has_usage_cost_a_time_axis_and_readable_bars) {
  std::string d = dom("runs/calc.jsonl", "run");
  ASSERT_NE(d.find("id=\"timeline\""), std::string::npos) << d.substr(0, 2000);
  // The header: requests, calls, tokens, time and cost; a way back to the list.
  EXPECT_NE(d.find("2 model requests · 4 tool calls · 330 in / 58 out tokens · 1.91 s"),
            std::string::npos)
      << d.substr(0, 3000);
  EXPECT_NE(d.find("cost $0.000720"), std::string::npos);
  EXPECT_NE(d.find("href=\"/runs\""), std::string::npos);
  // The time axis: ticks every 200 ms from 0 to the end.
  std::regex tick("class=\"tick-label\"[^>]*>([^<]*)<");
  std::vector<std::string> ticks;
  for (std::sregex_iterator it(d.begin(), d.end(), tick), end; it != end; ++it)
    ticks.push_back((*it)[1]);
  EXPECT_EQ(ticks, (std::vector<std::string>{"0", "200 ms", "400 ms", "600 ms", "800 ms",
                                             "1.00 s", "1.20 s", "1.40 s", "1.60 s", "1.80 s"}));
  // A bar too short for its name has the name beside it, whole; a long one holds its own.
  std::regex bar("<div class=\"bar tool[^\"]*\"[^>]*data-call=\"(call_[a-d])\"[^>]*>([^<]*)</div>");
  std::map<std::string, std::string> text;
  for (std::sregex_iterator it(d.begin(), d.end(), bar), end; it != end; ++it)
    text[(*it)[1]] = (*it)[2];
  EXPECT_EQ(text, (std::map<std::string, std::string>{
                      {"call_a", ""}, {"call_b", ""}, {"call_c", ""}, {"call_d", "datetime"}}));
  EXPECT_EQ(count(d, "class=\"bar-label\""), 3) << "calculator beside each short bar";
  EXPECT_EQ(count(d, ">calculator</span>"), 3);
  // The failed call reads "0 ms error".
  EXPECT_NE(d.find("0 ms</span> <span class=\"badge\">error"), std::string::npos);
  EXPECT_EQ(d.find("mserror"), std::string::npos);
}

TEST_F(trace_view_golden, pages_match_their_golden_screenshots) {
  matches_golden("runs", "runs_page");
  matches_golden("runs/calc.jsonl", "run_page");
  // The comparison can fail: the two pages differ from each other by far more than it forgives.
  auto goldens = data_dir() / "trace_view";
  auto d = compare_images(browser, goldens / "runs_page.png", goldens / "run_page.png", dir.path());
  ASSERT_TRUE(d.compared) << d.report;
  EXPECT_GT(d.blocks, 0.1) << d.report;
}

}  // namespace
}  // namespace tooluse::testing
