// The agent's checkpoint hooks: the order of journal calls, idempotency keys, stopping on a
// journal failure, waiting for approval, and resume without repeating journaled work.
#include "tooluse/agent/journal.hpp"

#include <gtest/gtest.h>

#include <mutex>

#include "scripted_model.hpp"
#include "tooluse/agent/agent.hpp"
#include "tooluse/exec/executor.hpp"

namespace tooluse {
namespace {

using agent_testing::calls;

// The model answers from a queue; once it is used up the provider is unreachable.
struct model : agent_testing::scripted_model {
  model() : scripted_model("model") { when_empty = errc::network_error; }
};

// memory_journal records steps as text; fail_at makes that step fail.
class memory_journal final : public run_journal {
 public:
  std::vector<std::string> steps;
  std::string fail_at;
  std::mutex mu;
  std::string run_id() const override { return "r1"; }
  status note(std::string s) {
    std::lock_guard lock(mu);
    steps.push_back(s);
    if (s == fail_at) return fail(errc::io_error, "disk full");
    return {};
  }
  status started(const std::vector<llm::message>& h) override {
    return note("started " + std::to_string(h.size()));
  }
  status model_request(int t) override { return note("request " + std::to_string(t)); }
  status model_response(int t, const llm::chat_response&) override {
    return note("response " + std::to_string(t));
  }
  status tool_started(int, const tool_call& c) override { return note("start " + c.id); }
  status tool_finished(int, const tool_call& c, const tool_result& r,
                       std::chrono::milliseconds) override {
    return note("finish " + c.id + " " + r.all_text());
  }
  status approval_waiting(int, const tool_call& c, const std::string&) override {
    return note("wait " + c.id);
  }
  status answered(int, const std::string& a, const llm::usage&) override {
    return note("answer " + a);
  }
  status failed(const error&) override { return note("failed"); }
};

TEST(agent_journal, every_step_is_journaled_in_order_with_idempotency_keys) {
  tool_registry tools;
  std::string key;
  tools.add({.name = "act"}, [&](const json&, call_context& ctx) {
    key = ctx.idempotency_key;
    return tool_result::text("done");
  });
  model m;
  m.answers.push_back(calls({tool_call::from_text("c1", "act", "{}")}));
  m.answers.push_back(agent_testing::text("ok"));
  auto j = std::make_shared<memory_journal>();
  agent a(m, tools, {.journal = j});
  auto r = a.run("go");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(key, "r1/c1");
  EXPECT_EQ(j->steps,
            (std::vector<std::string>{"started 1", "request 1", "response 1", "start c1",
                                      "finish c1 done", "request 2", "response 2", "answer ok"}));
}

TEST(agent_journal, a_failed_write_stops_the_run_before_the_step_takes_effect) {
  tool_registry tools;
  int ran = 0;
  tools.add({.name = "act"}, [&](const json&, call_context&) {
    ++ran;
    return tool_result::text("done");
  });
  model m;
  m.answers.push_back(calls({tool_call::from_text("c1", "act", "{}")}));
  auto j = std::make_shared<memory_journal>();
  j->fail_at = "response 1";
  agent a(m, tools, {.journal = j});
  auto r = a.run("go");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "disk full");
  EXPECT_EQ(ran, 0);
}

TEST(agent_journal, a_deferred_dangerous_call_stops_the_run_as_waiting) {
  tool_registry tools;
  tools.add({.name = "rm", .dangerous = true},
            [](const json&, call_context&) { return tool_result::text("gone"); });
  tools.add({.name = "ls"}, [](const json&, call_context&) { return tool_result::text("a b"); });
  exec::executor ex(tools);  // no policy: dangerous calls are deferred
  model m;
  m.answers.push_back(
      calls({tool_call::from_text("c1", "ls", "{}"), tool_call::from_text("c2", "rm", "{}")}));
  auto j = std::make_shared<memory_journal>();
  agent a(m, tools, {.executor = &ex, .journal = j});
  auto r = a.run("clean up");
  ASSERT_FALSE(r);
  ASSERT_EQ(a.last_run().waiting.size(), 1u);
  EXPECT_EQ(a.last_run().waiting[0].id, "c2");
  EXPECT_EQ(j->steps.back(), "wait c2");
  EXPECT_NE(std::find(j->steps.begin(), j->steps.end(), "finish c1 a b"), j->steps.end());
  EXPECT_EQ(m.requests.size(), 1u);
}

TEST(agent_journal, resume_reuses_journaled_results_and_runs_only_the_rest) {
  tool_registry tools;
  std::vector<std::string> ran;
  tools.add({.name = "act"}, [&](const json& args, call_context&) {
    ran.push_back(args.value("n", ""));
    return tool_result::text("ran " + args.value("n", ""));
  });
  auto c1 = tool_call::from_text("c1", "act", R"({"n":"1"})");
  auto c2 = tool_call::from_text("c2", "act", R"({"n":"2"})");
  run_snapshot snap;
  snap.history = {llm::message::user("go"), calls({c1, c2}).reply};
  snap.turns = 1;
  snap.results["c1"] = tool_result::text("ran 1");
  model m;
  m.answers.push_back(agent_testing::text("both done"));
  auto j = std::make_shared<memory_journal>();
  agent a(m, tools, {.journal = j});
  auto r = a.resume(snap);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->answer, "both done");
  EXPECT_EQ(ran, std::vector<std::string>{"2"});
  EXPECT_EQ(m.requests.size(), 1u);
  EXPECT_EQ(r->turns, 2);
  ASSERT_EQ(a.history().size(), 5u);  // user, assistant, two results, answer
  EXPECT_EQ(a.history()[2].text(), "ran 1");
  EXPECT_EQ(a.history()[3].text(), "ran 2");

  run_snapshot done;
  done.done = true;
  done.answer = "old answer";
  agent b(m, tools, {.journal = j});
  auto again = b.resume(done);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->answer, "old answer");
  EXPECT_EQ(m.requests.size(), 1u);
}

// A resumed run offers again the tools its searches loaded before the crash.
TEST(agent_journal, resume_offers_the_tools_earlier_searches_loaded) {
  tool_registry tools;
  for (const char* n : {"get_weather", "send_email", "read_file", "list_dir"})
    tools.add({.name = n, .description = std::string("does ") + n},
              [](const json&, call_context&) { return tool_result::text("ok"); });
  class recording final : public llm::provider {
   public:
    std::vector<std::string> offered;
    result<llm::chat_response> complete(const llm::chat_request& req, const llm::stream_callbacks&,
                                        std::stop_token) override {
      for (const auto& t : req.tools) offered.push_back(t.name);
      return llm::chat_response{.reply = llm::message::assistant("sunny")};
    }
    std::string name() const override { return "recording"; }
  } m;
  auto search = tool_call::from_text("s1", "search_tools", R"({"query":"weather"})");
  run_snapshot snap;
  snap.history = {llm::message::user("weather?"), calls({search}).reply,
                  llm::message::tool_result(search, tool_result::text("Loaded get_weather"))};
  snap.turns = 1;
  agent a(m, tools,
          {.tool_search = {.use = tool_search_options::mode::always, .max_results = 1},
           .journal = std::make_shared<memory_journal>()});
  auto r = a.resume(snap);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_NE(std::find(m.offered.begin(), m.offered.end(), "get_weather"), m.offered.end());
  EXPECT_EQ(std::find(m.offered.begin(), m.offered.end(), "send_email"), m.offered.end());
}

}  // namespace
}  // namespace tooluse
