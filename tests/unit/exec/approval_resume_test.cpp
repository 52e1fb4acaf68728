// pending_approval's JSON (every malformed field named, a round trip, optional fields) and
// executor::resume's decisions: reject and defer without running, edit validated again, the
// pending call's session used when the caller gives none, and the default policy deferring.
#include "exec_fixtures.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;

pending_approval sample() {
  pending_approval p;
  p.id = "approval-1";
  p.call = make_call("echo", {{"i", 7}}, "c1");
  p.session = "alice";
  p.reason = "needs a person";
  p.created_unix_ms = 1700000000123;
  return p;
}

TEST(pending_approval_json, round_trips_every_field) {
  auto back = pending_approval::from_json(sample().to_json());
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->id, "approval-1");
  EXPECT_EQ(back->call.id, "c1");
  EXPECT_EQ(back->call.name, "echo");
  EXPECT_EQ(back->call.arguments, json({{"i", 7}}));
  EXPECT_EQ(back->call.raw_arguments, R"({"i":7})");
  EXPECT_EQ(back->session, "alice");
  EXPECT_EQ(back->reason, "needs a person");
  EXPECT_EQ(back->created_unix_ms, 1700000000123);
}

TEST(pending_approval_json, session_reason_and_time_are_optional) {
  auto p = pending_approval::from_json(
      {{"id", "a"}, {"call", {{"id", "c"}, {"name", "n"}, {"arguments", json::object()}}},
       {"created_unix_ms", "yesterday"}});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->session, "");
  EXPECT_EQ(p->reason, "");
  EXPECT_EQ(p->created_unix_ms, 0);
}

TEST(pending_approval_json, each_malformed_field_is_named) {
  const json call = {{"id", "c"}, {"name", "n"}, {"arguments", json::object()}};
  struct bad_case {
    json doc;
    std::string message;
  };
  const std::vector<bad_case> cases = {
      {json::array(), "pending approval must be a JSON object"},
      {{{"call", call}}, "pending approval: \"id\" must be a string"},
      {{{"id", 5}, {"call", call}}, "pending approval: \"id\" must be a string"},
      {{{"id", "a"}}, "pending approval: \"call\" must be an object"},
      {{{"id", "a"}, {"call", "echo"}}, "pending approval: \"call\" must be an object"},
      {{{"id", "a"}, {"call", {{"name", "n"}, {"arguments", json::object()}}}},
       "pending approval: call.\"id\" must be a string"},
      {{{"id", "a"}, {"call", {{"id", "c"}, {"name", 1}, {"arguments", json::object()}}}},
       "pending approval: call.\"name\" must be a string"},
      {{{"id", "a"}, {"call", {{"id", "c"}, {"name", "n"}, {"arguments", "{}"}}}},
       "pending approval: \"call.arguments\" must be an object"},
  };
  for (const auto& c : cases) {
    auto r = pending_approval::from_json(c.doc);
    ASSERT_FALSE(r) << c.doc.dump();
    EXPECT_EQ(r.error().code, errc::invalid_argument);
    EXPECT_EQ(r.error().message, c.message) << c.doc.dump();
  }
}

TEST(pending_from_result, finds_only_a_well_formed_pending_approval) {
  tool_result plain = tool_result::text("ok");
  EXPECT_FALSE(pending_from_result(plain));
  tool_result broken = tool_result::text("waiting");
  broken.meta["pending_approval"] = {{"id", 3}};
  EXPECT_FALSE(pending_from_result(broken));
  tool_result good = tool_result::text("waiting");
  good.meta["pending_approval"] = sample().to_json();
  auto p = pending_from_result(good);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->call.id, "c1");
}

// A registry whose dangerous "echo" records the session of each run.
struct recorder {
  tool_registry reg;
  std::vector<std::string> sessions;
  recorder() {
    reg.add({.name = "echo", .input_schema = int_schema("i"), .dangerous = true},
            [this](const json& args, call_context& ctx) {
              sessions.push_back(ctx.session);
              return tool_result::text(std::to_string(args["i"].get<int>()));
            });
  }
};

TEST(executor_resume, reject_and_defer_do_not_run_the_call) {
  recorder rec;
  executor ex(rec.reg);
  auto rejected = ex.resume(sample(), approval_decision::reject("not today"));
  EXPECT_TRUE(rejected.is_error);
  EXPECT_EQ(rejected.all_text(), "the call to tool \"echo\" was rejected: not today");
  auto deferred = ex.resume(sample(), approval_decision::defer("later"));
  EXPECT_FALSE(deferred.is_error);
  EXPECT_EQ(deferred.all_text(),
            "the call to tool \"echo\" is waiting for approval and has not run yet");
  auto again = pending_from_result(deferred);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->id, "approval-1");
  EXPECT_TRUE(rec.sessions.empty());
}

TEST(executor_resume, approve_runs_in_the_pending_session_unless_the_caller_names_one) {
  recorder rec;
  executor ex(rec.reg);
  auto r = ex.resume(sample(), approval_decision::approve());
  EXPECT_FALSE(r.is_error) << r.all_text();
  EXPECT_EQ(r.all_text(), "7");
  auto other = ex.resume(sample(), approval_decision::approve(), {.session = "bob"});
  EXPECT_FALSE(other.is_error);
  EXPECT_EQ(rec.sessions, (std::vector<std::string>{"alice", "bob"}));
}

TEST(executor_resume, edited_arguments_are_validated_before_running) {
  recorder rec;
  executor ex(rec.reg);
  auto edited = ex.resume(sample(), approval_decision::edit({{"i", 9}}));
  EXPECT_EQ(edited.all_text(), "9");
  auto invalid = ex.resume(sample(), approval_decision::edit({{"i", "nine"}}));
  EXPECT_TRUE(invalid.is_error);
  EXPECT_NE(invalid.all_text().find("invalid arguments for tool \"echo\""), std::string::npos)
      << invalid.all_text();
  EXPECT_EQ(rec.sessions.size(), 1u);
}

TEST(executor_approval_default, without_a_policy_a_dangerous_call_waits) {
  recorder rec;
  executor ex(rec.reg);
  auto r = ex.call(make_call("echo", {{"i", 1}}, "c5"), {.session = "s"});
  EXPECT_FALSE(r.is_error);
  auto p = pending_from_result(r);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->call.id, "c5");
  EXPECT_EQ(p->session, "s");
  EXPECT_EQ(p->reason, "tool \"echo\" is dangerous");
  EXPECT_TRUE(p->id.starts_with("approval-")) << p->id;
  EXPECT_GT(p->created_unix_ms, 0);
  EXPECT_TRUE(rec.sessions.empty());
}

}  // namespace
}  // namespace tooluse::exec
