// Runs of the durable run store (tooluse/store/store.hpp) as the trace viewer shows them: each
// journal step becomes the event a --trace file would hold for it, so the same page shows a
// stored run and a trace file alike, and follows a run that is still being journaled.
#include <algorithm>
#include <map>
#include <mutex>

#include "agent_setup.hpp"
#include "tooluse/tools/tool_result.hpp"
#include "trace_server.hpp"

namespace tooluse::cli {

namespace {

// shell_word quotes a word for a POSIX shell when it needs it.
std::string shell_word(const std::string& w) {
  if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789._/:@%+=-") == std::string::npos)
    return w;
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

json stored_run_events(
    const store::run_info& info, const std::vector<store::step>& steps, const std::string& location,
    const std::map<std::string, std::pair<store::decision, std::string>>& decisions) {
  std::vector<json> out;
  std::map<int, std::int64_t> requested;  // turn -> ts of its model request
  auto call_fields = [](json& e, const json& call) {
    e["id"] = call.value("id", "");
    e["name"] = call.value("name", "");
    json args = call.value("arguments", json());
    e["arguments"] = args.is_null() ? json(call.value("raw_arguments", "")) : args;
  };
  for (const auto& st : steps) {
    const json& d = st.data;
    json e = {{"turn", st.turn}, {"ts", st.ts_ms}};
    if (st.kind == "started") {
      // The header: the question (the last user message) and the run's settings.
      std::string question = info.question;
      for (const auto& m : d.value("messages", json::array()))
        if (m.value("role", "") == "user") {
          question.clear();
          for (const auto& p : m.value("content", json::array())) question += p.value("text", "");
        }
      json tools = json::array();
      const std::string names = info.settings.value("tools", "");
      for (size_t at = 0; at < names.size();) {
        auto comma = names.find(',', at);
        if (comma == std::string::npos) comma = names.size();
        if (comma > at) tools.push_back(names.substr(at, comma - at));
        at = comma + 1;
      }
      e = {{"event", "run"},
           {"run_id", info.id},
           {"question", question},
           {"provider", info.settings.value("provider", "")},
           {"model", info.settings.value("model", "")},
           {"tools", tools},
           {"ts", st.ts_ms}};
    } else if (st.kind == "model_request") {
      e["event"] = "model_request";
      requested[st.turn] = st.ts_ms;
    } else if (st.kind == "model_response") {
      e["event"] = "model_response";
      e["finish"] = d.value("finish", "");
      e["usage"] = d.value("usage", json::object());
      e["message"] = d.value("message", json::object());
      if (auto it = requested.find(st.turn); it != requested.end()) e["ms"] = st.ts_ms - it->second;
    } else if (st.kind == "tool_started") {
      e["event"] = "tool_call";
      call_fields(e, d.value("call", json::object()));
    } else if (st.kind == "tool_finished") {
      e["event"] = "tool_result";
      call_fields(e, d.value("call", json::object()));
      auto r = result_from_json(d.value("result", json::object()));
      e["result"] = r ? r->all_text() : dump_json(d.value("result", json()));
      e["is_error"] = r ? r->is_error : true;
      e["ms"] = d.value("ms", 0);
    } else if (st.kind == "approval_waiting") {
      e["event"] = "approval_waiting";
      call_fields(e, d.value("call", json::object()));
      e["reason"] = d.value("reason", "");
      // How the person answered (tooluse runs approve|deny), once they have.
      if (auto it = decisions.find(e["id"].get<std::string>());
          it != decisions.end() && it->second.first != store::decision::none) {
        e["decision"] = it->second.first == store::decision::approved ? "approved" : "denied";
        e["decision_message"] = it->second.second;
      }
      // What unblocks the run, as `tooluse run` prints it when it stops to wait.
      if (!location.empty()) {
        const std::string store = " --store " + shell_word(location);
        e["unblock"] = "tooluse runs approve " + shell_word(info.id) + " " +
                       shell_word(e["id"].get<std::string>()) + store + " && tooluse runs resume " +
                       shell_word(info.id) + store;
      }
    } else if (st.kind == "answered") {
      e["event"] = "answer";
      e["text"] = d.value("answer", "");
      e["usage"] = d.value("usage", json::object());
    } else if (st.kind == "failed") {
      e["event"] = "error";
      e["text"] = d.value("error", "");
    } else {
      continue;
    }
    out.push_back(std::move(e));
  }
  return out;
}

namespace {

class store_source : public run_source {
 public:
  store_source(std::unique_ptr<store::run_store> store, std::vector<std::string> ids)
      : store_(std::move(store)), ids_(std::move(ids)) {}

  std::vector<run_info> runs() override {
    std::vector<run_info> out;
    auto title = [](const store::run_info& r) {
      return r.id + " (" + std::string(store::to_string(r.status)) + ") " +
             one_line(r.question, 60);
    };
    if (!ids_.empty()) {
      for (const auto& id : ids_)
        if (auto r = store_->run(id)) out.push_back({id, title(*r)});
      return out;
    }
    if (auto rs = store_->runs(100))
      for (const auto& r : *rs) out.push_back({r.id, title(r)});
    return out;
  }

  result<std::vector<json>> events(const std::string& id, std::size_t from) override {
    if (!ids_.empty() && std::find(ids_.begin(), ids_.end(), id) == ids_.end())
      return fail(errc::not_found, "no run \"" + id + "\"");
    auto info = store_->run(id);
    if (!info) return fail(info.error());
    auto steps = store_->steps(id);
    if (!steps) return fail(steps.error());
    std::map<std::string, std::pair<store::decision, std::string>> decisions;
    for (const auto& st : *steps) {
      if (st.kind != "approval_waiting") continue;
      const std::string call = st.data.value("call", json::object()).value("id", st.call_id);
      if (!decisions.count(call))
        if (auto d = store_->decision_for(id, call)) decisions[call] = *d;
    }
    json all = stored_run_events(*info, *steps, store_->location(), decisions);
    std::vector<json> out;
    for (std::size_t i = from; i < all.size(); ++i) out.push_back(all[i]);
    return out;
  }

 private:
  std::unique_ptr<store::run_store> store_;  // thread-safe: its calls are serialised
  std::vector<std::string> ids_;
};

class combined : public run_source {
 public:
  explicit combined(std::vector<std::shared_ptr<run_source>> sources)
      : sources_(std::move(sources)) {}
  std::vector<run_info> runs() override {
    std::vector<run_info> out;
    for (auto& s : sources_)
      for (auto& r : s->runs()) out.push_back(std::move(r));
    return out;
  }
  result<std::vector<json>> events(const std::string& id, std::size_t from) override {
    for (auto& s : sources_) {
      auto e = s->events(id, from);
      if (e || e.error().code != errc::not_found) return e;
    }
    return fail(errc::not_found, "no run \"" + id + "\"");
  }

 private:
  std::vector<std::shared_ptr<run_source>> sources_;
};

}  // namespace

std::shared_ptr<run_source> store_runs_source(std::unique_ptr<store::run_store> store,
                                              std::vector<std::string> ids) {
  return std::make_shared<store_source>(std::move(store), std::move(ids));
}

std::shared_ptr<run_source> combined_source(std::vector<std::shared_ptr<run_source>> sources) {
  if (sources.size() == 1) return sources.front();
  return std::make_shared<combined>(std::move(sources));
}

}  // namespace tooluse::cli
