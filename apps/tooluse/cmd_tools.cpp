// tooluse tools list | call: inspect and call the registered tools.
#include <iostream>

#include <unistd.h>

#include "agent_setup.hpp"
#include "cli.hpp"
#include "conventions.hpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/json.hpp"
#include "tooluse/schema/coerce.hpp"

namespace tooluse::cli {
namespace {

struct tools_options {
  registry_flags flags;
  bool json_output = false;
  std::string name;
  std::vector<std::string> arguments;
  std::chrono::milliseconds timeout{0};
  bool yes = false;
};

int list_tools(const tools_options& o) {
  auto reg = make_registry(o.flags);
  if (!reg) return usage_error(reg.error().message);
  auto entries = (*reg)->list();
  if (o.json_output) {
    json out = json::array();
    for (const auto& e : entries) out.push_back(tool_to_json(e->definition));
    std::cout << dump_json(out, 2) << "\n";
    return 0;
  }
  for (const auto& e : entries) {
    const auto& t = e->definition;
    std::string first_line = t.description.substr(0, t.description.find('\n'));
    std::cout << t.name << (t.dangerous ? " [dangerous]" : "") << "\n  " << first_line << "\n";
  }
  return 0;
}

int call_tool(const tools_options& o) {
  auto reg = make_registry(o.flags);
  if (!reg) return usage_error(reg.error().message);
  auto entry = (*reg)->find(o.name);
  if (!entry) {
    if (auto hint = gated_tool_hint(o.name, o.flags); !hint.empty()) return usage_error(hint);
    auto names = (*reg)->names();
    std::string available;
    for (const auto& n : names) available += (available.empty() ? "" : ", ") + n;
    auto best = closest(o.name, names);
    return report_error(exit_status::usage,
                        "no tool named \"" + o.name + "\"" +
                            (best.empty() ? "" : "; did you mean \"" + best + "\"?"),
                        "available: " + available);
  }
  auto args = parse_tool_arguments(o.arguments, entry->definition.input_schema);
  if (!args) return usage_error("arguments for \"" + o.name + "\": " + args.error().message);
  // Same check the engine makes: tools that opt in to coercion get their arguments repaired.
  auto errors = entry->definition.coerce_arguments
                    ? schema::coerce(*entry->input_validator, *args).errors
                    : entry->input_validator->validate(*args);
  if (!errors.empty())
    return usage_error("arguments for \"" + o.name + "\" do not match its schema:\n" +
                       schema::format_errors(errors));
  // The approval rule of every command that runs tools: a dangerous tool is asked about on the
  // terminal, refused without one unless --yes is given.
  if (entry->definition.dangerous && !o.yes && !::isatty(STDIN_FILENO))
    return needs_approval("tools call", o.name);
  // Through the execution engine for the tool's timeout; the output is printed whole.
  exec::executor ex(**reg, {.max_threads = 1,
                            .default_max_output_bytes = 0,
                            .approval = approval_prompt(o.yes)});
  tool_result r =
      ex.call(tool_call::from_text("cli", o.name, dump_json(*args)), {.timeout = o.timeout});
  if (o.json_output) {
    std::cout << dump_json(result_to_json(r), 2) << "\n";
  } else {
    (r.is_error ? std::cerr : std::cout) << r.all_text() << "\n";
  }
  return r.is_error ? 1 : 0;
}

void setup_tools(CLI::App& app, app_state& state) {
  auto opts = std::make_shared<tools_options>();
  auto* tools = app.add_subcommand("tools", "List and call the built-in tools");
  tools->require_subcommand(1);

  auto* list = tools->add_subcommand("list", "List the tools with their descriptions and schemas");
  add_registry_flags(*list, opts->flags);
  list->add_flag("--json", opts->json_output, "Print the definitions as JSON");
  list->callback([opts, &state] { state.action = [opts] { return list_tools(*opts); }; });

  auto* call =
      tools->add_subcommand("call", "Call one tool (arguments as JSON, key=value or - for stdin)");
  add_registry_flags(*call, opts->flags);
  complete_with(call->add_option("name", opts->name, "Tool name")->required(),
                value_source::tool_names);
  call->add_option("arguments", opts->arguments, "'JSON', key=value ..., or - for JSON on stdin");
  call->add_flag("--json", opts->json_output, "Print the result as MCP CallToolResult JSON");
  add_yes_flag(*call, opts->yes);
  add_duration_option(*call, "--timeout", opts->timeout,
                      "Deadline for the call (500ms, 30s, 2m); when it passes the call is "
                      "cancelled and the command exits 1");
  call->footer(std::string(tool_arguments_help) +
               "\nExamples:\n  tooluse tools call calculator expression='2**10'\n"
               "  echo '{\"expression\": \"1+1\"}' | tooluse tools call calculator -\n"
               "A dangerous tool (marked [dangerous] by tools list) is asked about first; --yes approves.\n"
               "Exit status: 0 success, 1 the tool returned an error or the call was refused, 2 bad "
               "usage or arguments, or a dangerous tool with no terminal to ask on and no --yes.");
  call->callback([opts, &state] { state.action = [opts] { return call_tool(*opts); }; });
}

const command_registrar tools_registrar(10, &setup_tools);

}  // namespace
}  // namespace tooluse::cli
