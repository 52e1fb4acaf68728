// tooluse tools batch CALLS.json: run an array of {"name","arguments"} through the execution
// engine, in parallel, and print the results in call order with their durations.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "agent_setup.hpp"
#include "cli.hpp"
#include "conventions.hpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/json.hpp"

namespace tooluse::cli {
namespace {

struct batch_options {
  registry_flags flags;
  std::string calls_file;
  int parallel = 8;
  std::chrono::milliseconds timeout{0};
  bool json_output = false;
  bool approve = false;
};

// parse_calls reads [{"name": "...", "arguments": {...} or "..."}, ...]; "id" is optional.
result<std::vector<tool_call>> parse_calls(const std::string& text) {
  auto doc = parse_user_json(text, "the calls file");
  if (!doc) return fail(doc.error());
  if (!doc->is_array())
    return fail(errc::invalid_argument,
                "the calls file must hold a JSON array of {\"name\", \"arguments\"}");
  std::vector<tool_call> calls;
  for (std::size_t i = 0; i < doc->size(); ++i) {
    const json& c = (*doc)[i];
    const std::string where = "call " + std::to_string(i + 1);
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string())
      return fail(errc::invalid_argument, where + ": needs a string \"name\"");
    std::string id = c.value("id", "call_" + std::to_string(i + 1));
    auto args = c.find("arguments");
    if (args == c.end()) {
      calls.push_back(tool_call::from_text(id, c["name"], "{}"));
    } else if (args->is_string()) {
      calls.push_back(tool_call::from_text(id, c["name"], args->get<std::string>()));
    } else {
      calls.push_back(tool_call::from_text(id, c["name"], dump_json(*args)));
    }
  }
  return calls;
}

double ms_of(std::chrono::microseconds d) {
  return static_cast<double>(d.count() / 10) / 100.0;  // two decimals
}

std::string ms_text(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f ms", ms);
  return buf;
}

int run_batch(const batch_options& o) {
  std::string text;
  if (!read_text_file(o.calls_file, text))
    return usage_error("cannot read \"" + o.calls_file + "\"");
  auto calls = parse_calls(text);
  if (!calls) return usage_error(o.calls_file + ": " + calls.error().message);
  if (o.parallel < 1) return usage_error("--parallel must be at least 1");
  auto reg = make_registry(o.flags);
  if (!reg) return usage_error(reg.error().message);

  // The approval rule of every command that runs tools: each dangerous call is asked about on
  // the terminal; without one, it is refused (its result says to pass --yes).
  exec::executor ex(**reg, {.max_threads = o.parallel, .approval = approval_prompt(o.approve)});
  const auto start = std::chrono::steady_clock::now();
  auto results = ex.run_all(*calls, {.timeout = o.timeout});
  const auto wall = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - start);

  bool any_error = false;
  json out_results = json::array();
  for (std::size_t i = 0; i < results.size(); ++i) {
    const tool_result& r = results[i];
    any_error = any_error || r.is_error;
    if (o.json_output) {
      json content = json::array();
      for (const auto& b : r.content) content.push_back(content_to_json(b));
      out_results.push_back({{"name", (*calls)[i].name},
                             {"is_error", r.is_error},
                             {"content", std::move(content)},
                             {"ms", ms_of(r.duration)}});
    } else {
      std::cout << "[" << i + 1 << "] " << (*calls)[i].name << " (" << ms_text(ms_of(r.duration))
                << ")" << (r.is_error ? " error" : "") << "\n"
                << r.all_text() << "\n";
    }
  }
  if (o.json_output) {
    std::cout << dump_json({{"results", std::move(out_results)}, {"wall_ms", ms_of(wall)}}, 2)
              << "\n";
  } else {
    std::cout << "wall time: " << ms_text(ms_of(wall)) << "\n";
  }
  return any_error ? 1 : 0;
}

void setup_tools_batch(CLI::App& app, app_state& state) {
  auto* tools = app.get_subcommand("tools");
  auto opts = std::make_shared<batch_options>();
  auto* batch = tools->add_subcommand("batch", "Run an array of calls in parallel, in order");
  add_registry_flags(*batch, opts->flags);
  batch
      ->add_option("calls", opts->calls_file,
                   "JSON file (or - for stdin): [{\"name\": ..., \"arguments\": {...}}, ...]")
      ->required();
  batch->add_option("--parallel", opts->parallel, "Calls running at once")->capture_default_str();
  add_duration_option(*batch, "--timeout", opts->timeout,
                      "Deadline for the whole batch, e.g. 500ms, 30s, 2m (0: none)");
  batch->add_flag("--json", opts->json_output,
                  "Print {\"results\":[{\"name\",\"is_error\",\"content\",\"ms\"}],\"wall_ms\"}");
  // --yes as in every other command that runs tools; --approve is its older spelling, hidden.
  add_yes_flag(*batch, opts->approve);
  batch->add_flag("--approve", opts->approve, "The older spelling of --yes")->group("");
  batch->footer("Exit status: 0 every call succeeded, 1 some call returned an error, 2 bad usage.");
  batch->callback([opts, &state] { state.action = [opts] { return run_batch(*opts); }; });
}

const command_registrar tools_batch_registrar(11, &setup_tools_batch);

}  // namespace
}  // namespace tooluse::cli
