// tooluse chat: an interactive session with history. Plain line input (std::getline, so the
// terminal's own line editing only; no readline), /tools, /reset, /exit, streamed answers,
// approval prompts for dangerous tools.
#include <unistd.h>

#include <iostream>

#include "agent_setup.hpp"
#include "tooluse/exec/executor.hpp"

namespace tooluse::cli {
namespace {

struct chat_options {
  registry_flags tools;
  model_flags model;
};

void on_event(const agent_event& e) {
  switch (e.what) {
    case agent_event::kind::text_delta: std::cout << e.text << std::flush; break;
    case agent_event::kind::tool_call:
      std::cerr << "[tool] " << e.call->name << " " << dump_json(e.call->arguments) << "\n";
      break;
    case agent_event::kind::tool_result:
      std::cerr << "[tool] " << e.call->name << (e.result->is_error ? " failed: " : " -> ")
                << e.result->all_text().substr(0, 200) << "\n";
      break;
    default: break;
  }
}

int chat(chat_options& o) {
  auto resolved = resolve_model(o.model, o.tools);
  if (!resolved) return usage_error(resolved.error().message);
  auto registry = make_registry(o.tools);
  if (!registry) return usage_error(registry.error().message);
  exec::executor executor(**registry, {.max_threads = 8, .approval = approval_prompt(o.model.yes)});
  agent_options options = resolved->options;
  options.executor = &executor;
  options.on_event = on_event;
  agent a(*resolved->provider, **registry, options);
  bool tty = ::isatty(STDIN_FILENO);
  if (tty) std::cerr << "tooluse chat: /tools lists tools, /reset forgets, /exit quits\n";
  std::string line;
  while ((tty && std::cerr << "> " << std::flush), std::getline(std::cin, line)) {
    if (line.empty()) continue;
    if (line == "/exit" || line == "/quit") break;
    if (line == "/reset") {
      a.reset();
      std::cerr << "(conversation cleared)\n";
      continue;
    }
    if (line == "/tools") {
      for (const auto& e : (*registry)->list())
        std::cout << e->definition.name << (e->definition.dangerous ? " [dangerous]" : "") << "\n";
      continue;
    }
    auto r = a.run(line);
    if (!r) {
      std::cerr << "\nerror: " << r.error().message << "\n";
      continue;
    }
    if (!options.stream) std::cout << r->answer;
    std::cout << "\n" << std::flush;
  }
  return 0;
}

void setup(CLI::App& app, app_state& state) {
  auto o = std::make_shared<chat_options>();
  auto* cmd = app.add_subcommand("chat", "Talk with a model that can call tools (interactive)");
  add_registry_flags(*cmd, o->tools);
  add_model_flags(*cmd, o->model);
  cmd->footer("Commands: /tools, /reset, /exit. Reads stdin line by line; EOF ends the session.");
  cmd->callback([o, &state] { state.action = [o] { return chat(*o); }; });
}

const command_registrar reg(31, &setup);

}  // namespace
}  // namespace tooluse::cli
