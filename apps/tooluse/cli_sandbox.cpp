// --sandbox NAME[=MB],...: the tool metadata `sandboxed` and `memory_limit_mb`, set from the
// command line (docs/sandbox.md, "Tool metadata"). A built-in C++ tool then runs in a worker
// process, shell and python get that memory limit, and a mounted tool (SERVER__TOOL) has its
// server started in the sandbox.
#include <filesystem>
#include <sstream>

#include "cli.hpp"
#include "tooluse/tools/workers.hpp"

namespace tooluse::cli {
namespace {

bool is_code_tool(const std::string& name) { return name == "shell" || name == "python"; }

}  // namespace

result<sandbox_requests> parse_sandbox_flag(const std::string& text) {
  sandbox_requests out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    std::string name = item.substr(0, eq);
    std::optional<std::size_t> mb;
    if (eq != std::string::npos) {
      const std::string v = item.substr(eq + 1);
      if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 7 ||
          std::stoul(v) == 0)
        return fail(errc::invalid_argument,
                    "--sandbox " + item + ": the memory limit must be a positive number of MB, "
                    "e.g. --sandbox calculator=256");
      mb = std::stoul(v);
    }
    if (name.empty())
      return fail(errc::invalid_argument, "--sandbox " + item + ": give a tool name, e.g. "
                                          "--sandbox calculator=256");
    out[name] = mb;
  }
  return out;
}

void apply_sandbox_to_builtins(const sandbox_requests& asked, builtin::builtin_options& o) {
  for (const auto& [name, mb] : asked) {
    if (!mb) continue;
    if (name == "shell") o.shell_config.policy.memory_limit_mb = *mb;
    if (name == "python") o.python_config.policy.memory_limit_mb = *mb;
  }
}

result<std::size_t> sandbox_builtins(tool_registry& reg, const sandbox_requests& asked,
                                     const registry_flags& flags) {
  std::size_t marked = 0;
  for (const auto& [name, mb] : asked) {
    if (is_code_tool(name) || name.find("__") != std::string::npos) continue;
    auto entry = reg.find(name);
    if (!entry) {
      if (auto hint = gated_tool_hint(name, flags); !hint.empty())
        return fail(errc::not_found, "--sandbox: " + hint);
      return fail(errc::not_found, "--sandbox: no built-in tool named \"" + name +
                                       "\" (a mounted MCP tool is named SERVER__TOOL)");
    }
    tool def = entry->definition;
    def.sandboxed = true;
    if (mb) def.memory_limit_mb = *mb;
    std::error_code ec;
    // The file tools work in --root; tools that reach the network keep it when --network.
    def.sandbox_policy.write_paths = {std::filesystem::canonical(flags.root, ec)};
    def.sandbox_policy.host_network = flags.network && def.annotations.open_world.value_or(false);
    reg.add(std::move(def), entry->handler, {.replace = true, .compiled_input = entry->input_validator});
    ++marked;
  }
  if (marked == 0) return 0;
  auto bound = start_tool_workers(reg);
  if (!bound) return fail(bound.error().code, "--sandbox: " + bound.error().message);
  return *bound;
}

status sandbox_servers(mcp::client_config& config, const sandbox_requests& asked) {
  for (const auto& [name, mb] : asked) {
    const auto sep = name.find("__");
    if (sep == std::string::npos) continue;
    const std::string server = name.substr(0, sep);
    mcp::server_config* found = nullptr;
    for (auto& s : config.servers)
      if (s.name == server) found = &s;
    if (!found)
      return fail(errc::not_found, "--sandbox " + name + ": no server \"" + server +
                                       "\" in the --mcp config");
    if (found->transport != mcp::server_transport_kind::stdio)
      return fail(errc::invalid_argument,
                  "--sandbox " + name + ": server \"" + server +
                      "\" is reached over HTTP; only a stdio server runs in the sandbox");
    if (!found->sandbox) found->sandbox = sandbox::policy{};
    if (mb) found->sandbox->memory_limit_mb = *mb;
  }
  return {};
}

}  // namespace tooluse::cli
