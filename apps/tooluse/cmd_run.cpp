// tooluse run "QUESTION": one agent run against a model, tools from the built-in registry.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

#include "agent_setup.hpp"
#include "conventions.hpp"
#include "run_command.hpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/store/queue.hpp"
#include "tooluse/telemetry/trace.hpp"

namespace tooluse::cli {
namespace {

// progress_printer shows the run on stderr (tool calls and outcomes, with a spinner while tools
// run when stderr is a terminal) and streams the answer text to stdout, unless --json asked for
// one JSON document at the end.
struct progress_printer {
  bool json_output = false;
  bool streamed = false;
  std::ofstream* trace = nullptr;
  tool_spinner* spinner = nullptr;

  void operator()(const agent_event& e) {
    if (trace && e.what != agent_event::kind::reasoning_delta)
      write_trace_line(*trace, agent_event_to_json(e));
    if (json_output) return;
    switch (e.what) {
      case agent_event::kind::model_request:
        spinner->waiting(true);
        break;
      case agent_event::kind::model_response:
      case agent_event::kind::answer:
      case agent_event::kind::error:
        spinner->waiting(false);
        break;
      case agent_event::kind::text_delta:
        spinner->waiting(false);
        std::cout << e.text << std::flush;
        streamed = true;
        break;
      case agent_event::kind::tool_call:
        spinner->waiting(false);
        if (streamed) std::cout << "\n" << std::flush;
        streamed = false;
        spinner->print(tool_call_line(e));
        spinner->begin(e.call->name);
        break;
      case agent_event::kind::tool_result:
        spinner->end(e.call->name);
        spinner->print(tool_result_line(e));
        break;
      default:
        break;
    }
  }
};

// cost_json is the run's cost in USD, or null when the model is not in the price catalog.
json cost_json(const run_result& r, bool priced) { return priced ? json(r.usage.cost) : json(); }

// usage_line is the summary `run` prints on stderr after the answer.
std::string usage_line(const run_result& r, bool priced) { return usage_summary(r.usage, priced); }

json run_json(const run_result& r, bool priced) {
  json calls = json::array();
  for (const auto& c : r.tool_calls)
    calls.push_back(
        {{"name", c.call.name},
         {"arguments", c.call.arguments.is_null() ? json(c.call.raw_arguments) : c.call.arguments},
         {"result", c.result.all_text()},
         {"is_error", c.result.is_error},
         {"ms", c.duration.count()}});
  return {{"answer", r.answer},
          {"turns", r.turns},
          {"tool_calls", calls},
          {"usage", llm::usage_to_json(r.usage)},
          {"cost", cost_json(r, priced)}};
}

// run_stop is what can stop a run before it ends: SIGINT/SIGTERM (a second one exits at once,
// status 130) and the --timeout deadline. Stopping cancels the model request and the tool calls
// in flight; an MCP tool that runs as a task is cancelled on its server (tasks/cancel).
class run_stop {
 public:
  // The signals are blocked before any thread starts (MCP servers' readers), so every thread
  // inherits the mask and only the signal thread takes them.
  run_stop() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread([set, stop = source_, flag = interrupted_]() mutable {
      int sig = 0;
      sigwait(&set, &sig);
      flag->store(true);
      stop.request_stop();
      sigwait(&set, &sig);
      std::_Exit(130);
    }).detach();
  }
  // arm starts the deadline (none when `timeout` is 0).
  void arm(std::chrono::milliseconds timeout) {
    if (timeout.count() <= 0) return;
    timer_ = std::jthread([this, timeout](std::stop_token ended) {
      std::mutex m;
      std::condition_variable_any cv;
      std::unique_lock lock(m);
      cv.wait_for(lock, ended, timeout, [] { return false; });
      if (ended.stop_requested()) return;
      timed_out_ = true;
      source_.request_stop();
    });
  }
  std::stop_token token() const { return source_.get_token(); }
  bool interrupted() const { return interrupted_->load(); }
  bool timed_out() const { return timed_out_.load(); }

 private:
  std::stop_source source_;
  std::shared_ptr<std::atomic<bool>> interrupted_ = std::make_shared<std::atomic<bool>>(false);
  std::atomic<bool> timed_out_{false};
  std::jthread timer_;  // last: joined before the members it uses go
};

}  // namespace

int run_agent(run_request& o) {
  // The question: the argument, or stdin when it is "-" or absent and stdin is not a terminal
  // (echo "What is 2*3?" | tooluse run; tooluse run - < task.txt). A resumed run has its own.
  if (!o.durable.resume && (o.question.empty() || o.question == "-")) {
    if (o.question.empty() && ::isatty(STDIN_FILENO))
      return usage_error(
          "run: give the question as an argument or pipe it on stdin, e.g.\n"
          "  tooluse run \"What is 2*3?\"\n  echo \"What is 2*3?\" | tooluse run");
    o.question.assign(std::istreambuf_iterator<char>(std::cin), {});
    while (!o.question.empty() && (o.question.back() == '\n' || o.question.back() == '\r'))
      o.question.pop_back();
    if (o.question.empty()) return usage_error("run: the question read from stdin is empty");
  }
  auto resolved = resolve_model(o.model, o.tools);
  if (!resolved) return usage_error(resolved.error().message);
  run_stop stopper;
  // One trace per command: mounting --mcp servers and the agent run share this root span.
  auto root = telemetry::start_span("tooluse run");
  auto registry = make_registry(o.tools);
  if (!registry) return usage_error(registry.error().message);
  if (auto ok = check_tool_choice(o.model, **registry); !ok) return usage_error(ok.error().message);
  note_strict_drops(o.model, **registry);
  std::ofstream trace;
  if (!o.trace.empty()) {
    trace.open(o.trace, std::ios::trunc);
    if (!trace) return usage_error("cannot write the trace file \"" + o.trace + "\"");
    write_trace_line(trace, trace_header(o.question, o.model, **registry));
  }
  // --json keeps stderr free of animation too: the spinner draws only for the human view.
  auto spinner = o.json_output ? std::make_unique<tool_spinner>(
                                     tool_spinner_options{.out = &std::cerr, .terminal = false})
                               : make_stderr_spinner();
  durable_run durable;
  if (auto s = durable.open(o.durable, o.model, o.tools); !s) return usage_error(s.error().message);
  exec::executor executor(
      **registry, {.max_threads = 8,
                   .approval = durable.active() ? durable.approval(o.model.yes, spinner.get())
                                                : approval_prompt(o.model.yes, spinner.get()),
                   .on_event = o.json_output ? exec::event_callback{} : progress_lines(spinner.get())});
  progress_printer printer{.json_output = o.json_output,
                           .trace = trace.is_open() ? &trace : nullptr,
                           .spinner = spinner.get()};
  agent_options options = resolved->options;
  options.executor = &executor;
  options.on_event = [&printer](const agent_event& e) { printer(e); };
  options.journal = durable.journal();
  std::unique_ptr<store::tool_queue> queue;
  if (!o.durable.queue.empty()) {
    if (!durable.active()) return usage_error("--queue needs --store postgresql://... (or TOOLUSE_STORE)");
    auto q = store::tool_queue::open(store_location(o.durable.store), o.durable.queue);
    if (!q) return usage_error(q.error().message);
    queue = std::move(*q);
    options.runner = queue->runner(durable.id());
  }
  agent a(*resolved->provider, **registry, options);
  bool priced = resolved->price.has_value();
  stopper.arm(o.timeout);
  auto r = durable.snapshot() ? a.resume(*durable.snapshot(), stopper.token())
                              : a.run(o.question, stopper.token());
  if (!r) {
    if (printer.streamed) std::cout << "\n";
    bool waiting = durable.active() && !a.last_run().waiting.empty();
    if (o.json_output) {
      json j = run_json(a.last_run(), priced);
      j["error"] = r.error().message;
      if (durable.active()) j["run_id"] = durable.id();
      if (waiting) {
        j["waiting"] = json::array();
        for (const auto& c : a.last_run().waiting)
          j["waiting"].push_back({{"call_id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
      }
      std::cout << dump_json(j, 2) << "\n";
    }
    if (waiting) return durable.report_waiting(a.last_run());
    const int status = stopper.interrupted() ? exit_status::interrupted : exit_status::failed;
    if (stopper.timed_out())
      report_error(status, "the run was stopped at its --timeout of " + format_duration(o.timeout));
    else if (stopper.interrupted())
      report_error(status, "the run was interrupted");
    else
      report_error(status, r.error().message);
    if (!o.json_output) std::cerr << usage_line(a.last_run(), priced);
    return status;
  }
  if (o.json_output) {
    json j = run_json(*r, priced);
    if (durable.active()) j["run_id"] = durable.id();
    std::cout << dump_json(j, 2) << "\n";
  } else {
    if (!printer.streamed) std::cout << r->answer;
    std::cout << "\n";
    if (r->finish == llm::finish_reason::length)
      std::cerr << "tooluse: warning: the answer was cut at the output token limit\n";
    std::cerr << usage_line(*r, priced);
  }
  return 0;
}

namespace {

void setup_run(CLI::App& app, app_state& state) {
  auto o = std::make_shared<run_request>();
  auto* cmd = app.add_subcommand("run", "Answer a question with a model that can call tools");
  cmd->add_option("question", o->question,
                  "The question or task (- or absent: read it from stdin when piped)");
  add_registry_flags(*cmd, o->tools);
  add_model_flags(*cmd, o->model);
  add_durable_flags(*cmd, o->durable);
  cmd->add_option("--trace", o->trace, "Write every step as JSON Lines to FILE");
  add_duration_option(*cmd, "--timeout", o->timeout,
                      "Deadline for the whole run (e.g. 90s, 5m); tool calls in flight, MCP "
                      "tasks included, are cancelled");
  cmd->add_flag("--json", o->json_output,
                "Print {answer, turns, tool_calls, usage, cost} as JSON instead of streaming "
                "(cost in USD, null when the model has no price in the catalog)");
  cmd->footer(
      "The answer streams to stdout; tool calls and their outcomes go to stderr (with a spinner\n"
      "and MCP progress when stderr is a terminal).\n"
      "Examples:\n  tooluse run \"What is 13! / 7?\" --tools calculator\n"
      "  git diff | tooluse run --system \"Review this diff\"\n"
      "With --store (or TOOLUSE_STORE) the run is journaled and resumable: `run: ID` goes to\n"
      "stderr and `tooluse runs` approves, denies, resumes (docs/durable-runs.md).\n"
      "Ctrl-C (SIGINT) or SIGTERM stops the run and cancels its tool calls, MCP tasks on their\n"
      "servers included; a second one exits at once.\n"
      "Exit status: 0 answered, 1 the run failed (provider error, max turns, budget, --timeout),\n"
      "2 bad usage or no provider configured, 3 the journaled run waits for an approval,\n"
      "130 interrupted.");
  cmd->callback([o, &state] { state.action = [o] { return run_agent(*o); }; });
}

const command_registrar run_registrar(30, &setup_run);

}  // namespace
}  // namespace tooluse::cli
