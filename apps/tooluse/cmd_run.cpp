// tooluse run "QUESTION": one agent run against a model, tools from the built-in registry.
#include <fstream>
#include <iostream>

#include "agent_setup.hpp"
#include "run_command.hpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/store/queue.hpp"

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
      *trace << dump_json(agent_event_to_json(e)) << "\n" << std::flush;
    if (json_output) return;
    switch (e.what) {
      case agent_event::kind::text_delta:
        std::cout << e.text << std::flush;
        streamed = true;
        break;
      case agent_event::kind::tool_call:
        if (streamed) std::cout << "\n" << std::flush;
        streamed = false;
        spinner->print(tool_call_line(e));
        spinner->begin(e.call->name);
        break;
      case agent_event::kind::tool_result:
        spinner->end(e.call->name);
        spinner->print(tool_result_line(e));
        break;
      default: break;
    }
  }
};

json run_json(const run_result& r) {
  json calls = json::array();
  for (const auto& c : r.tool_calls)
    calls.push_back({{"name", c.call.name},
                     {"arguments", c.call.arguments.is_null() ? json(c.call.raw_arguments)
                                                              : c.call.arguments},
                     {"result", c.result.all_text()},
                     {"is_error", c.result.is_error},
                     {"ms", c.duration.count()}});
  return {{"answer", r.answer}, {"turns", r.turns}, {"tool_calls", calls},
          {"usage", llm::usage_to_json(r.usage)}};
}

}  // namespace

int run_agent(run_request& o) {
  auto resolved = resolve_model(o.model, o.tools);
  if (!resolved) return usage_error(resolved.error().message);
  auto registry = make_registry(o.tools);
  if (!registry) return usage_error(registry.error().message);
  std::ofstream trace;
  if (!o.trace.empty()) {
    trace.open(o.trace, std::ios::trunc);
    if (!trace) return usage_error("cannot write the trace file \"" + o.trace + "\"");
  }
  // --json keeps stderr free of animation too: the spinner draws only for the human view.
  auto spinner = o.json_output ? std::make_unique<tool_spinner>(tool_spinner_options{
                                     .out = &std::cerr, .terminal = false})
                               : make_stderr_spinner();
  durable_run durable;
  if (auto s = durable.open(o.durable, o.model, o.tools); !s) return usage_error(s.error().message);
  exec::executor executor(
      **registry, {.max_threads = 8,
                   .approval = durable.active() ? durable.approval(o.model.yes, spinner.get())
                                                : approval_prompt(o.model.yes, spinner.get())});
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
  auto r = durable.snapshot() ? a.resume(*durable.snapshot()) : a.run(o.question);
  if (!r) {
    if (printer.streamed) std::cout << "\n";
    bool waiting = durable.active() && !a.last_run().waiting.empty();
    if (o.json_output) {
      json j = run_json(a.last_run());
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
    std::cerr << "tooluse run: " << r.error().message << "\n";
    return 1;
  }
  if (o.json_output) {
    json j = run_json(*r);
    if (durable.active()) j["run_id"] = durable.id();
    std::cout << dump_json(j, 2) << "\n";
  } else {
    if (!printer.streamed) std::cout << r->answer;
    std::cout << "\n";
    if (r->finish == llm::finish_reason::length)
      std::cerr << "tooluse run: warning: the answer was cut at the output token limit\n";
  }
  return 0;
}

namespace {

void setup(CLI::App& app, app_state& state) {
  auto o = std::make_shared<run_request>();
  auto* cmd = app.add_subcommand("run", "Answer a question with a model that can call tools");
  cmd->add_option("question", o->question, "The question or task")->required();
  add_registry_flags(*cmd, o->tools);
  add_model_flags(*cmd, o->model);
  add_durable_flags(*cmd, o->durable);
  cmd->add_option("--trace", o->trace, "Write every step as JSON Lines to FILE");
  cmd->add_flag("--json", o->json_output,
                "Print {answer, turns, tool_calls, usage} as JSON instead of streaming");
  cmd->footer(
      "The answer streams to stdout; tool calls and their outcomes go to stderr.\n"
      "With --store (or TOOLUSE_STORE) the run is journaled and resumable: `run: ID` goes to\n"
      "stderr and `tooluse runs` approves, denies, resumes (docs/durable-runs.md).\n"
      "Exit status: 0 answered, 1 the run failed (provider error, max turns, budget),\n"
      "2 bad usage or no provider configured, 3 the journaled run waits for an approval.");
  cmd->callback([o, &state] { state.action = [o] { return run_agent(*o); }; });
}

const command_registrar reg(30, &setup);

}  // namespace
}  // namespace tooluse::cli
