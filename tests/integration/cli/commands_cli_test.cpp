// The CLI's offline commands through the real binary: `schema check`, `parse-calls`,
// `render-tools`, `tools list|call` and `runs list|show|approve|deny` on a SQLite store made
// here: exact stdout, the error message on stderr, and the documented exit status of each.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>

#include "support/cli_process.hpp"
#include "tooluse/store/store.hpp"
#include "tooluse/textcall/text_format.hpp"

namespace tooluse::testing {
namespace {

class cli : public ::testing::Test {
 protected:
  // write puts `text` in a file of the test's folder and returns its path.
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir.path() / name) << text;
    return (dir.path() / name).string();
  }
  cli_outcome tooluse(const std::vector<std::string>& args, const std::string& in = "",
                      const std::map<std::string, std::string>& env = {}) {
    std::string stdin_path = in.empty() ? "/dev/null" : write("stdin.txt", in);
    return run_tooluse(args, env, dir.path(), stdin_path);
  }
  temp_dir dir;
};

TEST_F(cli, version_and_a_missing_command) {
  auto v = tooluse({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_TRUE(std::regex_match(v.out, std::regex("tooluse [0-9]+\\.[0-9]+\\.[0-9]+\n"))) << v.out;
  auto none = tooluse({});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("subcommand"), std::string::npos) << none.err;
}

TEST_F(cli, schema_check_exit_status_is_0_valid_1_invalid) {
  std::string schema = write("s.json", R"({"type":"object","properties":{
      "n":{"type":"integer","minimum":1},"tag":{"type":"string"}},"required":["n"]})");
  auto ok = tooluse({"schema", "check", schema, write("ok.json", R"({"n": 3})")});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "");
  auto bad = tooluse({"schema", "check", schema, write("bad.json", R"({"n": 0, "tag": 5})"),
                      "--root-name", "args"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.out.find("args.n: "), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("args.tag: "), std::string::npos) << bad.out;
  auto one = tooluse({"schema", "check", schema, write("bad.json", R"({"n": 0, "tag": 5})"),
                      "--max-errors", "1"});
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 1) << one.out;
}

TEST_F(cli, schema_check_json_reports_errors_and_coercions) {
  std::string schema = write("s.json", R"({"type":"object","properties":{"n":{"type":"integer"}}})");
  auto bad = tooluse({"schema", "check", schema, write("i.json", R"({"n": "x"})"), "--json"});
  EXPECT_EQ(bad.exit_code, 1);
  json report = json::parse(bad.out);
  EXPECT_EQ(report["valid"], false);
  ASSERT_EQ(report["errors"].size(), 1u);
  EXPECT_EQ(report["errors"][0]["path"], "arguments.n");
  EXPECT_EQ(report["errors"][0]["keyword"], "type");
  EXPECT_FALSE(report.contains("coercions"));

  auto fixed = tooluse({"schema", "check", schema, write("i2.json", R"({"n": "42"})"), "--coerce",
                        "--json"});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.err;
  json r2 = json::parse(fixed.out);
  EXPECT_EQ(r2["valid"], true);
  EXPECT_EQ(r2["value"], json({{"n", 42}}));
  ASSERT_EQ(r2["coercions"].size(), 1u);

  auto text = tooluse({"schema", "check", schema, write("i3.json", R"({"n": "7"})"), "--coerce"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(json::parse(text.out), json({{"n", 7}}));
  EXPECT_EQ(text.err.rfind("coerced arguments.n: \"7\" -> 7 (", 0), 0u) << text.err;
}

TEST_F(cli, schema_check_unreadable_or_invalid_input_is_usage_error_2) {
  std::string schema = write("s.json", R"({"type":"object"})");
  auto missing = tooluse({"schema", "check", "nope.json", schema});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "tooluse: schema \"nope.json\" cannot be read\n");
  auto broken = tooluse({"schema", "check", schema, write("b.json", "{\"a\": ")});
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_EQ(broken.err.rfind("tooluse: instance \"" + (dir.path() / "b.json").string() +
                                 "\" is not valid JSON: ",
                             0),
            0u)
      << broken.err;
  auto invalid = tooluse({"schema", "check", write("bad_schema.json", R"({"type": 12})"), schema});
  EXPECT_EQ(invalid.exit_code, 2);
  EXPECT_NE(invalid.err.find("bad_schema.json\" is invalid: "), std::string::npos) << invalid.err;
  auto stdin_instance = tooluse({"schema", "check", schema, "-"}, R"([1])");
  EXPECT_EQ(stdin_instance.exit_code, 1);  // an array is not an object
}

TEST_F(cli, parse_calls_prints_calls_content_and_reasoning_as_json) {
  const std::string text =
      "<think>plan</think>Sure.<tool_call>{\"name\": \"get_time\", \"arguments\": {\"tz\": "
      "\"CET\"}}</tool_call>";
  auto r = tooluse({"parse-calls"}, text);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  json out = json::parse(r.out);
  EXPECT_EQ(out, json::parse(R"({"calls":[{"id":"call_0","name":"get_time","arguments":{"tz":"CET"}}],
                                 "content":"Sure.","reasoning":"plan"})"));
  // Streamed byte by byte, the same answer.
  auto chunked = tooluse({"parse-calls", "--chunk", "1"}, text);
  EXPECT_EQ(chunked.exit_code, 0);
  EXPECT_EQ(json::parse(chunked.out), out);
}

TEST_F(cli, parse_calls_types_arguments_by_the_schema_and_shows_malformed_calls) {
  std::string tools = write("tools.json", R"([{"name": "get_weather", "parameters":
      {"type": "object", "properties": {"days": {"type": "integer"}, "zip": {"type": "string"}}}}])");
  auto typed = tooluse({"parse-calls", "--format", "qwen3-coder", "--schema", tools},
                       "<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</parameter>\n"
                       "<parameter=zip>\n01234\n</parameter>\n</function>\n</tool_call>");
  EXPECT_EQ(typed.exit_code, 0) << typed.err;
  EXPECT_EQ(json::parse(typed.out)["calls"][0]["arguments"],
            json::parse(R"({"days": 3, "zip": "01234"})"));

  auto bad = tooluse({"parse-calls", "--format", "hermes"},
                     R"(<tool_call>{"name": "f", "arguments": {"a": }}</tool_call>)");
  EXPECT_EQ(bad.exit_code, 0);
  json out = json::parse(bad.out);
  EXPECT_TRUE(out["calls"][0]["arguments"].is_null());
  EXPECT_NE(out["calls"][0]["raw_arguments"].get<std::string>().find(R"({"a": })"), std::string::npos)
      << out.dump();
  EXPECT_EQ(out["diagnostics"], json::array({"malformed call to \"f\": the call did not parse"}));

  auto reasoning = tooluse({"parse-calls", "--in-reasoning"}, "thinking</think>answer");
  EXPECT_EQ(json::parse(reasoning.out)["reasoning"], "thinking");
}

TEST_F(cli, parse_calls_and_render_tools_usage_errors) {
  auto fmt = tooluse({"parse-calls", "--format", "klingon"}, "x");
  EXPECT_EQ(fmt.exit_code, 2);
  EXPECT_EQ(fmt.err.rfind("tooluse: unknown tool-call format \"klingon\"; use one of: hermes, ", 0),
            0u)
      << fmt.err;
  auto unreadable = tooluse({"parse-calls", "--schema", "none.json"}, "x");
  EXPECT_EQ(unreadable.exit_code, 2);
  EXPECT_EQ(unreadable.err, "tooluse: cannot read none.json\n");
  std::string nameless = write("nameless.json", R"([{"description": "x"}])");
  auto n = tooluse({"render-tools", "--schema", nameless});
  EXPECT_EQ(n.exit_code, 2);
  EXPECT_EQ(n.err, "tooluse: " + nameless +
                       ": tool definition #0 has no \"name\" string; give each tool a name\n");
  auto required = tooluse({"render-tools", "--format", "hermes"});
  EXPECT_EQ(required.exit_code, 2);
  EXPECT_NE(required.err.find("--schema"), std::string::npos) << required.err;
}

TEST_F(cli, render_tools_prints_the_block_of_the_format) {
  const std::string defs = R"([{"name": "get_time", "description": "Time in a zone",
      "inputSchema": {"type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}}])";
  std::string path = write("tools.json", defs);
  auto tools = textcall::tools_from_json(json::parse(defs));
  ASSERT_TRUE(tools);
  for (auto f : {textcall::format::harmony, textcall::format::mistral, textcall::format::hermes}) {
    auto r = tooluse({"render-tools", "--format", std::string(textcall::to_string(f)), "--schema", path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, textcall::render_tools(f, *tools) + "\n") << textcall::to_string(f);
  }
}

TEST_F(cli, tools_list_json_gives_each_definition_and_text_gives_name_and_first_line) {
  auto j = tooluse({"tools", "list", "--json", "--tools", "calculator,datetime"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  json list = json::parse(j.out);
  ASSERT_EQ(list.size(), 2u);
  std::set<std::string> names;
  for (const auto& t : list) {
    names.insert(t["name"].get<std::string>());
    EXPECT_EQ(t["inputSchema"]["type"], "object");
    EXPECT_FALSE(t["description"].get<std::string>().empty());
  }
  EXPECT_EQ(names, (std::set<std::string>{"calculator", "datetime"}));
  auto text = tooluse({"tools", "list", "--tools", "calculator"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("calculator\n  ", 0), 0u) << text.out;
  EXPECT_EQ(std::count(text.out.begin(), text.out.end(), '\n'), 2) << text.out;
}

TEST_F(cli, tools_call_exit_status_is_0_ok_1_tool_error_2_usage) {
  auto ok = tooluse({"tools", "call", "calculator", "expression=6*7", "--json"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  json r = json::parse(ok.out);
  EXPECT_FALSE(r.value("isError", false));  // absent when false
  EXPECT_EQ(r["content"][0]["text"], "42");

  auto tool_error = tooluse({"tools", "call", "calculator", "expression=1/0"});
  EXPECT_EQ(tool_error.exit_code, 1);
  EXPECT_EQ(tool_error.out, "");
  EXPECT_FALSE(tool_error.err.empty());

  auto typo = tooluse({"tools", "call", "calculater", "expression=1"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_EQ(typo.err.rfind("tooluse: no tool named \"calculater\"; did you mean \"calculator\"?\n"
                           "available: ",
                           0),
            0u)
      << typo.err;

  auto gated = tooluse({"tools", "call", "web_search", "query=x"});
  EXPECT_EQ(gated.exit_code, 2);
  EXPECT_EQ(gated.err,
            "tooluse: tool \"web_search\" reaches the network and is off by default; add "
            "--network to enable it\n");

  auto mismatch = tooluse({"tools", "call", "calculator", R"({"expression": 5})"});
  EXPECT_EQ(mismatch.exit_code, 2);
  EXPECT_EQ(mismatch.err.rfind("tooluse: arguments for \"calculator\" do not match its schema:\n", 0),
            0u)
      << mismatch.err;
}

// A store with one answered run and one waiting for an approval.
std::string make_store(const std::filesystem::path& dir) {
  std::string path = (dir / "runs.db").string();
  auto s = store::open_store(path);
  EXPECT_TRUE(s) << s.error().message;
  auto done = (*s)->create_run({.id = "run-done", .settings = {{"model", "m"}}});
  EXPECT_TRUE(done);
  EXPECT_TRUE((*done)->started({llm::message::user("What is 6*7?")}));
  EXPECT_TRUE((*done)->answered(1, "42", {}));
  auto wait = (*s)->create_run({.id = "run-wait"});
  EXPECT_TRUE(wait);
  EXPECT_TRUE((*wait)->started({llm::message::user("Delete the logs")}));
  EXPECT_TRUE((*wait)->approval_waiting(1, tool_call::from_text("c1", "rm", R"({"path":"logs"})"),
                                        "dangerous"));
  return path;
}

TEST_F(cli, runs_list_and_show_read_a_store) {
  std::string db = make_store(dir.path());
  auto list = tooluse({"runs", "list", "--store", db, "--json"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  json runs = json::parse(list.out);
  ASSERT_EQ(runs.size(), 2u);
  std::map<std::string, json> by_id;
  for (const auto& r : runs) by_id[r["run_id"]] = r;
  EXPECT_EQ(by_id["run-done"]["status"], "done");
  EXPECT_EQ(by_id["run-done"]["answer"], "42");
  EXPECT_EQ(by_id["run-done"]["settings"]["model"], "m");
  EXPECT_EQ(by_id["run-wait"]["status"], "waiting");

  auto text = tooluse({"runs", "list"}, "", {{"TOOLUSE_STORE", db}});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("RUN       STATUS   UPDATED (UTC)        QUESTION\n", 0), 0u)
      << text.out;
  EXPECT_NE(text.out.find("\nrun-wait  waiting  "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\nrun-done  done     "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  Delete the logs\n"), std::string::npos) << text.out;

  auto show = tooluse({"runs", "show", "run-wait", "--store", db});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_EQ(show.out,
            "run: run-wait\nstatus: waiting\nquestion: Delete the logs\nsteps:\n"
            "  1 started\n  2 approval_waiting turn 1 call c1 rm\n"
            "waiting for approval: c1 rm {\"path\":\"logs\"}\n");

  auto js = tooluse({"runs", "show", "run-done", "--store", db, "--json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  json j = json::parse(js.out);
  EXPECT_EQ(j["answer"], "42");
  ASSERT_EQ(j["steps"].size(), 2u);
  EXPECT_EQ(j["steps"][1]["kind"], "answered");
  EXPECT_EQ(j["waiting"], json::array());
}

TEST_F(cli, runs_errors_name_the_run_and_say_what_to_do) {
  auto no_store = tooluse({"runs", "list"});
  EXPECT_EQ(no_store.exit_code, 2);
  EXPECT_EQ(no_store.err,
            "tooluse: no store: pass --store FILE|postgresql://... or set TOOLUSE_STORE\n");
  std::string db = make_store(dir.path());
  auto missing = tooluse({"runs", "show", "run-x", "--store", db});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "tooluse: no run run-x in the store " + db +
                             "; `tooluse runs list` shows the runs it has\n");
  auto nothing = tooluse({"runs", "approve", "run-done", "--store", db});
  EXPECT_EQ(nothing.exit_code, 1);
  EXPECT_EQ(nothing.err, "tooluse: the run run-done waits for no approval (it is done)\n");
  auto wrong = tooluse({"runs", "deny", "run-wait", "c9", "--store", db});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_EQ(wrong.err,
            "tooluse: the run run-wait does not wait for a decision on call "
            "\"c9\"; `tooluse runs show run-wait` lists the calls it waits for\n");
}

TEST_F(cli, runs_deny_records_the_message_for_the_model) {
  std::string db = make_store(dir.path());
  auto deny = tooluse({"runs", "deny", "run-wait", "--store", db, "--message", "not the logs"});
  EXPECT_EQ(deny.exit_code, 0) << deny.err;
  EXPECT_EQ(deny.err, "denied run-wait c1\nresume the run with: tooluse runs resume run-wait "
                      "--store " + db + "\n");
  auto s = store::open_store(db);
  ASSERT_TRUE(s);
  auto d = (*s)->decision_for("run-wait", "c1");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->first, store::decision::denied);
  EXPECT_EQ(d->second, "not the logs");
  auto again = tooluse({"runs", "approve", "run-wait", "c1", "--store", db});
  EXPECT_EQ(again.exit_code, 2);  // decided once: no call waits
}

}  // namespace
}  // namespace tooluse::testing
