// One line of the trace viewer's run list: what a run's events say about it (when it started,
// where it is, its model, tokens, cost and calls), the same for a trace file and a stored run.
#include <set>

#include "trace_server.hpp"

namespace tooluse::cli {

json run_summary(const run_info& run, const std::vector<json>& events) {
  json s = {{"id", run.id},          {"title", run.title}, {"question", ""},
            {"provider", ""},        {"model", ""},        {"status", "running"},
            {"started", nullptr},    {"ms", 0},            {"requests", 0},
            {"input_tokens", 0},     {"output_tokens", 0}, {"cost", 0.0},
            {"tool_calls", 0},       {"errors", 0}};
  double first = -1, last = -1;
  long long input = 0, output = 0, requests = 0;
  double cost = 0;
  std::set<std::string> calls, waiting, failed;
  bool answered = false, error = false;
  for (const auto& e : events) {
    if (!e.is_object()) continue;
    if (auto ts = e.find("ts"); ts != e.end() && ts->is_number()) {
      double t = ts->get<double>();
      if (first < 0 || t < first) first = t;
      if (t > last) last = t;
    }
    const std::string kind = e.value("event", "");
    const std::string call = e.value("id", "") + "#" + std::to_string(e.value("turn", 0));
    if (kind == "run") {
      s["question"] = e.value("question", "");
      s["provider"] = e.value("provider", "");
      s["model"] = e.value("model", "");
    } else if (kind == "model_request") {
      ++requests;
    } else if (kind == "model_response") {
      const json u = e.value("usage", json::object());
      input += u.value("input_tokens", 0LL);
      output += u.value("output_tokens", 0LL);
      cost += u.value("cost", 0.0);
      if (s["model"] == "" && e.contains("model")) s["model"] = e.value("model", "");
    } else if (kind == "tool_call" || kind == "tool_result") {
      calls.insert(call);
      waiting.erase(call);
      if (kind == "tool_result" && e.value("is_error", false)) failed.insert(call);
      if (kind == "tool_result" && !e.value("is_error", false)) failed.erase(call);
    } else if (kind == "approval_waiting") {
      calls.insert(call);
      waiting.insert(call);
    } else if (kind == "answer") {
      answered = true;
      error = false;
    } else if (kind == "error") {
      error = true;
      answered = false;
    }
  }
  s["status"] = error ? "failed" : answered ? "done" : !waiting.empty() ? "waiting" : "running";
  if (first >= 0) {
    s["started"] = first;
    s["ms"] = last - first;
  }
  s["requests"] = requests;
  s["input_tokens"] = input;
  s["output_tokens"] = output;
  s["cost"] = cost;
  s["tool_calls"] = calls.size();
  s["errors"] = failed.size();
  return s;
}

}  // namespace tooluse::cli
