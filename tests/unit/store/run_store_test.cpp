// The run store's rules beyond the happy path of store_test.cpp: replaying a journal (lost
// results, a restarted history, usage summed over turns), statuses through failure and resume,
// two journals of one run, listing, approvals waiting and decided, opening errors (empty
// location, bad durability, a schema newer than this tooluse). SQLite throughout; PostgreSQL
// where its behaviour is its own (schema version, the run lock across connections).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>

#include "store/db.hpp"
#include "store/schema.hpp"
#include "support/test_support.hpp"
#include "tooluse/store/store.hpp"
#include "unit/store/store_pg.hpp"

namespace tooluse::testing {
namespace {

using store::run_status;

struct sqlite_store {
  temp_dir dir;
  std::string path = (dir.path() / "runs.db").string();
  std::unique_ptr<store::run_store> s;
  sqlite_store() {
    auto r = store::open_store(path);
    if (!r) throw std::runtime_error(r.error().message);
    s = std::move(*r);
  }
  store::run_store* operator->() { return s.get(); }
};

llm::chat_response reply(std::vector<tool_call> calls, std::int64_t in = 0, std::int64_t out = 0) {
  llm::chat_response r;
  r.reply.role = llm::role::assistant;
  r.reply.tool_calls = std::move(calls);
  r.usage.input_tokens = in;
  r.usage.output_tokens = out;
  return r;
}

// A scoped environment variable.
struct env_var {
  std::string name;
  env_var(std::string n, const char* value) : name(std::move(n)) { ::setenv(name.c_str(), value, 1); }
  ~env_var() { ::unsetenv(name.c_str()); }
};

TEST(store_runs, an_empty_id_gets_a_fresh_one_and_settings_are_kept) {
  sqlite_store s;
  auto j = s->create_run({.settings = {{"model", "m"}, {"tools", {"a", "b"}}}});
  ASSERT_TRUE(j) << j.error().message;
  std::string id = (*j)->run_id();
  EXPECT_EQ(id.rfind("run-", 0), 0u);
  auto info = s->run(id);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->status, run_status::running);
  EXPECT_EQ(info->settings, json::parse(R"({"model":"m","tools":["a","b"]})"));
  EXPECT_GT(info->created_ms, 0);
  EXPECT_EQ(info->created_ms, info->updated_ms);
}

TEST(store_runs, a_taken_id_says_how_to_pick_another_or_resume) {
  sqlite_store s;
  ASSERT_TRUE(s->create_run({.id = "r1"}));
  auto again = s->create_run({.id = "r1"});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, errc::already_exists);
  EXPECT_EQ(again.error().message, "the run r1 exists already in " + s.path +
                                       "; pick another --run-id or resume it with `tooluse runs "
                                       "resume r1`");
}

TEST(store_runs, a_missing_run_is_not_found_for_every_reader) {
  sqlite_store s;
  const std::string want =
      "no run ghost in the store " + s.path + "; `tooluse runs list` shows the runs it has";
  auto open = s->open_run("ghost");
  ASSERT_FALSE(open);
  EXPECT_EQ(open.error().code, errc::not_found);
  EXPECT_EQ(open.error().message, want);
  auto snap = s->snapshot("ghost");
  ASSERT_FALSE(snap);
  EXPECT_EQ(snap.error().message, want);
  auto st = s->steps("ghost");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, errc::not_found);
  // A run nobody journaled waits for nothing and has no decisions.
  auto w = s->waiting("ghost");
  ASSERT_TRUE(w);
  EXPECT_TRUE(w->empty());
  EXPECT_EQ(s->decision_for("ghost", "c")->first, store::decision::none);
}

TEST(store_runs, a_failed_run_keeps_its_error_until_it_is_resumed_and_answers) {
  sqlite_store s;
  auto j = s->create_run({.id = "f"});
  ASSERT_TRUE(j);
  ASSERT_TRUE((*j)->started({llm::message::user("why?")}));
  ASSERT_TRUE((*j)->failed({errc::timeout, "the model did not answer in 60 s"}));
  auto info = s->run("f");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->status, run_status::failed);
  EXPECT_EQ(info->error, "the model did not answer in 60 s");
  EXPECT_EQ(info->question, "why?");
  auto st = s->steps("f");
  ASSERT_TRUE(st);
  ASSERT_EQ(st->size(), 2u);
  EXPECT_EQ(st->back().kind, "failed");
  EXPECT_EQ(st->back().data["code"], std::string(to_string(errc::timeout)));
  j->reset();

  auto j2 = s->open_run("f");
  ASSERT_TRUE(j2) << j2.error().message;
  EXPECT_EQ(s->run("f")->status, run_status::running);
  ASSERT_TRUE((*j2)->model_request(1));
  ASSERT_TRUE((*j2)->answered(1, "because", {}));
  info = s->run("f");
  EXPECT_EQ(info->status, run_status::done);
  EXPECT_EQ(info->error, "");  // a step that is not a failure clears it
  EXPECT_EQ(info->answer, "because");
  EXPECT_EQ(s->steps("f")->back().seq, 4);  // the resumed journal continued the sequence
}

TEST(store_runs, opening_a_done_run_leaves_it_done) {
  sqlite_store s;
  auto j = s->create_run({.id = "d"});
  ASSERT_TRUE(j);
  ASSERT_TRUE((*j)->answered(1, "42", {}));
  j->reset();
  ASSERT_TRUE(s->open_run("d"));
  EXPECT_EQ(s->run("d")->status, run_status::done);
}

TEST(store_runs, a_second_journal_of_the_run_cannot_write_a_step_the_first_wrote) {
  sqlite_store s;
  auto a = s->create_run({.id = "twice"});
  ASSERT_TRUE(a);
  auto b = s->open_run("twice");  // same connection: shares the lock, starts at step 1 too
  ASSERT_TRUE(b) << b.error().message;
  ASSERT_TRUE((*a)->model_request(1));
  auto w = (*b)->model_request(1);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, errc::already_exists);
  EXPECT_EQ(w.error().message,
            "run twice: step 1 was written by another process; one process at a time may run "
            "or resume a run");
  EXPECT_EQ(s->steps("twice")->size(), 1u);
}

TEST(store_runs, a_call_whose_result_was_lost_is_answered_with_an_error_on_replay) {
  sqlite_store s;
  auto j = s->create_run({.id = "lost"});
  ASSERT_TRUE(j);
  ASSERT_TRUE((*j)->started({llm::message::user("go")}));
  auto c1 = tool_call::from_text("c1", "a", "{}");
  auto c2 = tool_call::from_text("c2", "b", "{}");
  ASSERT_TRUE((*j)->model_response(1, reply({c1, c2}, 5, 1)));
  ASSERT_TRUE((*j)->tool_finished(1, c1, tool_result::text("A"), std::chrono::milliseconds(7)));
  // c2's result never got journaled, yet the model was asked again (turn 2).
  ASSERT_TRUE((*j)->model_response(2, reply({}, 8, 2)));
  auto snap = s->snapshot("lost");
  ASSERT_TRUE(snap) << snap.error().message;
  ASSERT_EQ(snap->history.size(), 5u);  // user, assistant, two tool messages, assistant
  EXPECT_EQ(snap->history[2].tool_call_id, "c1");
  EXPECT_EQ(snap->history[2].text(), "A");
  EXPECT_FALSE(snap->history[2].is_error);
  EXPECT_EQ(snap->history[3].tool_call_id, "c2");
  EXPECT_TRUE(snap->history[3].is_error);
  EXPECT_EQ(snap->history[3].text(), "the call's result was lost");
  EXPECT_EQ(snap->turns, 2);
  EXPECT_EQ(snap->usage.input_tokens, 13);  // summed over the model responses
  EXPECT_EQ(snap->usage.output_tokens, 3);
  EXPECT_TRUE(snap->results.empty());  // results of closed turns are in the history
  ASSERT_EQ(snap->tool_calls.size(), 1u);
  EXPECT_EQ(snap->tool_calls[0].duration, std::chrono::milliseconds(7));
  EXPECT_EQ(snap->tool_calls[0].turn, 1);
  EXPECT_FALSE(snap->done);
}

TEST(store_runs, a_second_started_step_replaces_the_history) {
  sqlite_store s;
  auto j = s->create_run({.id = "restart"});
  ASSERT_TRUE(j);
  ASSERT_TRUE((*j)->started({llm::message::user("first")}));
  ASSERT_TRUE((*j)->started({llm::message::system("s"), llm::message::user("second")}));
  auto snap = s->snapshot("restart");
  ASSERT_TRUE(snap);
  ASSERT_EQ(snap->history.size(), 2u);
  EXPECT_EQ(snap->history[1].text(), "second");
  EXPECT_EQ(s->run("restart")->question, "second");
}

TEST(store_runs, a_journal_step_with_a_damaged_message_fails_the_snapshot) {
  sqlite_store s;
  auto j = s->create_run({.id = "bad"});
  ASSERT_TRUE(j);
  ASSERT_TRUE((*j)->started({llm::message::user("q")}));
  auto db = store::detail::open_sqlite(s.path, store::durability::process);
  ASSERT_TRUE(db);
  ASSERT_TRUE((*db)->exec("UPDATE tooluse_steps SET data = $1 WHERE run_id = 'bad'",
                          {R"({"messages":[{"role":"wizard"}]})"}));
  auto snap = s->snapshot("bad");
  ASSERT_FALSE(snap);
  EXPECT_EQ(snap.error().code, errc::parse_error);
  EXPECT_EQ(snap.error().message, "store: a journaled message has the unknown role \"wizard\"");
}

TEST(store_runs, the_model_response_step_records_the_finish_reason_and_usage) {
  sqlite_store s;
  auto j = s->create_run({.id = "fin"});
  ASSERT_TRUE(j);
  auto r = reply({}, 3, 4);
  r.reply.content = {llm::content_part::text_part("done")};
  r.finish = llm::finish_reason::length;
  ASSERT_TRUE((*j)->model_response(1, r));
  auto st = s->steps("fin");
  ASSERT_TRUE(st);
  ASSERT_EQ(st->size(), 1u);
  EXPECT_EQ(st->at(0).turn, 1);
  EXPECT_EQ(st->at(0).data["finish"], std::string(llm::to_string(llm::finish_reason::length)));
  EXPECT_EQ(st->at(0).data["usage"]["output_tokens"], 4);
  EXPECT_EQ(st->at(0).data["message"]["content"][0]["text"], "done");
}

TEST(store_runs, runs_lists_newest_first_up_to_the_limit) {
  sqlite_store s;
  for (const char* id : {"old", "mid", "new"}) ASSERT_TRUE(s->create_run({.id = id}));
  auto db = store::detail::open_sqlite(s.path, store::durability::process);
  ASSERT_TRUE(db);
  for (auto [id, ms] : {std::pair{"old", "1000"}, {"mid", "2000"}, {"new", "3000"}})
    ASSERT_TRUE((*db)->exec("UPDATE tooluse_runs SET created_ms = $2 WHERE id = $1", {id, ms}));
  auto all = s->runs();
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 3u);
  EXPECT_EQ((*all)[0].id, "new");
  EXPECT_EQ((*all)[1].id, "mid");
  EXPECT_EQ((*all)[2].id, "old");
  EXPECT_EQ((*all)[2].created_ms, 1000);
  auto two = s->runs(2);
  ASSERT_TRUE(two);
  ASSERT_EQ(two->size(), 2u);
  EXPECT_EQ((*two)[1].id, "mid");
}

TEST(store_approvals, waiting_lists_the_undecided_calls_in_order_while_the_run_waits) {
  sqlite_store s;
  auto j = s->create_run({.id = "w"});
  ASSERT_TRUE(j);
  auto a = tool_call::from_text("a", "rm", R"({"path":"/a"})");
  auto b = tool_call::from_text("b", "rm", R"({"path":"/b"})");
  ASSERT_TRUE((*j)->approval_waiting(1, a, "dangerous"));
  ASSERT_TRUE((*j)->approval_waiting(1, b, "dangerous"));
  ASSERT_TRUE((*j)->approval_waiting(1, b, "asked again"));  // recorded once
  auto w = s->waiting("w");
  ASSERT_TRUE(w);
  ASSERT_EQ(w->size(), 2u);
  EXPECT_EQ((*w)[0].first.id, "a");
  EXPECT_EQ((*w)[0].first.arguments["path"], "/a");
  EXPECT_EQ((*w)[1].first.id, "b");
  EXPECT_EQ((*w)[1].second, "dangerous");
  EXPECT_EQ(s->steps("w")->size(), 3u);  // the step is journaled each time

  ASSERT_TRUE(s->decide("w", "a", store::decision::approved));
  w = s->waiting("w");
  ASSERT_EQ(w->size(), 1u);
  EXPECT_EQ((*w)[0].first.id, "b");
  auto d = s->decision_for("w", "a");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->first, store::decision::approved);
  EXPECT_EQ(d->second, "");
  EXPECT_EQ(s->decision_for("w", "b")->first, store::decision::none);

  // Resumed, the run is running again: nothing is listed as waiting any more.
  j->reset();
  ASSERT_TRUE(s->open_run("w"));
  EXPECT_TRUE(s->waiting("w")->empty());
}

TEST(store_approvals, deciding_a_call_the_run_does_not_wait_for_names_the_run_and_call) {
  sqlite_store s;
  ASSERT_TRUE(s->create_run({.id = "r"}));
  auto d = s->decide("r", "c1", store::decision::denied, "no");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, errc::not_found);
  EXPECT_EQ(d.error().message,
            "the run r does not wait for a decision on call \"c1\"; `tooluse runs show r` lists "
            "the calls it waits for");
}

TEST(store_open, an_empty_location_says_how_to_give_one) {
  auto s = store::open_store("");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::invalid_argument);
  EXPECT_EQ(s.error().message,
            "no store given; pass --store FILE (SQLite) or --store postgresql://... or set "
            "TOOLUSE_STORE");
}

TEST(store_open, durability_comes_from_the_options_then_the_environment) {
  EXPECT_EQ(*store::detail::resolve_durability(store::durability::full), store::durability::full);
  EXPECT_EQ(*store::detail::resolve_durability(std::nullopt), store::durability::process);
  {
    env_var e("TOOLUSE_STORE_DURABILITY", "full");
    EXPECT_EQ(*store::detail::resolve_durability(std::nullopt), store::durability::full);
    EXPECT_EQ(*store::detail::resolve_durability(store::durability::process),
              store::durability::process);
  }
  env_var e("TOOLUSE_STORE_DURABILITY", "fsync");
  auto d = store::detail::resolve_durability(std::nullopt);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().message,
            "TOOLUSE_STORE_DURABILITY is \"fsync\"; set it to \"process\" (the default) or "
            "\"full\"");
  temp_dir dir;
  auto s = store::open_store((dir.path() / "x.db").string());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::invalid_argument);
  EXPECT_TRUE(store::open_store((dir.path() / "x.db").string(),
                                {.durability = store::durability::full}));
}

TEST(store_open, a_schema_newer_than_this_tooluse_is_refused) {
  temp_dir dir;
  std::string path = (dir.path() / "runs.db").string();
  ASSERT_TRUE(store::open_store(path));
  auto db = store::detail::open_sqlite(path, store::durability::process);
  ASSERT_TRUE(db);
  auto v = (*db)->exec("SELECT value FROM tooluse_meta WHERE key = 'schema_version'");
  ASSERT_TRUE(v);
  ASSERT_EQ(v->size(), 1u);
  EXPECT_EQ((*v)[0][0], std::to_string(store::detail::schema_version_known()));
  ASSERT_TRUE((*db)->exec("UPDATE tooluse_meta SET value = '99' WHERE key = 'schema_version'"));
  auto s = store::open_store(path);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::unsupported);
  EXPECT_EQ(s.error().message, "the store \"" + path +
                                   "\" has schema version 99, newer than this tooluse (" +
                                   std::to_string(store::detail::schema_version_known()) +
                                   "); upgrade tooluse");
}

TEST(store_open, a_file_that_is_not_a_database_is_an_io_error_naming_it) {
  temp_dir dir;
  auto path = dir.path() / "notes.db";
  std::ofstream(path) << std::string(4096, 'x');
  auto s = store::open_store(path.string());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::io_error);
  EXPECT_NE(s.error().message.find(path.string()), std::string::npos) << s.error().message;
}

TEST(store_open, an_in_memory_store_runs_without_a_lock_file) {
  auto s = store::open_store(":memory:");
  ASSERT_TRUE(s) << s.error().message;
  auto j = (*s)->create_run({.id = "m"});
  ASSERT_TRUE(j) << j.error().message;
  ASSERT_TRUE((*j)->answered(1, "ok", {}));
  EXPECT_EQ((*s)->run("m")->answer, "ok");
  EXPECT_EQ((*s)->location(), ":memory:");
}

TEST(store_names, statuses_and_locations) {
  EXPECT_EQ(store::to_string(run_status::running), "running");
  EXPECT_EQ(store::to_string(run_status::waiting), "waiting");
  EXPECT_EQ(store::to_string(run_status::done), "done");
  EXPECT_EQ(store::to_string(run_status::failed), "failed");
  EXPECT_TRUE(store::is_postgres("postgres://h/db"));
  EXPECT_FALSE(store::is_postgres("./postgresql://x"));
  EXPECT_EQ(store::detail::redact_url("postgresql://u:secret@h:5432/db"),
            "postgresql://u:***@h:5432/db");
  EXPECT_EQ(store::detail::redact_url("postgresql://u@h/db"), "postgresql://u@h/db");
  EXPECT_EQ(store::detail::redact_url("post gres://u:pw@h"), "(a connection URL that does not parse)");
}

// PostgreSQL: the queue's tables come with the schema (versions 2 and 3 are PostgreSQL only),
// and the run lock is a session lock another connection cannot take.
TEST(store_pg, the_schema_has_every_version_and_the_run_lock_holds_across_connections) {
  auto& pg = shared_postgres();
  TOOLUSE_REQUIRE_POSTGRES(pg);
  std::string url = pg.url("runlock");
  auto a = store::open_store(url);
  ASSERT_TRUE(a) << a.error().message;
  auto b = store::open_store(url);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ((*a)->location(), url);  // no password to hide

  auto db = store::detail::open_postgres(url, store::durability::process);
  ASSERT_TRUE(db) << db.error().message;
  auto v = (*db)->exec("SELECT value FROM tooluse_meta WHERE key = 'schema_version'");
  ASSERT_TRUE(v);
  EXPECT_EQ((*v)[0][0], std::to_string(store::detail::schema_version_known()));
  EXPECT_TRUE((*db)->exec("SELECT count(*) FROM tooluse_queue"));

  auto j = (*a)->create_run({.id = "held"});
  ASSERT_TRUE(j) << j.error().message;
  auto other = (*b)->open_run("held");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().code, errc::already_exists);
  EXPECT_NE(other.error().message.find("is being run by another process"), std::string::npos);
  j->reset();
  auto now = (*b)->open_run("held");
  EXPECT_TRUE(now) << now.error().message;
}

TEST(store_pg, replay_and_a_second_writer_behave_as_on_sqlite) {
  auto& pg = shared_postgres();
  TOOLUSE_REQUIRE_POSTGRES(pg);
  auto s = store::open_store(pg.url("replay"));
  ASSERT_TRUE(s) << s.error().message;
  auto a = (*s)->create_run({.id = "p"});
  ASSERT_TRUE(a);
  auto b = (*s)->open_run("p");
  ASSERT_TRUE(b);
  ASSERT_TRUE((*a)->started({llm::message::user("go")}));
  auto w = (*b)->model_request(1);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, errc::already_exists);
  auto c1 = tool_call::from_text("c1", "a", "{}");
  ASSERT_TRUE((*a)->model_response(1, reply({c1}, 2, 1)));
  ASSERT_TRUE((*a)->model_response(2, reply({}, 3, 1)));
  auto snap = (*s)->snapshot("p");
  ASSERT_TRUE(snap) << snap.error().message;
  ASSERT_EQ(snap->history.size(), 4u);
  EXPECT_EQ(snap->history[2].text(), "the call's result was lost");
  EXPECT_EQ(snap->usage.input_tokens, 5);
  ASSERT_TRUE((*a)->failed({errc::io_error, "gone"}));
  EXPECT_EQ((*s)->run("p")->status, run_status::failed);
  EXPECT_EQ((*s)->run("p")->error, "gone");
}

TEST(store_pg, a_newer_schema_is_refused) {
  auto& pg = shared_postgres();
  TOOLUSE_REQUIRE_POSTGRES(pg);
  std::string url = pg.url("newer");
  ASSERT_TRUE(store::open_store(url));
  auto db = store::detail::open_postgres(url, store::durability::process);
  ASSERT_TRUE(db);
  ASSERT_TRUE((*db)->exec("UPDATE tooluse_meta SET value = '7' WHERE key = 'schema_version'"));
  auto s = store::open_store(url);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::unsupported);
  EXPECT_NE(s.error().message.find("has schema version 7, newer than this tooluse"),
            std::string::npos)
      << s.error().message;
}

}  // namespace
}  // namespace tooluse::testing
