// tooluse mcp list / tooluse mcp call: use any MCP server's tools from the command line, over
// stdio (--server 'CMD ARGS') or Streamable HTTP (--url). Registers under the "mcp" command
// that cmd_mcp.cpp creates. Exit 0 ok, 1 the tool returned an error or the server failed,
// 2 bad usage.
#include <iostream>
#include <map>

#include <unistd.h>

#include <optional>

#include "agent_setup.hpp"
#include "cli.hpp"
#include "conventions.hpp"
#include "tooluse/mcp/client.hpp"
#include "tooluse/mcp/mount.hpp"

namespace tooluse::cli {
namespace {

struct client_flags {
  std::string server;  ///< 'CMD ARGS' for stdio
  std::string url;
  std::vector<std::string> headers;  ///< "Name: value"
  std::vector<std::string> env;      ///< "NAME=value" for the stdio server
  std::string cwd;
  std::string protocol = "auto";
  std::chrono::milliseconds timeout{60000};
  bool json_out = false;
  bool quiet = false;
  std::string tool;
  std::vector<std::string> args;
  bool task = false;
  bool yes = false;
};

void add_client_flags(CLI::App& cmd, client_flags& f) {
  cmd.add_option("--server", f.server,
                 "Run this stdio server, e.g. 'npx -y @modelcontextprotocol/server-memory'");
  cmd.add_option("--url", f.url,
                 "Connect to this Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp");
  // One value per occurrence: a repeatable option must not swallow the tool name and arguments
  // that follow it (`--header 'Authorization: Bearer X' echo text=hi`).
  cmd.add_option("--header", f.headers, "HTTP header 'Name: value' (repeatable)")
      ->allow_extra_args(false);
  cmd.add_option("--env", f.env, "NAME=value for the stdio server's environment (repeatable)")
      ->allow_extra_args(false);
  cmd.add_option("--cwd", f.cwd, "Working folder of the stdio server");
  cmd.add_option("--protocol", f.protocol, "Protocol revision: auto, 2026-07-28, 2025-11-25, ...")
      ->capture_default_str();
  add_duration_option(cmd, "--timeout", f.timeout,
                      "How long to wait for an answer (500ms, 30s, 2m)");
  cmd.add_flag("--json", f.json_out, "Print the server's JSON");
  cmd.add_flag("--quiet,-q", f.quiet, "Drop the server's stderr");
}

// server_from_flags turns --server/--url into a server_config; an error is a usage error.
result<mcp::server_config> server_from_flags(const client_flags& f) {
  if (f.server.empty() == f.url.empty())
    return fail(errc::invalid_argument, "give exactly one of --server 'CMD ARGS' and --url URL");
  mcp::server_config s;
  if (!f.url.empty()) {
    if (f.url.rfind("http://", 0) != 0 && f.url.rfind("https://", 0) != 0)
      return fail(errc::invalid_argument, "--url \"" + f.url +
                                              "\" has no http:// or https://; add it, e.g. "
                                              "http://" +
                                              f.url);
    s = {.name = f.url, .transport = mcp::server_transport_kind::http, .url = f.url};
    for (const auto& h : f.headers) {
      auto colon = h.find(':');
      if (colon == std::string::npos || colon == 0)
        return fail(errc::invalid_argument, "--header needs 'Name: value', got \"" + h + "\"");
      auto value = h.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      s.headers[h.substr(0, colon)] = value;
    }
    return s;
  }
  auto words = mcp::split_command(f.server);
  if (!words) return fail(errc::invalid_argument, "--server: " + words.error().message);
  auto slash = (*words)[0].rfind('/');
  s = {.name = slash == std::string::npos ? (*words)[0] : (*words)[0].substr(slash + 1),
       .command = *words,
       .cwd = f.cwd};
  for (const auto& e : f.env) {
    auto eq = e.find('=');
    if (eq == std::string::npos || eq == 0)
      return fail(errc::invalid_argument, "--env needs NAME=value, got \"" + e + "\"");
    s.env[e.substr(0, eq)] = e.substr(eq + 1);
  }
  return s;
}

result<std::shared_ptr<mcp::client>> connect(const client_flags& f, const mcp::server_config& s) {
  std::function<void(std::string_view)> log;
  if (f.quiet) log = [](std::string_view) {};
  auto transport = mcp::make_transport(s, log);
  if (!transport) return fail(transport.error());
  mcp::client_options o{.client_info = {.name = "tooluse", .version = TOOLUSE_VERSION},
                        .protocol_version = f.protocol};
  o.request_timeout = f.timeout;
  // --timeout bounds the probe of "auto" too: a server that never answers server/discover costs
  // at most --timeout before the initialize fallback, not the library's 10 s.
  o.discover_timeout = std::min(o.discover_timeout, f.timeout);
  return mcp::client::connect(std::move(*transport), o);
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// url_hint says what to try when a --url without a path fails: MCP servers answer at a path
// (usually /mcp), and the bare origin gives a 404 or an HTML page.
std::string url_hint(const client_flags& f) {
  if (f.url.empty()) return "";
  auto scheme = f.url.find("://");
  auto slash = f.url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  if (slash != std::string::npos && f.url.substr(slash) != "/") return "";
  std::string base = f.url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return "The URL has no path; MCP servers usually answer at one: try --url " + base + "/mcp";
}

int server_failed(const client_flags& f, const error& e) {
  return report_error(exit_status::failed, e.message, url_hint(f));
}

// unknown_tool answers a tool name the server does not have with the nearest one it has.
int unknown_tool(const client_flags& f, const json& tools) {
  std::vector<std::string> names;
  for (const auto& t : tools) names.push_back(t.value("name", ""));
  std::string available;
  for (const auto& n : names) available += (available.empty() ? "" : ", ") + n;
  auto best = closest(f.tool, names);
  return report_error(exit_status::usage,
                      "the server has no tool \"" + f.tool + "\"" +
                          (best.empty() ? "" : "; did you mean \"" + best + "\"?"),
                      names.empty() ? "The server lists no tools." : "Its tools: " + available);
}

int list_tools(const client_flags& f) {
  auto server = server_from_flags(f);
  if (!server) return usage_error("mcp list: " + server.error().message);
  auto c = connect(f, *server);
  if (!c) return server_failed(f, c.error());
  auto tools = (*c)->list_tools();
  if (!tools) return server_failed(f, tools.error());
  if (f.json_out) {
    std::cout << dump_json(json(*tools), 2) << "\n";
    return 0;
  }
  for (const auto& t : *tools) {
    std::string params;
    const json& schema = t.value("inputSchema", json::object());
    if (schema.contains("properties") && schema["properties"].is_object())
      for (const auto& [k, v] : schema["properties"].items())
        params += (params.empty() ? "" : ", ") + k;
    std::cout << t.value("name", "?") << "(" << params << ")";
    if (auto d = first_line(t.value("description", "")); !d.empty()) std::cout << "  " << d;
    std::cout << "\n";
  }
  return 0;
}

void print_result(const json& r) {
  for (const auto& b : r.value("content", json::array())) {
    const std::string type = b.value("type", "");
    if (type == "text")
      std::cout << b.value("text", "") << "\n";
    else if (type == "image" || type == "audio")
      std::cout << "[" << type << " " << b.value("mimeType", "") << ", "
                << b.value("data", "").size() << " base64 characters]\n";
    else if (type == "resource_link")
      std::cout << "[link " << b.value("uri", "") << "]\n";
    else if (type == "resource") {
      const json& res = b.value("resource", json::object());
      if (res.contains("text"))
        std::cout << res.value("text", "") << "\n";
      else
        std::cout << "[resource " << res.value("uri", "") << "]\n";
    }
  }
  if (r.value("content", json::array()).empty() && r.contains("structuredContent"))
    std::cout << dump_json(r["structuredContent"], 2) << "\n";
}

int call_tool(const client_flags& f) {
  auto server = server_from_flags(f);
  if (!server) return usage_error("mcp call: " + server.error().message);
  auto c = connect(f, *server);
  if (!c) return server_failed(f, c.error());
  json schema = json::object();
  bool destructive = false;
  if (auto tools = (*c)->list_tools()) {
    bool found = false;
    for (const auto& t : *tools)
      if (t.value("name", "") == f.tool) {
        schema = t.value("inputSchema", json::object());
        const json a = t.value("annotations", json::object());
        auto hint = [&](const char* k) {
          return a.contains(k) && a[k].is_boolean() ? std::optional<bool>(a[k].get<bool>())
                                                    : std::nullopt;
        };
        destructive = destructive_by_hints(hint("destructiveHint"), hint("readOnlyHint"));
        found = true;
      }
    if (!found) return unknown_tool(f, json(*tools));
  }
  auto args = parse_tool_arguments(f.args, schema);
  if (!args) return usage_error("mcp call " + f.tool + ": " + args.error().message);
  // The approval rule of every command that runs tools: a tool its server calls destructive is
  // asked about on the terminal, refused without one unless --yes is given.
  if (destructive && !f.yes) {
    if (!::isatty(STDIN_FILENO)) return needs_approval("mcp call", f.tool);
    tool def{.name = f.tool};
    tool_call call = tool_call::from_text("cli", f.tool, dump_json(*args));
    auto d = approval_prompt(false)({.definition = def, .call = call, .session = ""});
    if (d.kind != exec::approval_kind::approve)
      return report_error(exit_status::failed, "mcp call: " + d.message);
  }
  mcp::call_options opts;
  if (f.task) {
    // --task: run the call as a task and show its status until the result arrives.
    opts.as_task = true;
    opts.on_task = [](const mcp::task_update& u) {
      std::cerr << "task " << u.task_id << ": " << u.status
                << (u.status_message.empty() ? "" : " (" + u.status_message + ")") << "\n";
    };
    opts.on_progress = [](const mcp::progress_update& p) {
      std::cerr << "progress " << p.progress << (p.total ? "/" + std::to_string(*p.total) : "")
                << (p.message.empty() ? "" : " " + p.message) << "\n";
    };
  }
  auto r = (*c)->call_tool_raw(f.tool, *args, opts);
  if (!r) return server_failed(f, r.error());
  if (f.json_out)
    std::cout << dump_json(*r, 2) << "\n";
  else
    print_result(*r);
  return r->value("isError", false) ? 1 : 0;
}

CLI::App* mcp_command(CLI::App& app) {
  try {
    return app.get_subcommand("mcp");
  } catch (const CLI::OptionNotFound&) {
    auto* mcp_cmd = app.add_subcommand(
        "mcp", "Serve tools over the Model Context Protocol, or use an MCP server's");
    mcp_cmd->require_subcommand(1);
    return mcp_cmd;
  }
}

const char* list_footer =
    "Examples:\n"
    "  tooluse mcp list --server 'npx -y @modelcontextprotocol/server-memory'\n"
    "  tooluse mcp list --url http://127.0.0.1:3001/mcp --header 'Authorization: Bearer $TOKEN' "
    "--json\n"
    "Exit status: 0 ok, 1 the server failed, 2 bad usage.";
const char* call_footer =
    "Arguments: one JSON object, key=value pairs typed by the tool's input schema\n"
    "(numbers, true/false, JSON for objects and arrays, text otherwise), or - for a JSON\n"
    "object on stdin.\n"
    "Examples:\n"
    "  tooluse mcp call --server 'tooluse mcp serve --stdio' calculator expression='2**10'\n"
    "  tooluse mcp call --server 'npx -y @modelcontextprotocol/server-everything' add a=2 b=40\n"
    "  tooluse mcp call --url http://127.0.0.1:3001/mcp echo '{\"message\": \"hi\"}' --json\n"
    "  tooluse mcp call --url http://127.0.0.1:3001/mcp slow_compute seconds=5 --task\n"
    "A tool the server marks destructive (destructiveHint, not readOnlyHint) is asked about\n"
    "first; --yes approves.\n"
    "Exit status: 0 ok, 1 the tool returned an error, the server failed or the call was refused,\n"
    "2 bad usage, or a destructive tool with no terminal to ask on and no --yes.";

void setup_mcp_client(CLI::App& app, app_state& state) {
  auto* mcp_cmd = mcp_command(app);
  auto lo = std::make_shared<client_flags>();
  auto* list = mcp_cmd->add_subcommand("list", "List the tools of an MCP server (stdio or HTTP)");
  add_client_flags(*list, *lo);
  list->footer(list_footer);
  list->callback([lo, &state] { state.action = [lo] { return list_tools(*lo); }; });
  auto co = std::make_shared<client_flags>();
  auto* call = mcp_cmd->add_subcommand("call", "Call a tool of an MCP server (stdio or HTTP)");
  add_client_flags(*call, *co);
  call->add_option("tool", co->tool, "The tool's name")->required();
  call->add_option("args", co->args, "'JSON', key=value ..., or - for JSON on stdin");
  add_yes_flag(*call, co->yes);
  call->add_flag("--task", co->task,
                 "Run the call as an MCP task (2025-11-25: ask for one; 2026-07-28: the server "
                 "decides) and print its status on stderr until the result arrives");
  call->footer(call_footer);
  call->callback([co, &state] { state.action = [co] { return call_tool(*co); }; });
}

// After cmd_mcp.cpp (40), which creates the "mcp" command.
const command_registrar mcp_client_registrar(41, &setup_mcp_client);

}  // namespace
}  // namespace tooluse::cli
