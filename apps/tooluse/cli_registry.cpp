#include <algorithm>
#include <sstream>

#include "cli.hpp"
#include "tooluse/mcp/mount.hpp"

namespace tooluse::cli {

void add_registry_flags(CLI::App& cmd, registry_flags& flags) {
  cmd.add_option("--root", flags.root, "Folder the file tools are confined to")
      ->capture_default_str();
  cmd.add_flag("--network", flags.network, "Enable tools that reach the network");
  cmd.add_flag("--shell", flags.shell, "Enable the shell tool (dangerous; sandboxed)");
  cmd.add_flag("--python", flags.python, "Enable the python tool (dangerous; sandboxed)");
  cmd.add_option("--tools", flags.tools, "Comma-separated tool names to offer (default: all)");
  cmd.add_option("--mcp", flags.mcp,
                 "Mount the tools of the MCP servers in this mcpServers JSON file (Claude "
                 "Desktop/Cursor shape) as SERVER__TOOL");
  cmd.add_option("--confirm", flags.confirm,
                 "Comma-separated tool names that need approval before each call, as dangerous "
                 "tools do (e.g. an MCP server's tools with side effects)");
  cmd.add_option("--sandbox", flags.sandbox,
                 "Comma-separated NAME[=MB]: run these tools sandboxed with MB of memory (default "
                 "512): a built-in tool in a worker process, SERVER__TOOL by sandboxing its MCP "
                 "server; for shell and python (always sandboxed) it sets the memory limit");
}

CLI::Option* add_yes_flag(CLI::App& cmd, bool& yes) {
  return cmd.add_flag("--yes,-y", yes,
                      "Approve dangerous tools without asking (otherwise each call is asked "
                      "about on the terminal, and refused when there is none)");
}

int needs_approval(const std::string& command, const std::string& tool) {
  return report_error(exit_status::usage,
                      command + ": tool \"" + tool +
                          "\" is dangerous and needs approval, and there is no terminal to ask on",
                      "Pass --yes to approve its calls (the same flag in every command that runs "
                      "tools).");
}

bool destructive_by_hints(std::optional<bool> destructive, std::optional<bool> read_only) {
  return destructive.value_or(false) && !read_only.value_or(false);
}

namespace {

// Mounts the --mcp servers into `reg`, keeping only `wanted` names when it is not empty.
status mount_mcp(tool_registry& reg, const std::string& path,
                 const std::vector<std::string>& wanted, const sandbox_requests& sandboxed) {
  auto config = mcp::load_client_config(path);
  if (!config) return fail(config.error().code, "--mcp " + config.error().message);
  if (auto s = sandbox_servers(*config, sandboxed); !s) return s;
  mcp::mount_options options{.include = wanted};
  options.client.client_info = {.name = "tooluse", .version = TOOLUSE_VERSION};
  auto mounts = mcp::mount_servers(reg, *config, options);
  if (!mounts) return fail(mounts.error().code, "--mcp " + path + ": " + mounts.error().message);
  mcp::bind_to_registry(reg, std::move(*mounts));
  // The approval rule: a tool its server calls destructive asks before each call, as the
  // built-in dangerous tools do.
  for (const auto& entry : reg.list()) {
    const tool& t = entry->definition;
    if (t.dangerous || std::find(t.tags.begin(), t.tags.end(), "mcp") == t.tags.end() ||
        !destructive_by_hints(t.annotations.destructive, t.annotations.read_only))
      continue;
    tool def = t;
    def.dangerous = true;
    reg.add(def, entry->handler, {.replace = true, .compiled_input = entry->input_validator});
  }
  return {};
}

result<std::unique_ptr<tool_registry>> make_registry_unconfirmed(const registry_flags& flags);

// mark_confirmed makes the --confirm tools dangerous, so the approval policy is asked first.
status mark_confirmed(tool_registry& reg, const std::string& names) {
  std::stringstream ss(names);
  for (std::string name; std::getline(ss, name, ',');) {
    if (name.empty()) continue;
    auto entry = reg.find(name);
    if (!entry) return fail(errc::not_found, "--confirm: no tool named \"" + name + "\"");
    tool def = entry->definition;
    def.dangerous = true;
    reg.add(def, entry->handler, {.replace = true, .compiled_input = entry->input_validator});
  }
  return {};
}

}  // namespace

std::string gated_tool_hint(const std::string& name, const registry_flags& flags) {
  auto has = [&](bool network, bool shell) {
    tool_registry reg;
    builtin::register_builtins(reg, {.root = flags.root, .network = network, .shell = shell,
                                     .python = shell || flags.python});
    return reg.find(name) != nullptr;
  };
  if (name == "python" && !flags.python)
    return "tool \"python\" runs code and is off by default; add --python to enable it "
           "(sandboxed; dangerous calls ask for approval)";
  if (has(flags.network, flags.shell)) return "";
  if (!flags.network && has(true, flags.shell))
    return "tool \"" + name +
           "\" reaches the network and is off by default; add --network to enable it";
  if (!flags.shell && has(flags.network, true))
    return "tool \"" + name +
           "\" runs shell commands and is off by default; add --shell to enable it "
           "(sandboxed; dangerous calls ask for approval)";
  return "";
}

result<std::unique_ptr<tool_registry>> make_registry(const registry_flags& flags) {
  auto made = make_registry_unconfirmed(flags);
  if (made && !flags.confirm.empty())
    if (auto s = mark_confirmed(**made, flags.confirm); !s) return fail(s.error());
  return made;
}

namespace {

result<std::unique_ptr<tool_registry>> make_registry_unconfirmed(const registry_flags& flags) {
  auto sandboxed = parse_sandbox_flag(flags.sandbox);
  if (!sandboxed) return fail(sandboxed.error());
  auto all = std::make_unique<tool_registry>();
  builtin::builtin_options options{.root = flags.root,
                                   .network = flags.network,
                                   .shell = flags.shell,
                                   .python = flags.python};
  apply_sandbox_to_builtins(*sandboxed, options);
  builtin::register_builtins(*all, options);
  // Before mounting: MCP clients start threads, and the workers' zygote is forked before any.
  if (auto bound = sandbox_builtins(*all, *sandboxed, flags); !bound) return fail(bound.error());
  std::vector<std::string> wanted;
  std::stringstream ss(flags.tools);
  for (std::string name; std::getline(ss, name, ',');)
    if (!name.empty()) wanted.push_back(name);
  if (wanted.empty()) {
    if (!flags.mcp.empty())
      if (auto ok = mount_mcp(*all, flags.mcp, {}, *sandboxed); !ok) return fail(ok.error());
    return all;
  }
  auto kept = std::make_unique<tool_registry>();
  for (const auto& name : wanted)
    if (auto entry = all->find(name))
      kept->add(entry->definition, entry->handler, {.replace = true, .compiled_input = entry->input_validator});
  if (!flags.mcp.empty())
    if (auto ok = mount_mcp(*kept, flags.mcp, wanted, *sandboxed); !ok) return fail(ok.error());
  for (const auto& name : wanted) {
    if (kept->find(name)) continue;
    if (auto hint = gated_tool_hint(name, flags); !hint.empty()) return fail(errc::not_found, hint);
    std::string available;
    for (const auto& n : all->names()) available += (available.empty() ? "" : ", ") + n;
    if (!flags.mcp.empty()) available += ", and the --mcp servers' tools as SERVER__TOOL";
    return fail(errc::not_found, "no tool named \"" + name + "\"; available: " + available);
  }
  return kept;
}

}  // namespace
}  // namespace tooluse::cli
