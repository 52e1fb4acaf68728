// tooluse: the command-line tool. Subcommands live in cmd_*.cpp and register themselves.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "conventions.hpp"
#include "tooluse/telemetry/trace.hpp"

namespace tooluse::cli {
namespace {
std::vector<std::pair<int, command_setup>>& registrars() {
  static std::vector<std::pair<int, command_setup>> r;
  return r;
}
}  // namespace

command_registrar::command_registrar(int order, command_setup setup) {
  registrars().emplace_back(order, setup);
}

bool read_text_file(const std::string& path, std::string& out) {
  if (path == "-") {
    out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

namespace {

std::string env_var(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// telemetry_env_usable checks the OpenTelemetry variables the exporter cannot honour, which it
// would otherwise ignore silently (spans sent nowhere, or JSON sent to a gRPC port): it prints
// a warning that names the variable and the fix, and says not to export. The command still
// runs: telemetry never stops it.
bool telemetry_env_usable() {
  if (env_var("OTEL_SDK_DISABLED") == "true") return true;
  for (const char* name : {"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"}) {
    std::string protocol = env_var(name);
    if (protocol.empty()) continue;
    if (protocol == "http/json" || protocol == "http/protobuf") break;
    std::cerr << "tooluse: warning: " << name << "=" << protocol
              << " is not supported, so no spans are exported; tooluse sends OTLP over HTTP "
                 "(JSON): set "
              << name << "=http/json and point the endpoint at the collector's HTTP port (4318)\n";
    return false;
  }
  for (const char* name : {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"}) {
    std::string url = env_var(name);
    if (url.empty()) continue;
    if (url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0) break;
    std::cerr << "tooluse: warning: " << name << " \"" << url
              << "\" has no http:// or https://, so no spans are exported; write http://" << url
              << "\n";
    return false;
  }
  return true;
}

}  // namespace
}  // namespace tooluse::cli

int main(int argc, char** argv) {
  using namespace tooluse::cli;
  CLI::App app{"tooluse: tools for LLM agents: define, describe, call, loop, share over MCP"};
  app.name("tooluse");
  app.set_version_flag("--version,-V", std::string("tooluse ") + TOOLUSE_VERSION);
  app.require_subcommand(1);
  app.footer("Run 'tooluse COMMAND --help' for a command's options. Docs: docs/cli.md");
  app_state state;
  auto regs = registrars();
  std::stable_sort(regs.begin(), regs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, setup] : regs) setup(app, state);
  // The completion scripts' callback: what completes a command line (not a command a user types).
  if (argc >= 2 && std::string(argv[1]) == "__complete")
    return complete_line(app, std::vector<std::string>(argv + 2, argv + argc));
  if (int code = check_spelling(app, argc, argv); code >= 0) return code;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return report_parse_error(app, e);
  }
  if (!state.action) return usage_error("no command given; run 'tooluse --help'");
  // OpenTelemetry: spans go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set; the handle flushes
  // what is queued when the command returns.
  auto tracing = telemetry_env_usable() ? tooluse::telemetry::install_from_env("tooluse")
                                        : tooluse::telemetry::exporter_handle{};
  try {
    return state.action();
  } catch (const std::exception& e) {
    return report_error(exit_status::usage, e.what());
  }
}
