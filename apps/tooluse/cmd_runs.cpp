// tooluse runs list|show|resume|approve|deny: durable runs in a store (docs/durable-runs.md).
#include <algorithm>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "conventions.hpp"
#include "run_command.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::cli {
namespace {

struct runs_flags {
  std::string store;
  std::string id;
  std::string call_id;
  std::string message;
  int limit = 50;
  bool json_output = false;
  bool yes = false;
  std::chrono::milliseconds timeout{0};
};

// open opens the store the runs commands read. They never create one: a SQLite file that is
// not there is a typo, not an empty store (`tooluse run --store FILE` creates it). A store that
// cannot be used is bad input (exit 2), as is a run id it does not have.
result<std::unique_ptr<store::run_store>> open(const runs_flags& f) {
  std::string loc = store_location(f.store);
  if (loc.empty())
    return fail(errc::invalid_argument,
                "no store: pass --store FILE|postgresql://... or set TOOLUSE_STORE");
  if (!store::is_postgres(loc) && !std::filesystem::exists(loc))
    return fail(errc::not_found, "no run store \"" + loc +
                                     "\"; check the path, or store runs there with tooluse run "
                                     "--store " +
                                     loc);
  return store::open_store(loc);
}

std::string when(std::int64_t ms) {
  std::time_t t = ms / 1000;
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", std::gmtime(&t));
  return buf;
}

json info_json(const store::run_info& i) {
  json settings = i.settings;
  settings.erase("mcp_config");
  return {{"run_id", i.id},
          {"status", to_string(i.status)},
          {"question", i.question},
          {"answer", i.answer},
          {"error", i.error},
          {"created_ms", i.created_ms},
          {"updated_ms", i.updated_ms},
          {"settings", settings}};
}

// print_table prints rows under a header, each column as wide as its widest cell (the last
// column is not padded), as kubectl and gh print lists.
void print_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], row[i].size());
    }
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i)
      line +=
          i + 1 == row.size() ? row[i] : row[i] + std::string(width[i] - row[i].size() + 2, ' ');
    std::cout << line << "\n";
  }
}

int list(const runs_flags& f) {
  auto s = open(f);
  if (!s) return usage_error(s.error().message);
  auto runs = (*s)->runs(f.limit);
  if (!runs) return report_error(exit_status::failed, runs.error().message);
  if (f.json_output) {
    json a = json::array();
    for (const auto& r : *runs) a.push_back(info_json(r));
    std::cout << dump_json(a, 2) << "\n";
    return 0;
  }
  if (runs->empty()) {
    std::cerr << "no runs in " << store_location(f.store) << "\n";
    return 0;
  }
  std::vector<std::vector<std::string>> rows = {{"RUN", "STATUS", "UPDATED (UTC)", "QUESTION"}};
  for (const auto& r : *runs)
    rows.push_back(
        {r.id, std::string(to_string(r.status)), when(r.updated_ms), one_line(r.question, 60)});
  print_table(rows);
  return 0;
}

int show(const runs_flags& f) {
  auto s = open(f);
  if (!s) return usage_error(s.error().message);
  auto info = (*s)->run(f.id);
  if (!info) return report(info.error());
  auto steps = (*s)->steps(f.id);
  auto waiting = (*s)->waiting(f.id);
  if (!steps || !waiting)
    return report_error(exit_status::failed,
                        "cannot read the journal of " + f.id + ": " +
                            (!steps ? steps.error() : waiting.error()).message);
  if (f.json_output) {
    json j = info_json(*info);
    j["steps"] = json::array();
    for (const auto& st : *steps)
      j["steps"].push_back({{"seq", st.seq},
                            {"kind", st.kind},
                            {"turn", st.turn},
                            {"call_id", st.call_id},
                            {"data", st.data},
                            {"ts_ms", st.ts_ms}});
    j["waiting"] = json::array();
    for (const auto& [c, reason] : *waiting)
      j["waiting"].push_back(
          {{"call_id", c.id}, {"name", c.name}, {"arguments", c.arguments}, {"reason", reason}});
    std::cout << dump_json(j, 2) << "\n";
    return 0;
  }
  std::cout << "run: " << info->id << "\nstatus: " << to_string(info->status)
            << "\nquestion: " << info->question << "\n";
  if (!info->answer.empty()) std::cout << "answer: " << info->answer << "\n";
  if (!info->error.empty()) std::cout << "error: " << info->error << "\n";
  std::cout << "steps:\n";
  for (const auto& st : *steps) {
    std::cout << "  " << st.seq << " " << st.kind;
    if (st.turn) std::cout << " turn " << st.turn;
    if (!st.call_id.empty()) std::cout << " call " << st.call_id;
    if (st.kind == "tool_started" || st.kind == "approval_waiting")
      std::cout << " " << st.data["call"].value("name", "");
    std::cout << "\n";
  }
  for (const auto& [c, reason] : *waiting)
    std::cout << "waiting for approval: " << c.id << " " << c.name << " "
              << one_line(dump_json(c.arguments)) << "\n";
  return 0;
}

int decide(const runs_flags& f, store::decision d) {
  auto s = open(f);
  if (!s) return usage_error(s.error().message);
  std::vector<std::string> calls;
  if (!f.call_id.empty()) {
    calls.push_back(f.call_id);
  } else {
    auto w = (*s)->waiting(f.id);
    if (!w) return report(w.error());
    if (w->empty()) {
      auto info = (*s)->run(f.id);
      if (!info) return report(info.error());
      return report_error(exit_status::failed, "the run " + f.id +
                                                   " waits for no approval (it is " +
                                                   std::string(to_string(info->status)) + ")");
    }
    for (const auto& [c, _] : *w) calls.push_back(c.id);
  }
  for (const auto& c : calls) {
    if (auto r = (*s)->decide(f.id, c, d, f.message); !r) return report(r.error());
    std::cerr << (d == store::decision::approved ? "approved " : "denied ") << f.id << " " << c
              << "\n";
  }
  std::cerr << "resume the run with: tooluse runs resume " << f.id << " --store "
            << store_location(f.store) << "\n";
  return 0;
}

int resume(const runs_flags& f) {
  auto s = open(f);
  if (!s) return usage_error(s.error().message);
  auto info = (*s)->run(f.id);
  if (!info) return report(info.error());
  run_request req;
  req.model.yes = f.yes;
  apply_settings(info->settings, req.model, req.tools);
  req.durable = {.store = store_location(f.store),
                 .run_id = f.id,
                 .queue = info->settings.value("queue", std::string()),
                 .resume = true};
  req.question = info->question;
  req.json_output = f.json_output;
  req.timeout = f.timeout;
  s->reset();  // run_agent opens its own connection
  return run_agent(req);
}

void setup_runs(CLI::App& app, app_state& state) {
  auto* runs = app.add_subcommand("runs", "Durable runs: list, show, resume, approve or deny them");
  runs->require_subcommand(1);
  runs->footer(
      "The store is --store FILE (SQLite) or --store postgresql://... (default $TOOLUSE_STORE).\n"
      "TOOLUSE_STORE_DURABILITY=full makes every step wait for its fsync (default: process).\n"
      "See docs/durable-runs.md.");
  auto f = std::make_shared<runs_flags>();
  auto add_store = [f](CLI::App* c) {
    c->add_option("--store", f->store, "The store: a SQLite file or a postgresql:// URL");
  };
  auto* l = runs->add_subcommand("list", "List runs, newest first");
  add_store(l);
  l->add_option("--limit", f->limit, "At most this many (default 50)");
  l->add_flag("--json", f->json_output, "Print a JSON array");
  l->callback([f, &state] { state.action = [f] { return list(*f); }; });
  auto* sh = runs->add_subcommand(
      "show", "Show a run: status, answer, its journal, calls waiting for approval");
  add_store(sh);
  complete_with(sh->add_option("id", f->id, "The run id")->required(), value_source::run_ids);
  sh->add_flag("--json", f->json_output, "Print JSON");
  sh->callback([f, &state] { state.action = [f] { return show(*f); }; });
  auto* re = runs->add_subcommand(
      "resume", "Finish a run: completed model requests and tool calls are not repeated");
  add_store(re);
  complete_with(re->add_option("id", f->id, "The run id")->required(), value_source::run_ids);
  re->add_flag("--json", f->json_output,
               "Print {answer, turns, tool_calls, usage, run_id} as JSON");
  add_yes_flag(*re, f->yes);
  add_duration_option(*re, "--timeout", f->timeout,
                      "Deadline for the rest of the run (90s, 5m), as for tooluse run: when it "
                      "passes, the calls in flight are cancelled and the command exits 1");
  re->footer(
      "Secrets (API keys) come from the environment again; everything else from the store.\n"
      "Exit status: 0 answered, 1 failed, 2 bad usage, 3 waits for an approval.");
  re->callback([f, &state] { state.action = [f] { return resume(*f); }; });
  for (const auto& entry : {std::pair{"approve", store::decision::approved},
                            std::pair{"deny", store::decision::denied}}) {
    // Named copies, not structured bindings: lambdas capture them (clang 14 cannot capture a
    // structured binding).
    const char* name = entry.first;
    const store::decision d = entry.second;
    auto* c = runs->add_subcommand(
        name, std::string(name == std::string("approve") ? "Approve" : "Deny") +
                  " a call the run waits for (all of them without CALL_ID)");
    add_store(c);
    complete_with(c->add_option("id", f->id, "The run id")->required(), value_source::run_ids);
    complete_with(
        c->add_option("call_id", f->call_id, "The model's tool-call id (see `tooluse runs show`)"),
        value_source::waiting_calls);
    if (d == store::decision::denied)
      c->add_option("--message", f->message,
                    "What the model is told (default: the user denied it)");
    c->callback([f, d, &state] { state.action = [f, d] { return decide(*f, d); }; });
  }
}

const command_registrar runs_registrar(32, &setup_runs);

}  // namespace
}  // namespace tooluse::cli
