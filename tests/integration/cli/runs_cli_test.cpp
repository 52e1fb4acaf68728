// `tooluse runs` on a SQLite store made here, the parts commands_cli_test leaves out: a failed
// run's error in show, the answer line, tool steps naming their tool, list --limit and the
// hidden MCP config, approving every waiting call at once, and resuming a run that is not there.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "support/cli_process.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::testing {
namespace {

class runs_cli : public ::testing::Test {
 protected:
  void SetUp() override {
    db = (dir.path() / "runs.db").string();
    auto s = store::open_store(db);
    ASSERT_TRUE(s) << s.error().message;
    store_ = std::move(*s);
  }
  std::shared_ptr<run_journal> make(const std::string& id, const std::string& question,
                                           json settings = json::object()) {
    auto j = store_->create_run({.id = id, .settings = std::move(settings)});
    EXPECT_TRUE(j) << j.error().message;
    EXPECT_TRUE((*j)->started({llm::message::user(question)}));
    return *j;
  }
  cli_outcome tooluse(std::vector<std::string> args) {
    args.push_back("--store");
    args.push_back(db);
    return run_tooluse(args, {}, dir.path());
  }
  temp_dir dir;
  std::string db;
  std::unique_ptr<store::run_store> store_;
};

TEST_F(runs_cli, show_gives_the_error_of_a_failed_run_and_the_steps_of_its_tools) {
  auto j = make("run-fail", "Add 2 and 2");
  auto call = tool_call::from_text("c1", "calculator", R"({"expression":"2+2"})");
  ASSERT_TRUE(j->tool_started(1, call));
  ASSERT_TRUE(j->tool_finished(1, call, tool_result::text("4"), std::chrono::milliseconds(3)));
  ASSERT_TRUE(j->failed(error{errc::http_error, "the provider said no"}));
  auto r = tooluse({"runs", "show", "run-fail"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("status: failed\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the provider said no"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" tool_started turn 1 call c1 calculator\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" tool_finished turn 1 call c1\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("answer: "), std::string::npos) << r.out;

  auto js = tooluse({"runs", "show", "run-fail", "--json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  json doc = json::parse(js.out);
  EXPECT_EQ(doc["status"], "failed");
  EXPECT_NE(doc["error"].get<std::string>().find("the provider said no"), std::string::npos);
  ASSERT_EQ(doc["steps"].size(), 4u);
  EXPECT_EQ(doc["steps"][1]["kind"], "tool_started");
  EXPECT_EQ(doc["steps"][1]["call_id"], "c1");
  EXPECT_EQ(doc["steps"][1]["turn"], 1);
  for (const auto& st : doc["steps"]) EXPECT_TRUE(st["ts_ms"].is_number_integer()) << st;
  std::vector<int> seqs;
  for (const auto& st : doc["steps"]) seqs.push_back(st["seq"]);
  EXPECT_TRUE(std::is_sorted(seqs.begin(), seqs.end()));
}

TEST_F(runs_cli, show_prints_the_answer_of_a_done_run) {
  auto j = make("run-ok", "6*7?");
  ASSERT_TRUE(j->answered(1, "42", {}));
  auto r = tooluse({"runs", "show", "run-ok"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "run: run-ok\nstatus: done\nquestion: 6*7?\nanswer: 42\nsteps:\n  1 started\n"
                   "  2 answered turn 1\n");
}

TEST_F(runs_cli, list_json_hides_the_mcp_config_and_limit_keeps_the_newest) {
  make("run-a", "first", {{"model", "m"}, {"mcp_config", {{"mcpServers", json::object()}}}});
  make("run-b", "second");
  make("run-c", "third");
  auto all = tooluse({"runs", "list", "--json"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  json runs = json::parse(all.out);
  ASSERT_EQ(runs.size(), 3u);
  for (const auto& r : runs) {
    EXPECT_FALSE(r["settings"].contains("mcp_config")) << r;
    for (const char* k : {"run_id", "status", "question", "answer", "error", "created_ms",
                          "updated_ms", "settings"})
      EXPECT_TRUE(r.contains(k)) << k << " " << r;
  }
  auto a = std::find_if(runs.begin(), runs.end(), [](const json& r) { return r["run_id"] == "run-a"; });
  ASSERT_NE(a, runs.end());
  EXPECT_EQ((*a)["settings"], json({{"model", "m"}}));
  EXPECT_EQ((*a)["status"], "running");

  auto two = tooluse({"runs", "list", "--json", "--limit", "2"});
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(json::parse(two.out).size(), 2u);
  auto text = tooluse({"runs", "list", "--limit", "1"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(std::count(text.out.begin(), text.out.end(), '\n'), 2) << text.out;  // header, run
}

TEST_F(runs_cli, a_long_question_is_cut_to_one_line_in_the_list) {
  make("run-long", "line one\nline two " + std::string(200, 'x'));
  auto r = tooluse({"runs", "list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 2) << r.out;
  EXPECT_LT(r.out.size(), 250u) << r.out;
  EXPECT_NE(r.out.find("\nrun-long  running  "), std::string::npos) << r.out;
}

TEST_F(runs_cli, approve_without_a_call_id_approves_every_waiting_call) {
  auto j = make("run-wait", "Clean up");
  ASSERT_TRUE(j->approval_waiting(1, tool_call::from_text("c1", "rm", R"({"path":"a"})"), "danger"));
  ASSERT_TRUE(j->approval_waiting(1, tool_call::from_text("c2", "rm", R"({"path":"b"})"), "danger"));
  auto waiting = tooluse({"runs", "show", "run-wait", "--json"});
  ASSERT_EQ(waiting.exit_code, 0) << waiting.err;
  json doc = json::parse(waiting.out);
  ASSERT_EQ(doc["waiting"].size(), 2u);
  EXPECT_EQ(doc["waiting"][0], json({{"call_id", "c1"}, {"name", "rm"},
                                     {"arguments", {{"path", "a"}}}, {"reason", "danger"}}));

  auto r = tooluse({"runs", "approve", "run-wait"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "approved run-wait c1\napproved run-wait c2\nresume the run with: tooluse runs "
                   "resume run-wait --store " + db + "\n");
  for (const char* c : {"c1", "c2"}) {
    auto d = store_->decision_for("run-wait", c);
    ASSERT_TRUE(d) << c;
    EXPECT_EQ(d->first, store::decision::approved);
    EXPECT_EQ(d->second, "");
  }
}

TEST_F(runs_cli, resuming_a_run_that_is_not_there_names_it) {
  // An unknown run id is bad input (exit 2), as docs/cli.md says.
  auto r = tooluse({"runs", "resume", "run-none"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "tooluse: no run run-none in the store " + db +
                       "; `tooluse runs list` shows the runs it has\n");
  auto approve = tooluse({"runs", "approve", "run-none"});
  EXPECT_EQ(approve.exit_code, 2);
  EXPECT_NE(approve.err.find("run-none"), std::string::npos) << approve.err;
}

TEST_F(runs_cli, list_prints_a_header_and_aligned_columns) {
  make("r1", "short");
  make("run-with-a-long-id", "longer");
  auto r = tooluse({"runs", "list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines;
  for (size_t at = 0, nl; (nl = r.out.find('\n', at)) != std::string::npos; at = nl + 1)
    lines.push_back(r.out.substr(at, nl - at));
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0].rfind("RUN                 STATUS   UPDATED (UTC)        QUESTION", 0), 0u)
      << r.out;
  // Every column starts where its header does.
  for (const char* column : {"STATUS", "UPDATED", "QUESTION"}) {
    size_t at = lines[0].find(column);
    for (size_t i = 1; i < lines.size(); ++i) {
      EXPECT_NE(lines[i][at], ' ') << column << "\n" << r.out;
      EXPECT_EQ(lines[i][at - 1], ' ') << column << "\n" << r.out;
    }
  }
}

TEST_F(runs_cli, read_commands_never_create_a_store) {
  auto typo = (dir.path() / "runz.db").string();
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"runs", "list", "--store", typo},
                                             {"runs", "show", "run-x", "--store", typo},
                                             {"runs", "resume", "run-x", "--store", typo},
                                             {"runs", "approve", "run-x", "--store", typo}}) {
    auto r = run_tooluse(args, {}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_EQ(r.err, "tooluse: no run store \"" + typo +
                         "\"; check the path, or store runs there with tooluse run --store " +
                         typo + "\n")
        << args[1];
    EXPECT_FALSE(std::filesystem::exists(typo)) << args[1];
  }
}

TEST_F(runs_cli, a_store_that_is_not_a_database_is_a_usage_error) {
  auto bad = dir.path() / "junk.db";
  {
    std::ofstream(bad) << std::string(2048, 'z');
  }
  auto r = run_tooluse({"runs", "list", "--store", bad.string()}, {}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(bad.string()), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tooluse::testing
