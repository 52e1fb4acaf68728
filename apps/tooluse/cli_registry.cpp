#include <sstream>

#include "cli.hpp"

namespace tooluse::cli {

void add_registry_flags(CLI::App& cmd, registry_flags& flags) {
  cmd.add_option("--root", flags.root, "Folder the file tools are confined to")
      ->capture_default_str();
  cmd.add_flag("--network", flags.network, "Enable tools that reach the network");
  cmd.add_flag("--shell", flags.shell, "Enable the shell tool (dangerous; sandboxed)");
  cmd.add_option("--tools", flags.tools, "Comma-separated tool names to offer (default: all)");
}

result<std::unique_ptr<tool_registry>> make_registry(const registry_flags& flags) {
  auto all = std::make_unique<tool_registry>();
  builtin::register_builtins(*all, {.root = flags.root, .network = flags.network,
                                    .shell = flags.shell});
  if (flags.tools.empty()) return all;
  auto kept = std::make_unique<tool_registry>();
  std::stringstream ss(flags.tools);
  std::string name;
  while (std::getline(ss, name, ',')) {
    if (name.empty()) continue;
    auto entry = all->find(name);
    if (!entry) {
      std::string available;
      for (const auto& n : all->names()) available += (available.empty() ? "" : ", ") + n;
      return fail(errc::not_found, "no tool named \"" + name + "\"; available: " + available);
    }
    kept->add(entry->definition, entry->handler, {.replace = true});
  }
  return kept;
}

}  // namespace tooluse::cli
