// tooluse: the command-line tool. Subcommands live in cmd_*.cpp and register themselves.
#include <algorithm>
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

int usage_error(const std::string& message) {
  std::cerr << "tooluse: " << message << "\n";
  return 2;
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
    app.exit(e);
    return 2;
  }
  if (!state.action) return usage_error("no command given; run 'tooluse --help'");
  // OpenTelemetry: spans go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set; the handle flushes
  // what is queued when the command returns.
  auto tracing = tooluse::telemetry::install_from_env("tooluse");
  try {
    return state.action();
  } catch (const std::exception& e) {
    std::cerr << "tooluse: " << e.what() << "\n";
    return 2;
  }
}
