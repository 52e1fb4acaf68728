// tooluse sandbox check: what of the sandbox works on this machine, and what each missing part
// costs (docs/sandbox.md).
#include <iostream>

#include "cli.hpp"
#include "tooluse/json.hpp"
#include "tooluse/sandbox/check.hpp"

namespace tooluse::cli {
namespace {

int sandbox_check(bool json_output) {
  const auto rep = sandbox::check();
  if (json_output) {
    json items = json::array();
    for (const auto& it : rep.items)
      items.push_back({{"name", it.name}, {"ok", it.ok}, {"required", it.required},
                       {"detail", it.detail}, {"cost", it.cost}});
    std::cout << dump_json({{"usable", rep.usable}, {"items", items}}, 2) << "\n";
    return rep.usable ? 0 : 1;
  }
  for (const auto& it : rep.items) {
    std::string name = it.name;
    name.resize(std::max<std::size_t>(name.size(), 18), ' ');
    std::cout << name << (it.ok ? "ok       " : it.required ? "MISSING  " : "missing  ") << it.detail
              << "\n";
    if (!it.ok && !it.cost.empty()) std::cout << std::string(27, ' ') << "cost: " << it.cost << "\n";
  }
  std::cout << (rep.usable ? "the sandbox works here: shell, python and sandboxed MCP servers run in it\n"
                           : "the sandbox does not work here: sandboxed tools and servers are refused "
                             "(nothing falls back to running unsandboxed)\n");
  return rep.usable ? 0 : 1;
}

void setup_sandbox(CLI::App& app, app_state& state) {
  auto* sb = app.add_subcommand("sandbox", "The sandbox that code tools and MCP servers run in");
  sb->require_subcommand(1);
  auto json_output = std::make_shared<bool>(false);
  auto* check = sb->add_subcommand(
      "check", "Say what of the sandbox works here (bubblewrap, user namespaces, seccomp, "
               "Landlock, cgroups) and what each missing part costs; exit 1 when unusable");
  check->add_flag("--json", *json_output, "Print the report as JSON");
  check->callback([json_output, &state] {
    state.action = [json_output] { return sandbox_check(*json_output); };
  });
}

const command_registrar sandbox_registrar(75, &setup_sandbox);

}  // namespace
}  // namespace tooluse::cli
