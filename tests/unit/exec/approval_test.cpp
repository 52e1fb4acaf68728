// Approval of dangerous tools: approve, reject, edit, defer and resume.
#include <thread>

#include "exec_fixtures.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;
using namespace std::chrono_literals;

struct deleter {
  tool_registry reg;
  std::vector<int> deleted;
  std::mutex m;
  deleter() {
    reg.add({.name = "delete_file", .input_schema = int_schema("id"), .dangerous = true},
            [this](const json& args, call_context&) {
              std::lock_guard lock(m);
              deleted.push_back(args["id"].get<int>());
              return tool_result::text("deleted " + std::to_string(args["id"].get<int>()));
            });
  }
};

TEST(executor_approval, approve_reject_and_edit) {
  deleter d;
  std::vector<std::string> asked;
  executor ex(d.reg, {.approval = [&](const approval_request& req) {
                        asked.push_back(req.call.name + ":" + dump_json(req.call.arguments));
                        int id = req.call.arguments["id"].get<int>();
                        if (id == 1) return approval_decision::approve();
                        if (id == 2) return approval_decision::reject("not that one");
                        return approval_decision::edit({{"id", 30}});
                      }});
  std::vector<tool_call> calls = {make_call("delete_file", {{"id", 1}}),
                                  make_call("delete_file", {{"id", 2}}),
                                  make_call("delete_file", {{"id", 3}})};
  auto results = ex.run_all(calls);
  EXPECT_EQ(results[0].all_text(), "deleted 1");
  EXPECT_TRUE(results[1].is_error);
  EXPECT_EQ(results[1].all_text(), "the call to tool \"delete_file\" was rejected: not that one");
  EXPECT_EQ(results[2].all_text(), "deleted 30");
  EXPECT_EQ(asked, (std::vector<std::string>{"delete_file:{\"id\":1}", "delete_file:{\"id\":2}",
                                             "delete_file:{\"id\":3}"}));
  std::sort(d.deleted.begin(), d.deleted.end());
  EXPECT_EQ(d.deleted, (std::vector<int>{1, 30}));
}

TEST(executor_approval, edited_arguments_are_validated) {
  deleter d;
  executor ex(d.reg, {.approval = [](const approval_request&) {
                        return approval_decision::edit({{"id", "all"}});
                      }});
  tool_result r = ex.call(make_call("delete_file", {{"id", 1}}));
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.all_text().rfind("invalid arguments for tool \"delete_file\"", 0), 0u);
  EXPECT_TRUE(d.deleted.empty());
}

TEST(executor_approval, deferred_call_is_saved_and_resumed) {
  deleter d;
  json saved;
  {
    executor ex(d.reg);  // no policy: dangerous calls wait for a decision
    tool_result r = ex.call(make_call("delete_file", {{"id", 7}}, "call_7"), {.session = "s1"});
    EXPECT_FALSE(r.is_error);
    EXPECT_EQ(r.all_text(),
              "the call to tool \"delete_file\" is waiting for approval and has not run yet");
    auto pending = pending_from_result(r);
    ASSERT_TRUE(pending);
    EXPECT_EQ(pending->call.id, "call_7");
    EXPECT_EQ(pending->session, "s1");
    EXPECT_EQ(pending->reason, "tool \"delete_file\" is dangerous");
    saved = parse_json(dump_json(pending->to_json())).value();  // as if written to disk
  }
  EXPECT_TRUE(d.deleted.empty());
  // Later, maybe in another process: a person approves.
  executor ex(d.reg);
  auto restored = pending_approval::from_json(saved);
  ASSERT_TRUE(restored);
  EXPECT_EQ(restored->call.arguments, json({{"id", 7}}));
  EXPECT_EQ(ex.resume(*restored, approval_decision::approve()).all_text(), "deleted 7");
  EXPECT_EQ(ex.resume(*restored, approval_decision::edit({{"id", 8}})).all_text(), "deleted 8");
  EXPECT_EQ(ex.resume(*restored, approval_decision::reject("no")).all_text(),
            "the call to tool \"delete_file\" was rejected: no");
  EXPECT_TRUE(pending_from_result(ex.resume(*restored, approval_decision::defer())));
  EXPECT_EQ(d.deleted, (std::vector<int>{7, 8}));
}

TEST(executor_approval, a_call_approved_after_the_batch_deadline_does_not_run) {
  deleter d;
  // The person deciding takes longer than the batch may: the deadline has passed when the
  // approval comes back, so the call must time out unrun, as its result says.
  const auto timeout = 20ms;
  executor ex(d.reg, {.approval = [&](const approval_request&) {
                        // Measured from here, not from before the executor was built: on a busy
                        // machine building it can take longer than the whole wait.
                        const auto asked = std::chrono::steady_clock::now();
                        while (std::chrono::steady_clock::now() < asked + 2 * timeout)
                          std::this_thread::yield();  // the batch deadline is a clock's
                        return approval_decision::approve();
                      }});
  auto budget = std::make_shared<run_budget>(budget_limits{.max_calls = 5});
  std::vector<tool_call> calls = {make_call("delete_file", {{"id", 1}}, "a"),
                                  make_call("delete_file", {{"id", 2}}, "b")};
  auto results = ex.run_all(calls, {.timeout = timeout, .budget = budget});
  ASSERT_EQ(results.size(), 2u);
  for (const auto& r : results) {
    EXPECT_TRUE(r.is_error);
    EXPECT_NE(r.all_text().find("(the batch deadline) while waiting to start; it did not run"),
              std::string::npos)
        << r.all_text();
  }
  EXPECT_TRUE(d.deleted.empty());
  EXPECT_EQ(budget->calls_used(), 0u);  // neither ran, so neither is spent
}

TEST(pending_approval, from_json_names_the_bad_field) {
  auto r = pending_approval::from_json({{"id", "a"}, {"call", {{"id", "c"}}}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::invalid_argument);
  EXPECT_EQ(r.error().message, "pending approval: call.\"name\" must be a string");
}

}  // namespace
}  // namespace tooluse::exec
