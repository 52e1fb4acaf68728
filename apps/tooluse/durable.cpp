#include "durable.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace tooluse::cli {
namespace {

// pausing_journal is a test hook: TOOLUSE_TEST_PAUSE_AT=KIND:N stops the process (SIGSTOP)
// right after the N-th step of KIND (model_request, model_response, tool_started,
// tool_finished, approval_waiting) is journaled, so a crash test can kill -9 it exactly at
// that boundary (tests/integration/durable).
class pausing_journal final : public run_journal {
 public:
  pausing_journal(std::shared_ptr<run_journal> inner, std::string kind, int n)
      : inner_(std::move(inner)), kind_(std::move(kind)), n_(n) {}
  std::string run_id() const override { return inner_->run_id(); }
  status started(const std::vector<llm::message>& h) override {
    return hit("started", inner_->started(h));
  }
  status model_request(int t) override { return hit("model_request", inner_->model_request(t)); }
  status model_response(int t, const llm::chat_response& r) override {
    return hit("model_response", inner_->model_response(t, r));
  }
  status tool_started(int t, const tool_call& c) override {
    return hit("tool_started", inner_->tool_started(t, c));
  }
  status tool_finished(int t, const tool_call& c, const tool_result& r,
                       std::chrono::milliseconds d) override {
    return hit("tool_finished", inner_->tool_finished(t, c, r, d));
  }
  status approval_waiting(int t, const tool_call& c, const std::string& reason) override {
    return hit("approval_waiting", inner_->approval_waiting(t, c, reason));
  }
  status answered(int t, const std::string& a, const llm::usage& u) override {
    return hit("answered", inner_->answered(t, a, u));
  }
  status failed(const error& e) override { return inner_->failed(e); }

 private:
  status hit(const char* kind, status s) {
    if (s && kind_ == kind && ++count_ == n_) ::raise(SIGSTOP);
    return s;
  }
  std::shared_ptr<run_journal> inner_;
  std::string kind_;
  int n_;
  std::atomic<int> count_{0};
};

std::string absolute(const std::string& p) {
  if (p.empty()) return p;
  std::error_code ec;
  auto a = std::filesystem::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

}  // namespace

void add_durable_flags(CLI::App& cmd, durable_flags& f) {
  cmd.add_option("--store", f.store,
                 "Journal the run in this store: a SQLite file or a postgresql:// URL "
                 "(default $TOOLUSE_STORE); see docs/durable-runs.md");
  cmd.add_option("--run-id", f.run_id, "Name the run (default: a fresh run-<hex> id)");
  cmd.add_option("--queue", f.queue,
                 "Send the run's tool calls to this queue of the PostgreSQL store, where "
                 "`tooluse worker` processes run them");
}

std::string store_location(const std::string& flag) {
  if (!flag.empty()) return flag;
  const char* e = std::getenv("TOOLUSE_STORE");
  return e ? e : "";
}

json settings_of(const model_flags& m, const registry_flags& r) {
  json s = {
      {"provider", m.provider},       {"base_url", m.base_url}, {"model", m.model},
      {"api_key_env", m.api_key_env}, {"system", m.system},     {"tool_choice", m.tool_choice},
      {"tool_format", m.tool_format}, {"stream", !m.no_stream}, {"no_parallel", m.no_parallel},
      {"strict", m.strict},           {"yes", m.yes},           {"root", absolute(r.root)},
      {"network", r.network},         {"shell", r.shell},       {"tools", r.tools},
      {"mcp", absolute(r.mcp)},       {"confirm", r.confirm}};
  if (r.python) s["python"] = true;
  if (m.max_turns) s["max_turns"] = *m.max_turns;
  if (m.max_tokens) s["max_tokens"] = *m.max_tokens;
  if (m.max_cost) s["max_cost"] = *m.max_cost;
  if (!r.mcp.empty()) {
    std::string text;
    if (read_text_file(r.mcp, text)) {
      auto config = parse_json(text);
      s["mcp_config"] = config ? std::move(*config) : json(json::value_t::discarded);
    }
  }
  return s;
}

void apply_settings(const json& s, model_flags& m, registry_flags& r) {
  auto str = [&](const char* k) { return s.value(k, std::string()); };
  m.provider = str("provider");
  m.base_url = str("base_url");
  m.model = str("model");
  m.api_key_env = str("api_key_env");
  m.system = str("system");
  m.tool_choice = str("tool_choice");
  m.tool_format = str("tool_format");
  m.no_stream = !s.value("stream", true);
  m.stream = !m.no_stream;
  m.no_parallel = s.value("no_parallel", false);
  m.strict = s.value("strict", false);
  m.yes = m.yes || s.value("yes", false);
  if (s.contains("max_turns")) m.max_turns = s["max_turns"].get<int>();
  if (s.contains("max_tokens")) m.max_tokens = s["max_tokens"].get<int>();
  if (s.contains("max_cost")) m.max_cost = s["max_cost"].get<double>();
  r.root = s.value("root", std::string("."));
  r.network = s.value("network", false);
  r.shell = s.value("shell", false);
  r.python = s.value("python", false);
  r.tools = str("tools");
  r.mcp = str("mcp");
  r.confirm = str("confirm");
}

status durable_run::open(const durable_flags& f, const model_flags& m, const registry_flags& r) {
  location_ = store_location(f.store);
  if (location_.empty()) {
    if (f.resume)
      return fail(errc::invalid_argument, "no store: pass --store or set TOOLUSE_STORE");
    return {};
  }
  auto s = store::open_store(location_);
  if (!s) return fail(s.error());
  store_ = std::move(*s);
  json settings = settings_of(m, r);
  if (!f.queue.empty()) settings["queue"] = f.queue;
  result<std::shared_ptr<run_journal>> j =
      f.resume ? store_->open_run(f.run_id)
               : store_->create_run({.id = f.run_id, .settings = settings});
  if (!j) return fail(j.error());
  journal_ = *j;
  id_ = journal_->run_id();
  if (f.resume) {
    auto snap = store_->snapshot(id_);
    if (!snap) return fail(snap.error());
    snapshot_ = std::move(*snap);
  }
  if (const char* p = std::getenv("TOOLUSE_TEST_PAUSE_AT"); p && *p) {
    std::string spec = p;
    auto colon = spec.find(':');
    int n = colon == std::string::npos ? 1 : std::atoi(spec.c_str() + colon + 1);
    journal_ = std::make_shared<pausing_journal>(journal_, spec.substr(0, colon), n);
  }
  std::cerr << "run: " << id_ << "\n" << std::flush;
  return {};
}

exec::approval_policy durable_run::approval(bool yes, tool_spinner* spinner) {
  auto ask = approval_prompt(yes, spinner);
  return [this, yes, ask](const exec::approval_request& req) {
    if (yes) return exec::approval_decision::approve();
    auto d = store_->decision_for(id_, req.call.id);
    if (d && d->first == store::decision::approved) return exec::approval_decision::approve();
    if (d && d->first == store::decision::denied)
      return exec::approval_decision::reject(d->second.empty() ? "the user denied running \"" +
                                                                     req.definition.name + "\""
                                                               : d->second);
    if (::isatty(STDIN_FILENO)) return ask(req);
    return exec::approval_decision::defer("waiting for approval");
  };
}

int durable_run::report_waiting(const run_result& r) const {
  std::string store_arg =
      location_.find(' ') == std::string::npos ? location_ : "'" + location_ + "'";
  std::cerr << "tooluse: the run " << id_ << " waits for approval of:\n";
  for (const auto& c : r.waiting)
    std::cerr << "  " << c.id << "  " << c.name << " " << one_line(dump_json(c.arguments)) << "\n";
  std::cerr << "approve (or deny) from any process with access to the store, then resume:\n"
            << "  tooluse runs approve " << id_ << " "
            << (r.waiting.size() == 1 ? r.waiting[0].id : "") << (r.waiting.size() == 1 ? " " : "")
            << "--store " << store_arg << "\n"
            << "  tooluse runs resume " << id_ << " --store " << store_arg << "\n";
  return exit_waiting;
}

}  // namespace tooluse::cli
