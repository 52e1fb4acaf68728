// The result cache, events and the JSON Lines trace.
#include <sstream>

#include "exec_fixtures.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;
using namespace std::chrono_literals;

struct lookup_tool {
  tool_registry reg;
  std::atomic<int> runs{0};
  lookup_tool() {
    reg.add({.name = "lookup", .input_schema = {{"type", "object"}},
             .annotations = {.read_only = true}},
            [this](const json& args, call_context&) {
              ++runs;
              if (args.contains("fail")) return tool_result::error("not found");
              return tool_result::text("value " + dump_json(args));
            });
  }
};

TEST(executor_cache, hits_by_canonical_arguments_and_expires) {
  lookup_tool t;
  auto time = std::make_shared<manual_clock>();
  executor ex(t.reg, {.cache = {.capacity = 8, .ttl = 60s}, .time = time});
  tool_result first = ex.call(make_call("lookup", json::parse(R"({"a":1,"b":2})")));
  tool_result second = ex.call(make_call("lookup", json::parse(R"({"b":2,"a":1})")));
  EXPECT_EQ(t.runs.load(), 1);
  EXPECT_EQ(second.all_text(), first.all_text());
  EXPECT_EQ(second.meta["cached"], true);
  EXPECT_FALSE(first.meta.contains("cached"));
  time->advance(60s);
  ex.call(make_call("lookup", json::parse(R"({"a":1,"b":2})")));
  EXPECT_EQ(t.runs.load(), 2);
}

TEST(executor_cache, errors_and_other_tools_are_not_cached) {
  lookup_tool t;
  int writes = 0;
  t.reg.add({.name = "write"}, [&](const json&, call_context&) {
    ++writes;
    return tool_result::text("written");
  });
  executor ex(t.reg, {.cache = {.capacity = 8}});
  ex.call(make_call("lookup", {{"fail", true}}));
  ex.call(make_call("lookup", {{"fail", true}}));
  EXPECT_EQ(t.runs.load(), 2);
  ex.call(make_call("write"));
  ex.call(make_call("write"));
  EXPECT_EQ(writes, 2);
}

TEST(result_cache, evicts_least_recently_used) {
  result_cache c({.capacity = 2, .ttl = 60s}, std::make_shared<manual_clock>());
  c.put("a", tool_result::text("A"));
  c.put("b", tool_result::text("B"));
  EXPECT_TRUE(c.get("a"));  // a is now the most recent
  c.put("c", tool_result::text("C"));
  EXPECT_TRUE(c.get("a"));
  EXPECT_FALSE(c.get("b"));
  EXPECT_EQ(c.get("c")->all_text(), "C");
  EXPECT_EQ(c.size(), 2u);
}

TEST(executor_events, start_progress_end_in_order) {
  tool_registry reg;
  reg.add({.name = "steps"}, [](const json&, call_context& ctx) {
    for (int i = 1; i <= 3; ++i) ctx.report_progress(i, 3, "step " + std::to_string(i));
    return tool_result::text("done");
  });
  executor ex(reg);
  std::vector<std::string> seen;
  ex.call(make_call("steps"), {.on_event = [&](const call_event& e) {
                                 if (e.kind == event_kind::start) seen.push_back("start");
                                 if (e.kind == event_kind::progress)
                                   seen.push_back(e.progress->message);
                                 if (e.kind == event_kind::end)
                                   seen.push_back("end " + std::string(to_string(e.outcome)));
                               }});
  EXPECT_EQ(seen, (std::vector<std::string>{"start", "step 1", "step 2", "step 3", "end ok"}));
}

TEST(trace_writer, writes_one_redacted_line_per_call) {
  tool_registry reg;
  add_echo(reg);
  reg.add({.name = "login"}, [](const json&, call_context&) { return tool_result::text("ok"); });
  std::ostringstream out;
  trace_writer trace(out);
  executor ex(reg, {.on_event = [&](const call_event& e) { trace.write(e); }});
  std::vector<tool_call> calls = {
      make_call("login", {{"user", "ann"}, {"password", "hunter2"},
                          {"headers", {{"Authorization", "Bearer x"}, {"X-Api-Key", "k"}}},
                          {"max_tokens", 5}}),
      make_call("echo", {{"i", "bad"}})};
  ex.run_all(calls, {.session = "s"});
  std::istringstream lines(out.str());
  std::vector<json> parsed;
  for (std::string line; std::getline(lines, line);) parsed.push_back(json::parse(line));
  ASSERT_EQ(parsed.size(), 2u);
  std::sort(parsed.begin(), parsed.end(),
            [](const json& a, const json& b) { return a["tool"] < b["tool"]; });
  EXPECT_EQ(parsed[0]["tool"], "echo");
  EXPECT_EQ(parsed[0]["outcome"], "invalid");
  EXPECT_EQ(parsed[1]["tool"], "login");
  EXPECT_EQ(parsed[1]["outcome"], "ok");
  EXPECT_EQ(parsed[1]["session"], "s");
  EXPECT_EQ(parsed[1]["arguments"],
            json::parse(R"({"user":"ann","password":"[redacted]","headers":{"Authorization":
            "[redacted]","X-Api-Key":"[redacted]"},"max_tokens":5})"));
  EXPECT_TRUE(parsed[1]["ms"].is_number());
}

TEST(redact_secrets, matches_secret_key_names_only) {
  json in = {{"access_token", "a"}, {"client_secret", "b"}, {"api-key", "c"},
             {"token_count", 3}, {"passwords", {"x"}}, {"list", {{{"secret", "d"}}}}};
  json out = redact_secrets(in);
  EXPECT_EQ(out["access_token"], "[redacted]");
  EXPECT_EQ(out["client_secret"], "[redacted]");
  EXPECT_EQ(out["api-key"], "[redacted]");
  EXPECT_EQ(out["token_count"], 3);
  EXPECT_EQ(out["passwords"], json({"x"}));
  EXPECT_EQ(out["list"][0]["secret"], "[redacted]");
}

}  // namespace
}  // namespace tooluse::exec
