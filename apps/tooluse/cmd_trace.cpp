// tooluse trace serve [FILE | RUN_ID]... [--store LOCATION] [--http ADDR]: a web page showing
// runs recorded with --trace or kept in the durable run store: the
// conversation, each model request with its tokens and time, each tool call with its arguments,
// result, duration and errors, and a timeline where parallel calls sit side by side. The page
// follows a trace that is still being written.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <tuple>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "durable.hpp"
#include "trace_server.hpp"

namespace tooluse::cli {

namespace {

// script_json writes `j` for inside a <script>: "</script" or "<!--" in the data could change
// how the page is parsed; "<" occurs in JSON only inside strings, where "\u003c" is the same
// character.
std::string script_json(const json& j) {
  std::string data = dump_json(j), out;
  for (char c : data) c == '<' ? out += "\\u003c" : out += c;
  return out;
}

// filled puts each value in place of its key's first occurrence in the page template; keys are
// found in the template only, never in values already put in.
std::string filled(const std::string& page,
                   const std::vector<std::pair<std::string, json>>& values) {
  std::vector<std::tuple<std::size_t, std::size_t, std::string>> at;  // position, length, text
  for (const auto& [key, value] : values)
    if (auto pos = page.find(key); pos != std::string::npos)
      at.emplace_back(pos, key.size(), script_json(value));
  std::sort(at.begin(), at.end());
  std::string out;
  std::size_t from = 0;
  for (const auto& [pos, length, text] : at) {
    out.append(page, from, pos - from);
    out += text;
    from = pos + length;
  }
  return out.append(page, from);
}

}  // namespace

std::string trace_page(const std::string& id, const json& initial) {
  static const std::string page =
#include "trace_page.inc"
      ;
  // RUN_ID is a JS string literal, whatever the id holds.
  return filled(page, {{"@RUN_ID@", json(id)}, {"@INITIAL@", initial}});
}

std::string runs_page(const json& summaries) {
  static const std::string page =
#include "runs_page.inc"
      ;
  return filled(page, {{"@RUNS@", summaries}});
}

namespace {

struct trace_options {
  std::vector<std::string> args;  ///< trace files, and run ids of the store
  std::string store;
  std::string http = "127.0.0.1:0";
};

// sources sorts the arguments into trace files (those that exist) and run ids of the store
// (--store, or TOOLUSE_STORE when an argument is no file or there is none). With a store and
// no run id, every stored run is listed.
result<std::shared_ptr<run_source>> sources(const trace_options& o) {
  std::vector<std::string> files, ids;
  for (const auto& a : o.args) (std::filesystem::is_regular_file(a) ? files : ids).push_back(a);
  std::string location = store_location(o.store);
  bool use_store = !o.store.empty() || !ids.empty() || o.args.empty();
  if (use_store && location.empty()) {
    if (!ids.empty())
      return fail(errc::invalid_argument,
                  "trace serve: no trace file \"" + ids.front() +
                      "\"; write one with tooluse run --trace FILE, or pass --store to show "
                      "a stored run");
    return fail(errc::invalid_argument,
                "trace serve: give a trace file (tooluse run --trace FILE) or a run store "
                "(--store FILE|postgresql://... or TOOLUSE_STORE)");
  }
  std::vector<std::shared_ptr<run_source>> list;
  if (!files.empty()) list.push_back(trace_files_source(files));
  if (use_store) {
    // A viewer only reads: a SQLite file that is not there is a mistake, not a store to create.
    if (!store::is_postgres(location) && !std::filesystem::exists(location))
      return fail(errc::invalid_argument, "trace serve: no run store \"" + location +
                                              "\"; runs are stored with tooluse run --store FILE");
    auto store = store::open_store(location);
    if (!store) return fail(store.error());
    for (const auto& id : ids)
      if (auto r = (*store)->run(id); !r)
        return fail(errc::invalid_argument,
                    "trace serve: " + r.error().message +
                        (std::filesystem::exists(id) ? "" : " (and no trace file \"" + id + "\")"));
    list.push_back(store_runs_source(std::move(*store), ids));
  }
  return combined_source(std::move(list));
}

int serve(const trace_options& o) {
  auto source = sources(o);
  if (!source) {
    if (source.error().code == errc::invalid_argument) return usage_error(source.error().message);
    return report_error(exit_status::failed, "trace serve: " + source.error().message);
  }
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
  auto ok = serve_traces(*source, host, static_cast<unsigned short>(port));
  if (!ok) return report_error(exit_status::failed, ok.error().message);
  return exit_status::ok;
}

void setup_trace(CLI::App& app, app_state& state) {
  auto o = std::make_shared<trace_options>();
  auto* trace = app.add_subcommand(
      "trace", "Look at runs recorded with tooluse run --trace or kept in a run store");
  trace->require_subcommand(1);
  auto* s = trace->add_subcommand(
      "serve", "Show runs as a web page: trace files or stored runs (live while still written)");
  complete_with(s->add_option("runs", o->args,
                              "Trace files written by tooluse run --trace FILE, or run ids of "
                              "the --store (none: every stored run)"),
                value_source::run_ids);
  s->add_option("--store", o->store,
                "Show runs of this store: a SQLite file or a postgresql:// URL (default "
                "$TOOLUSE_STORE)");
  s->add_option("--http", o->http, "Address to listen on, HOST:PORT (port 0: a free one)")
      ->capture_default_str();
  s->footer(
      "The address is printed on stderr (tooluse: trace viewer http://127.0.0.1:PORT/).\n"
      "The page is served by tooluse itself and loads nothing from elsewhere.\n"
      "Examples:\n  tooluse run \"What is 13! / 7?\" --trace run.jsonl &\n  tooluse trace serve "
      "run.jsonl --http 127.0.0.1:8080\n"
      "  tooluse trace serve --store runs.db            # every stored run, newest first\n"
      "  tooluse trace serve --store runs.db run-1234   # one of them\n"
      "Exit status: 1 the address or the store cannot be used, 2 bad usage (e.g. an unknown "
      "run id).");
  s->callback([o, &state] { state.action = [o] { return serve(*o); }; });
}

const command_registrar trace_registrar(50, &setup_trace);

}  // namespace
}  // namespace tooluse::cli
