// mounted_server: an MCP server's tools in a tool_registry, forwarded over a client that is
// restarted (up to max_restarts times) on the next call after the server went away.
#include "tooluse/mcp/mount.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <set>
#include <thread>

#include "tooluse/describe.hpp"
#include "tooluse/mcp/http_client_transport.hpp"
#include "tooluse/mcp/stdio_client_transport.hpp"

namespace tooluse::mcp {

struct mounted_server::state : std::enable_shared_from_this<mounted_server::state> {
  server_config config;
  mount_options options;
  mutable std::mutex mutex;  // guards the fields below up to `restarts`
  std::shared_ptr<client> conn;
  std::shared_ptr<client> retired;  // a closed connection, released later from another thread
  std::uint64_t generation = 0;     // which connection an on_closed belongs to
  std::optional<error> down;        // why the server is down, while conn is null
  int restarts = 0;
  bool unmounted = false;
  std::mutex connect_mutex;   // one (re)connection at a time
  std::mutex registry_mutex;  // guards registry and mounted
  tool_registry* registry = nullptr;
  std::set<std::string> mounted;
  // list_changed is handled on a thread of our own: the notification may arrive on the
  // transport's reader thread, which must keep reading for our tools/list to be answered.
  std::mutex refresh_mutex;
  std::condition_variable refresh_cv;
  bool refresh_pending = false, stopping = false;
  std::thread refresher;

  void log(std::string_view line) const {
    std::string text = "[" + config.name + "] " + std::string(line);
    if (options.on_log) return options.on_log(text);
    text += "\n";
    std::fwrite(text.data(), 1, text.size(), stderr);
  }
};

namespace {

using state_ptr = std::shared_ptr<mounted_server::state>;

std::uint32_t fnv1a(std::string_view s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

// A server's Tool object as mount reads it (TOOLUSE_WIRE): a malformed one is skipped with a
// log line naming the path (`tools[2].annotations.readOnlyHint: expected boolean, got string
// "yes"`); fields a newer revision adds are ignored.
struct wire_annotations {
  std::optional<std::string> title;
  std::optional<bool> read_only_hint;
  std::optional<bool> destructive_hint;
  std::optional<bool> idempotent_hint;
  std::optional<bool> open_world_hint;
};
TOOLUSE_WIRE(wire_annotations, (title), (read_only_hint, "readOnlyHint"),
             (destructive_hint, "destructiveHint"), (idempotent_hint, "idempotentHint"),
             (open_world_hint, "openWorldHint"))

struct wire_tool {
  std::string name;
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::optional<json> input_schema;   ///< an object; anything else counts as none
  std::optional<json> output_schema;  ///< likewise
  std::optional<wire_annotations> annotations;
  std::optional<json> meta;
};
TOOLUSE_WIRE(wire_tool, (name), (title), (description), (input_schema, "inputSchema"),
             (output_schema, "outputSchema"), (annotations), (meta, "_meta"))

tool definition_from(const wire_tool& w, const std::string& name, const server_config& config) {
  const std::string& server = config.name;
  tool t{.name = name};
  t.description = w.description.value_or("");
  t.title = w.title.value_or("");
  if (w.input_schema && w.input_schema->is_object()) t.input_schema = *w.input_schema;
  if (w.output_schema && w.output_schema->is_object()) t.output_schema = *w.output_schema;
  if (w.annotations) {
    const wire_annotations& a = *w.annotations;
    t.annotations.read_only = a.read_only_hint;
    t.annotations.destructive = a.destructive_hint;
    t.annotations.idempotent = a.idempotent_hint;
    t.annotations.open_world = a.open_world_hint;
    if (t.title.empty()) t.title = a.title.value_or("");
  }
  t.category = server;
  t.tags = {"mcp", "mcp:" + server};
  if (w.meta && w.meta->is_object()) t.meta = *w.meta;
  if (config.sandbox) {  // the server's process runs in the sandbox: every call of its tools does
    t.sandboxed = true;
    t.memory_limit_mb = config.sandbox->memory_limit_mb;
    t.sandbox_policy = *config.sandbox;
    t.sandboxed_by_handler = true;
  }
  return t;
}


result<std::shared_ptr<client>> connect_client(const state_ptr& s);

// current_client returns the live client, or starts the server again when it went away and
// restarts are left.
result<std::shared_ptr<client>> current_client(const state_ptr& s) {
  std::lock_guard connecting(s->connect_mutex);
  std::string reason;
  {
    std::lock_guard lock(s->mutex);
    if (s->unmounted)
      return fail(errc::not_found, "MCP server \"" + s->config.name + "\" was unmounted");
    if (s->conn) return s->conn;
    reason = s->down ? s->down->message : "not connected";
    if (s->restarts >= s->options.max_restarts)
      return fail(errc::io_error, "MCP server \"" + s->config.name +
                                      "\" is down and was not restarted "
                                      "again: " +
                                      reason);
    ++s->restarts;
  }
  s->log("restarting the server");
  auto c = connect_client(s);
  if (!c)
    return fail(c.error().code, "MCP server \"" + s->config.name + "\" went away (" + reason +
                                    ") and could not be restarted: " + c.error().message);
  return c;
}

tool_result forward_call(const std::weak_ptr<mounted_server::state>& weak,
                         const std::string& remote, const json& args, call_context& ctx) {
  auto s = weak.lock();
  if (!s) return tool_result::error("the MCP server behind this tool was unmounted");
  auto c = current_client(s);
  if (!c) return tool_result::error(c.error().message);
  call_options co{.stop = ctx.stop};
  if (!ctx.idempotency_key.empty()) co.meta[std::string(meta_idempotency_key)] = ctx.idempotency_key;
  if (ctx.on_progress)
    co.on_progress = [&ctx](const progress_update& p) {
      ctx.report_progress(p.progress, p.total, p.message);
    };
  auto r = (*c)->call_tool(remote, args.is_object() ? args : json::object(), co);
  if (r) return std::move(*r);
  return tool_result::error("tool \"" + remote + "\" of MCP server \"" + s->config.name +
                            "\" failed: " + r.error().message);
}

// apply_tools makes the registry hold exactly `tools` (the server's Tool objects).
void apply_tools(const state_ptr& s, const std::vector<json>& tools) {
  std::lock_guard lock(s->registry_mutex);
  if (!s->registry) return;
  std::set<std::string> now;
  std::weak_ptr<mounted_server::state> weak = s;
  for (std::size_t i = 0; i < tools.size(); ++i) {
    auto w = tooluse::decode<wire_tool>(tools[i], "tools[" + std::to_string(i) + "]");
    if (!w) {
      s->log("skipping a tool: " + w.error().message);
      continue;
    }
    const std::string& remote = w->name;
    std::string name = mounted_tool_name(s->config.name, remote, s->options.separator);
    const auto& inc = s->options.include;
    if (!inc.empty() && std::find(inc.begin(), inc.end(), name) == inc.end()) continue;
    // Taken by another of this server's tools, or by a tool this mount does not own (a local
    // tool, or another server's tool that maps to the same name): never replaced.
    if (now.count(name) || (!s->mounted.count(name) && s->registry->find(name))) {
      s->log("skipping tool \"" + remote + "\": its name \"" + name + "\" is taken");
      continue;
    }
    try {
      s->registry->add(definition_from(*w, name, s->config),
                       [weak, remote](const json& args, call_context& ctx) {
                         return forward_call(weak, remote, args, ctx);
                       },
                       {.replace = true});
      now.insert(name);
    } catch (const std::invalid_argument& e) {
      s->log("skipping tool \"" + remote + "\": " + e.what());
    }
  }
  for (const auto& old : s->mounted)
    if (!now.count(old)) s->registry->remove(old);
  s->mounted = std::move(now);
}

status refresh_tools(const state_ptr& s) {
  std::shared_ptr<client> c;
  {
    std::lock_guard lock(s->mutex);
    c = s->conn;
  }
  if (!c) return fail(errc::io_error, "MCP server \"" + s->config.name + "\" is not connected");
  auto tools = c->list_tools({.refresh = true});
  if (!tools) return fail(tools.error());
  apply_tools(s, *tools);
  return {};
}

void on_server_closed(const std::weak_ptr<mounted_server::state>& weak, std::uint64_t gen,
                      const error& reason) {
  auto s = weak.lock();
  if (!s) return;
  {
    // The client is not destroyed here: this runs on its own thread.
    std::lock_guard lock(s->mutex);
    if (s->generation != gen || s->unmounted) return;
    s->retired = std::move(s->conn);
    s->down = reason;
  }
  const bool again = s->restarts < s->options.max_restarts;
  s->log("the server stopped: " + reason.message +
         (again ? "; it will be restarted on the next call" : "; it will not be restarted"));
}

result<std::shared_ptr<client>> connect_client(const state_ptr& s) {
  auto transport = make_transport(
      s->config,
      [s_weak = std::weak_ptr(s)](std::string_view line) {
        if (auto st = s_weak.lock()) st->log(line);
      },
      s->options.shutdown_grace);
  if (!transport) return fail(transport.error());
  std::uint64_t gen = 0;
  {
    std::lock_guard lock(s->mutex);
    gen = ++s->generation;
  }
  std::weak_ptr<mounted_server::state> weak = s;
  client_options co = s->options.client;
  co.on_tools_changed = [weak] {
    if (auto st = weak.lock()) {
      std::lock_guard lock(st->refresh_mutex);
      st->refresh_pending = true;
      st->refresh_cv.notify_all();
    }
  };
  co.on_closed = [weak, gen](const error& reason) { on_server_closed(weak, gen, reason); };
  if (!co.on_warning)  // dropped server messages go to the mount's log, named by server
    co.on_warning = [weak](std::string_view line) {
      if (auto st = weak.lock()) st->log(line);
    };
  auto c = client::connect(std::move(*transport), co);
  if (!c) return fail(c.error());
  std::shared_ptr<client> retired;
  {
    std::lock_guard lock(s->mutex);
    s->conn = *c;
    s->down.reset();
    retired = std::move(s->retired);
  }
  if (auto ok = refresh_tools(s); !ok) s->log("cannot list tools: " + ok.error().message);
  return c;
}

void refresh_loop(const std::weak_ptr<mounted_server::state>& weak) {
  for (;;) {
    auto s = weak.lock();
    if (!s) return;
    {
      std::unique_lock lock(s->refresh_mutex);
      // Wake up now and then to notice a state destroyed without unmount().
      s->refresh_cv.wait_for(lock, std::chrono::seconds(1),
                             [&] { return s->refresh_pending || s->stopping; });
      if (s->stopping) return;
      if (!s->refresh_pending) continue;
      s->refresh_pending = false;
    }
    if (auto ok = refresh_tools(s); !ok) s->log("cannot refresh tools: " + ok.error().message);
  }
}

}  // namespace

result<std::unique_ptr<client_transport>> make_transport(
    const server_config& server, std::function<void(std::string_view)> on_log,
    std::chrono::milliseconds shutdown_grace) {
  if (server.transport == server_transport_kind::http) {
    std::vector<std::pair<std::string, std::string>> headers(server.headers.begin(),
                                                             server.headers.end());
    try {
      return make_http_client_transport({.url = server.url,
                                         .headers = std::move(headers),
                                         .authorizer = make_authorizer(server)});
    } catch (const std::invalid_argument& e) {
      return fail(errc::invalid_argument, "server \"" + server.name + "\": " + e.what());
    }
  }
  if (server.command.empty() || server.command[0].empty())
    return fail(errc::invalid_argument, "server \"" + server.name + "\" has no command");
  return std::make_unique<stdio_client_transport>(
      stdio_server_options{.command = server.command,
                           .env = server.env,
                           .cwd = server.cwd,
                           .name = server.name,
                           .on_log = std::move(on_log),
                           .shutdown_grace = shutdown_grace,
                           .sandbox = server.sandbox});
}

std::string mounted_tool_name(std::string_view server, std::string_view tool,
                              std::string_view separator) {
  std::string joined = std::string(server) + std::string(separator) + std::string(tool);
  std::string name = joined;
  for (char& c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) c = '_';
  }
  if (name.size() > 128) {
    char hash[16];
    std::snprintf(hash, sizeof hash, "_%08x", static_cast<unsigned>(fnv1a(joined)));
    name = name.substr(0, 119) + hash;
  }
  return name;
}

mounted_server::mounted_server(std::shared_ptr<state> s) : state_(std::move(s)) {}

mounted_server::~mounted_server() { unmount(); }

result<std::shared_ptr<mounted_server>> mounted_server::mount(tool_registry& registry,
                                                              server_config server,
                                                              mount_options options) {
  if (server.disabled)
    return fail(errc::invalid_argument, "MCP server \"" + server.name + "\" is disabled");
  auto s = std::make_shared<state>();
  s->config = std::move(server);
  s->options = std::move(options);
  s->registry = &registry;
  {
    std::lock_guard connecting(s->connect_mutex);
    auto c = connect_client(s);
    if (!c) return fail(c.error());
  }
  s->refresher = std::thread(refresh_loop, std::weak_ptr<state>(s));
  return std::make_shared<mounted_server>(s);
}

const std::string& mounted_server::name() const { return state_->config.name; }

std::vector<std::string> mounted_server::tool_names() const {
  std::lock_guard lock(state_->registry_mutex);
  return {state_->mounted.begin(), state_->mounted.end()};
}

std::shared_ptr<client> mounted_server::connection() const {
  std::lock_guard lock(state_->mutex);
  return state_->conn;
}

status mounted_server::refresh() { return refresh_tools(state_); }

void mounted_server::unmount() {
  {
    std::lock_guard lock(state_->refresh_mutex);
    state_->stopping = true;
    state_->refresh_cv.notify_all();
  }
  if (state_->refresher.joinable()) {
    if (state_->refresher.get_id() == std::this_thread::get_id())
      state_->refresher.detach();
    else
      state_->refresher.join();
  }
  {
    std::lock_guard lock(state_->registry_mutex);
    if (state_->registry)
      for (const auto& n : state_->mounted) state_->registry->remove(n);
    state_->mounted.clear();
    state_->registry = nullptr;
  }
  std::shared_ptr<client> c, retired;
  {
    std::lock_guard lock(state_->mutex);
    state_->unmounted = true;
    c = std::move(state_->conn);
    retired = std::move(state_->retired);
  }
  if (c) c->close();
}

void mounted_server::detach() {
  std::lock_guard lock(state_->registry_mutex);
  state_->registry = nullptr;
  state_->mounted.clear();
}

result<std::vector<std::shared_ptr<mounted_server>>> mount_servers(tool_registry& registry,
                                                                   const client_config& config,
                                                                   const mount_options& options) {
  std::vector<std::shared_ptr<mounted_server>> mounts;
  for (const auto& server : config.servers) {
    if (server.disabled) continue;
    auto m = mounted_server::mount(registry, server, options);
    if (!m) return fail(m.error().code, "MCP server \"" + server.name + "\": " + m.error().message);
    mounts.push_back(std::move(*m));
  }
  return mounts;
}

void bind_to_registry(tool_registry& registry,
                      std::vector<std::shared_ptr<mounted_server>> mounts) {
  struct anchor {
    std::vector<std::shared_ptr<mounted_server>> mounts;
    ~anchor() {
      for (auto& m : mounts) m->detach();  // the registry is going: do not touch it
    }
  };
  auto a = std::make_shared<anchor>(anchor{std::move(mounts)});
  registry.on_change([a](const registry_event&) {});
}

}  // namespace tooluse::mcp
