// tooluse trace serve FILE... [--http ADDR]: a web page showing runs recorded with --trace: the
// conversation, each model request with its tokens and time, each tool call with its arguments,
// result, duration and errors, and a timeline where parallel calls sit side by side. The page
// follows a trace that is still being written.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli.hpp"
#include "trace_server.hpp"

namespace tooluse::cli {

std::string trace_page(const std::string& id, const json& initial) {
  static const std::string page =
#include "trace_page.inc"
      ;
  std::string data = dump_json(initial);
  // Inside <script>, "</" could end the element early; "<\/" is the same JSON string.
  for (size_t pos = 0; (pos = data.find("</", pos)) != std::string::npos; pos += 3)
    data.replace(pos, 2, "<\\/");
  std::string out = page;
  auto replace = [&](const std::string& key, const std::string& value) {
    if (auto pos = out.find(key); pos != std::string::npos) out.replace(pos, key.size(), value);
  };
  replace("@RUN_ID@", id);  // ids are [A-Za-z0-9_.-] (trace_files_source)
  replace("@INITIAL@", data);
  return out;
}

namespace {

struct trace_options {
  std::vector<std::string> files;
  std::string http = "127.0.0.1:0";
};

int serve(const trace_options& o) {
  for (const auto& f : o.files)
    if (!std::filesystem::exists(f))
      return usage_error("trace serve: no trace file \"" + f +
                         "\"; write one with tooluse run --trace FILE");
  // HOST:PORT, [V6]:PORT, HOST or :PORT.
  std::string host = o.http, port_text;
  auto bad = [&] {
    return usage_error("trace serve: --http \"" + o.http +
                       "\" is not HOST:PORT (e.g. 127.0.0.1:8080)");
  };
  if (!host.empty() && host[0] == '[') {
    auto close = host.find(']');
    if (close == std::string::npos) return bad();
    port_text = host.substr(close + 1);
    host = host.substr(1, close - 1);
    if (!port_text.empty() && port_text[0] != ':') return bad();
    if (!port_text.empty()) port_text.erase(0, 1);
  } else if (std::count(host.begin(), host.end(), ':') == 1) {
    auto c = host.find(':');
    port_text = host.substr(c + 1);
    host = host.substr(0, c);
  }
  unsigned long port = 0;
  if (!port_text.empty()) {
    if (port_text.find_first_not_of("0123456789") != std::string::npos || port_text.size() > 5)
      return bad();
    port = std::stoul(port_text);
    if (port > 65535) return bad();
  }
  if (host.empty()) host = "127.0.0.1";
  auto ok = serve_traces(trace_files_source(o.files), host, static_cast<unsigned short>(port));
  if (!ok) {
    std::cerr << "tooluse: " << ok.error().message << "\n";
    return 1;
  }
  return 0;
}

void setup(CLI::App& app, app_state& state) {
  auto o = std::make_shared<trace_options>();
  auto* trace = app.add_subcommand("trace", "Look at runs recorded with tooluse run --trace");
  trace->require_subcommand(1);
  auto* s = trace->add_subcommand("serve", "Show traces as a web page (live while still written)");
  s->add_option("files", o->files, "Trace files written by tooluse run --trace FILE")->required();
  s->add_option("--http", o->http, "Address to listen on, HOST:PORT (port 0: a free one)")
      ->capture_default_str();
  s->footer(
      "The address is printed on stderr (tooluse: trace viewer http://127.0.0.1:PORT/).\n"
      "The page is served by tooluse itself and loads nothing from elsewhere.\n"
      "Example:\n  tooluse run \"What is 13! / 7?\" --trace run.jsonl &\n  tooluse trace serve "
      "run.jsonl --http 127.0.0.1:8080\n"
      "Exit status: 1 the address cannot be used, 2 bad usage.");
  s->callback([o, &state] { state.action = [o] { return serve(*o); }; });
}

const command_registrar reg(50, &setup);

}  // namespace
}  // namespace tooluse::cli
