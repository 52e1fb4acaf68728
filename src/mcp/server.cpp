// tooluse::mcp::server: registration, sessions, notifications and the request context.
#include <algorithm>
#include <stdexcept>
#include <stop_token>
#include <utility>

#include "mcp/params.hpp"
#include "mcp/server_impl.hpp"
#include "tooluse/json_build.hpp"
#include "tooluse/thread_cache.hpp"

namespace tooluse::mcp {

namespace {

using tool_lookups = tooluse::detail::thread_cache<tool_entry>;

// needs_approval turns the result of a deferred (never approved) call into the tool error the
// client sees: MCP has no way to resume it later.
tool_result needs_approval(const std::string& name, const exec::pending_approval& p) {
  return tool_result::error("tool \"" + name + "\" is dangerous and was not run: " + p.reason +
                            "; this server has no approval policy that allows it (start "
                            "`tooluse mcp serve` with --yes to allow dangerous tools)");
}

// outcome_meta marks the result of an MCP handler that answered with something other than a
// tool result (kept in the peer): the executor only carries tool results.
constexpr const char* outcome_meta = "io.tooluse/mcp-outcome";

// server_tool makes an add_tool handler a registry handler: it reaches its request through
// the call's peer, with the call's stop token (the executor's timeout or the cancellation).
tool_handler server_tool(std::string name, mcp_tool_handler handler) {
  return [name = std::move(name), handler = std::move(handler)](const json& args,
                                                                call_context& cc) -> tool_result {
    auto* peer = dynamic_cast<request_peer*>(cc.peer.get());
    if (!peer)
      return tool_result::error("tool \"" + name +
                                "\" is an MCP tool: it runs only when an MCP client calls it "
                                "through the server it was added to");
    // The handler stops on the call's deadline or on its request's cancellation. The engine is
    // not told of the cancellation (run_tool), so the request ends when the handler returns:
    // what it sends while winding down (the cancellation of its own request to the client)
    // still goes on the request's stream, as when MCP tools ran outside the engine.
    std::stop_source stop;
    std::stop_callback on_deadline(cc.stop, [&] { stop.request_stop(); });
    std::stop_callback on_cancel(peer->request_stop(), [&] { stop.request_stop(); });
    request_context ctx = peer->for_call(stop.get_token());
    tool_outcome out = handler(args, ctx);
    if (auto* r = std::get_if<tool_result>(&out)) return std::move(*r);
    peer->set_outcome(std::move(out));
    tool_result marker;
    marker.meta[outcome_meta] = true;
    return marker;
  };
}

// adapt makes the MCP view of a registry entry: whether its calls run as tasks (add_tool's
// own, server_options::task_tools, or the long-running tag).
std::shared_ptr<tool_entry> adapt(const std::shared_ptr<const registered_tool>& entry,
                                  const std::map<std::string, own_tool, std::less<>>& own,
                                  const std::map<std::string, task_support, std::less<>>& task_tools) {
  auto e = std::make_shared<tool_entry>();
  e->registered = entry;
  const std::string& name = entry->definition.name;
  if (auto o = own.find(name); o != own.end()) {
    e->task = o->second.task;
    e->admit = o->second.admit;
    e->added = true;
  } else if (auto it = task_tools.find(name); it != task_tools.end()) {
    e->task = it->second;
  } else if (std::find(entry->definition.tags.begin(), entry->definition.tags.end(),
                       long_running_tag) != entry->definition.tags.end()) {
    e->task = task_support::optional;
  }
  return e;
}

}  // namespace

struct request_peer::gate {
  std::mutex mu;
  std::function<void(const json&)> emit;  ///< empty once closed
};

std::shared_ptr<request_peer> request_peer::detach(const request_context& ctx) {
  auto p = std::make_shared<request_peer>(ctx);
  p->params_ = ctx.params();
  request_context& own = p->own_.emplace(ctx);
  context_access::rebind(own, p->params_);
  auto& emit = context_access::emit(own);
  if (emit) {
    p->gate_ = std::make_shared<gate>();
    p->gate_->emit = std::move(emit);
    emit = [g = p->gate_](const json& m) {
      std::lock_guard lock(g->mu);
      if (g->emit) g->emit(m);
    };
  }
  p->origin_ = &own;
  return p;
}

std::stop_token request_peer::request_stop() const { return origin_->stop(); }

request_context request_peer::for_call(std::stop_token stop) const {
  request_context c = *origin_;
  context_access::stop(c) = std::move(stop);
  return c;
}

void request_peer::close() {
  if (!gate_) return;
  std::lock_guard lock(gate_->mu);
  gate_->emit = nullptr;
}

void request_peer::set_outcome(tool_outcome out) {
  std::lock_guard lock(mu_);
  outcome_ = std::move(out);
}

std::optional<tool_outcome> request_peer::take_outcome() {
  std::lock_guard lock(mu_);
  return std::exchange(outcome_, std::nullopt);
}

std::optional<request_context> request_of(const call_context& ctx) {
  auto* peer = dynamic_cast<request_peer*>(ctx.peer.get());
  if (!peer) return std::nullopt;
  return peer->for_call(ctx.stop);
}

tool_outcome server::impl::run_tool(const tool_entry& t, json args, request_context& ctx) const {
  const std::string& name = t.definition().name;
  // No provider extras on an MCP call: null, not an empty object allocated and freed per call.
  tool_call call{.id = "mcp", .name = name, .raw_arguments = {}, .arguments = std::move(args), .extras = nullptr};
  exec::run_options o = options.call_options;
  // A registry tool's call ends as soon as its request is cancelled (the engine answers
  // "cancelled" and leaves the handler to its stop token); an add_tool handler gets the
  // cancellation itself and the call ends when it returns (server_tool), bounded by its timeout.
  if (!t.added) o.stop = ctx.stop();
  // A task is cancelled by its client and bounded by its TTL, not by the default deadline of a
  // call (a tool that takes minutes is why it is a task); a timeout of the tool's own holds.
  if (!ctx.task_id().empty()) o.default_timeout = std::chrono::milliseconds(0);
  if (ctx.session_ptr() && !ctx.session_ptr()->stateless) o.session = ctx.session_ptr()->id;
  if (auto k = context_access::meta_member(ctx, meta_idempotency_key); k && k->is_string()) {
    o.idempotency_scope = k->get<std::string>();  // the caller's key, passed on verbatim
    call.id.clear();
  }
  // The tool's progress goes to the client when it asked for it (a progressToken): without
  // one, and without a listener of the server's own, the engine has no events to send.
  if (options.call_options.on_event || context_access::meta_member(ctx, "progressToken"))
    o.on_event = [&ctx, outer = options.call_options.on_event](const exec::call_event& ev) {
      if (ev.kind == exec::event_kind::progress && ev.progress)
        ctx.progress(ev.progress->progress, ev.progress->total, ev.progress->message);
      if (outer) outer(ev);
    };
  // On the fast path the call runs here, inside the request: it borrows the context (no
  // copy, no allocation). Queued, it may outlive the request: it gets a detached peer. (A
  // tool replaced between the two lines below by one that is queued gets the borrowed peer;
  // only a handler of it still running after the request ended could misuse it.)
  request_peer borrowed(ctx);
  std::shared_ptr<request_peer> detached;
  if (executor->runs_inline(name, o))
    o.peer = std::shared_ptr<call_peer>(std::shared_ptr<void>(), &borrowed);
  else
    o.peer = detached = request_peer::detach(ctx);
  tool_result r = executor->call(call, o);
  release_json(call.arguments);  // json_build.hpp: cheaper than its destructor
  request_peer& peer = detached ? *detached : borrowed;
  peer.close();
  if (auto m = r.meta.find(outcome_meta); m != r.meta.end() && !r.is_error) {
    if (auto out = peer.take_outcome()) return std::move(*out);
    return tool_result::error("tool \"" + name + "\" answered with neither a result nor an error "
                              "(a cached MCP outcome?); call it again");
  }
  if (auto pending = exec::pending_from_result(r)) return needs_approval(name, *pending);
  return r;
}

std::vector<std::shared_ptr<tool_entry>> server::impl::all_tools() const {
  std::vector<std::shared_ptr<tool_entry>> out;
  for (const auto& e : registry->list()) out.push_back(adapted(e));
  return out;
}

std::shared_ptr<tool_entry> server::impl::adapted(const std::shared_ptr<const registered_tool>& e) const {
  // Once per registration, not per call.
  {
    std::shared_lock lock(adapted_mu);
    if (auto it = adapted_tools.find(e->definition.name); it != adapted_tools.end() && it->second.first == e)
      return it->second.second;
  }
  std::shared_ptr<tool_entry> a;
  {
    std::shared_lock lock(mu);
    a = adapt(e, own, options.task_tools);
  }
  std::lock_guard lock(adapted_mu);
  adapted_tools[e->definition.name] = {e, a};
  return a;
}

std::shared_ptr<tool_entry> server::impl::find_tool(std::string_view name) const {
  // Each thread's recent finds (thread_cache.hpp): a tools/call looks its tool up more than once,
  // on whichever I/O thread serves it. Forgotten on every change of the registry.
  return tool_lookups::get(this, name, [&]() -> std::shared_ptr<tool_entry> {
    if (auto e = registry->find(name)) return adapted(e);
    return nullptr;
  });
}

std::vector<std::shared_ptr<session>> server::impl::live_sessions() {
  std::lock_guard lock(sessions_mu);
  std::vector<std::shared_ptr<session>> out;
  std::erase_if(sessions, [&](const std::weak_ptr<session>& w) {
    auto s = w.lock();
    if (!s) return true;  // expired: drop it
    out.push_back(std::move(s));
    return false;
  });
  return out;
}

server::server(implementation info, tool_registry* tools, server_options options)
    : impl_(std::make_unique<impl>()) {
  impl_->info = std::move(info);
  if (!tools) impl_->own_registry = std::make_unique<tool_registry>();
  impl_->registry = tools ? tools : impl_->own_registry.get();
  impl_->options = std::move(options);
  impl_->state_key = random_token(32);
  impl_->tasks = std::make_unique<task_runner>(*this, *impl_, impl_->options.tasks);
  if (tools) impl_->executor = impl_->options.executor;
  if (!impl_->executor) {
    exec::executor_options eo = impl_->options.exec_options;
    if (impl_->options.tool_timeout.count() > 0) eo.default_timeout = impl_->options.tool_timeout;
    impl_->executor = std::make_shared<exec::executor>(*impl_->registry, std::move(eo));
  }
  impl_->registry_listener = impl_->registry->on_change([this](const registry_event&) {
    {
      std::lock_guard lock(impl_->adapted_mu);
      impl_->adapted_tools.clear();
    }
    tool_lookups::forget(impl_.get());
    notify_list_changed("tools");
  });
}

server::~server() {
  impl_->tasks->shutdown();
  impl_->registry->remove_listener(impl_->registry_listener);
  tool_lookups::forget(impl_.get());
  for (auto& s : impl_->live_sessions()) close_session(s);
}

bool server::runs_inline(const jsonrpc::request& r) const {
  if (method_runs_inline(r.method)) return true;
  if (r.method != "tools/call" || !r.params.is_object()) return false;
  // Only the name matters here (a malformed call is refused by its handler, on any thread).
  auto it = r.params.find("name");
  if (it == r.params.end() || !it->is_string()) return false;
  const std::string& name = it->get_ref<const std::string&>();
  auto t = impl_->find_tool(name);
  if (!t) return false;
  if (t->added && t->task != task_support::forbidden) return false;  // its task starts a thread, its admission may block
  return impl_->executor->runs_inline(name, impl_->options.call_options);
}

const implementation& server::info() const { return impl_->info; }
const server_options& server::options() const { return impl_->options; }

void server::add_tool(tool definition, mcp_tool_handler handler) {
  add_tool(std::move(definition), std::move(handler), task_support::forbidden, nullptr);
}

void server::add_tool(tool definition, mcp_tool_handler handler, task_support support,
                      task_admission admit) {
  const std::string name = definition.name;
  if (!is_valid_tool_name(name))
    throw std::invalid_argument("mcp tool \"" + name +
                                "\": invalid name: use 1 to 128 of A-Z a-z 0-9 _ . - (MCP's tool name characters)");
  if (!handler) throw std::invalid_argument("mcp tool \"" + name + "\": empty handler");
  if (!definition.input_schema.is_object() || definition.input_schema.value("type", "") != "object")
    throw std::invalid_argument("mcp tool \"" + name + "\": input_schema must be an object schema");
  {
    // Claimed first, so that two add_tool of one name cannot both pass the check.
    std::unique_lock lock(impl_->mu);
    if (impl_->own.count(name))
      throw std::invalid_argument("mcp tool \"" + name + "\": already registered");
    impl_->own[name] = own_tool{.task = support, .admit = std::move(admit)};
  }
  try {
    // Outside the lock: the registry's listener sends tools/list_changed, which an in-memory
    // client may answer at once with a tools/list on this thread. A registry tool of the same
    // name is replaced: tools/list names each tool once.
    impl_->registry->add(std::move(definition), server_tool(name, std::move(handler)),
                         {.replace = true, .validate_arguments = impl_->options.validate_arguments});
  } catch (...) {
    std::unique_lock lock(impl_->mu);
    impl_->own.erase(name);
    throw;
  }
}

bool server::remove_tool(std::string_view name) {
  {
    std::unique_lock lock(impl_->mu);
    auto it = impl_->own.find(name);
    if (it == impl_->own.end()) return false;
    impl_->own.erase(it);
  }
  impl_->registry->remove(name);
  return true;
}

void server::add_resource(resource r, resource_handler handler) {
  if (r.uri.empty() || !handler) throw std::invalid_argument("mcp resource: uri and handler are required");
  {
    std::unique_lock lock(impl_->mu);
    impl_->resources.push_back(std::make_shared<resource_entry>(resource_entry{std::move(r), std::move(handler)}));
  }
  notify_list_changed("resources");
}

void server::add_resource_template(resource_template t, resource_handler handler) {
  if (t.uri_template.empty() || !handler)
    throw std::invalid_argument("mcp resource template: uri_template and handler are required");
  {
    std::unique_lock lock(impl_->mu);
    impl_->templates.push_back(std::make_shared<template_entry>(template_entry{std::move(t), std::move(handler)}));
  }
  notify_list_changed("resources");  // resources/templates/list is part of the resources list
}

void server::add_prompt(prompt p, prompt_handler handler) {
  if (p.name.empty() || !handler) throw std::invalid_argument("mcp prompt: name and handler are required");
  {
    std::unique_lock lock(impl_->mu);
    for (const auto& e : impl_->prompts)
      if (e->info.name == p.name) throw std::invalid_argument("mcp prompt \"" + p.name + "\": already registered");
    impl_->prompts.push_back(std::make_shared<prompt_entry>(prompt_entry{std::move(p), std::move(handler)}));
  }
  notify_list_changed("prompts");
}

bool server::remove_prompt(std::string_view name) {
  bool removed = false;
  {
    std::unique_lock lock(impl_->mu);
    removed = std::erase_if(impl_->prompts, [&](const auto& p) { return p->info.name == name; }) > 0;
  }
  if (removed) notify_list_changed("prompts");
  return removed;
}

void server::set_completion(completion_handler handler) {
  std::unique_lock lock(impl_->mu);
  impl_->completion = std::move(handler);
}

json server::capabilities() const {
  json caps = json::object();
  caps["logging"] = json::object();
  {
    std::shared_lock lock(impl_->mu);
    if (impl_->completion) caps["completions"] = json::object();
  }
  caps["prompts"] = {{"listChanged", true}};
  caps["resources"] = {{"subscribe", true}, {"listChanged", true}};
  caps["tools"] = {{"listChanged", true}};
  return caps;
}

void server::notify_resource_updated(const std::string& uri) {
  json note = {{"jsonrpc", "2.0"}, {"method", "notifications/resources/updated"}, {"params", {{"uri", uri}}}};
  for (auto& s : impl_->live_sessions()) {
    bool subscribed = false;
    {
      std::lock_guard lock(s->mu);
      subscribed = s->subscriptions.count(uri) > 0;
    }
    if (subscribed) s->send_outbound(note);
  }
  std::vector<std::shared_ptr<listener>> ls;
  {
    std::lock_guard lock(impl_->sessions_mu);
    for (auto& w : impl_->listeners)
      if (auto l = w.lock()) ls.push_back(l);
  }
  for (auto& l : ls) {
    const auto& subs = l->wanted.resource_subscriptions;
    if (!subs || std::find(subs->begin(), subs->end(), uri) == subs->end()) continue;
    json n = note;
    n["params"]["_meta"] = {{std::string(meta_subscription_id), l->subscription_id}};
    l->emit(n);
  }
}

void server::notify_list_changed(std::string_view kind) {
  std::string method = "notifications/" + std::string(kind) + "/list_changed";
  json note = {{"jsonrpc", "2.0"}, {"method", method}};
  for (auto& s : impl_->live_sessions()) {
    bool ready = false;
    {
      std::lock_guard lock(s->mu);
      ready = s->initialized && !s->stateless;
    }
    if (ready) s->send_outbound(note);
  }
  std::optional<bool> wire::subscription_filter::*flag =
      kind == "tools"     ? &wire::subscription_filter::tools_list_changed
      : kind == "prompts" ? &wire::subscription_filter::prompts_list_changed
                          : &wire::subscription_filter::resources_list_changed;
  std::vector<std::shared_ptr<listener>> ls;
  {
    std::lock_guard lock(impl_->sessions_mu);
    std::erase_if(impl_->listeners, [](const auto& w) { return w.expired(); });
    for (auto& w : impl_->listeners)
      if (auto l = w.lock()) ls.push_back(l);
  }
  for (auto& l : ls) {
    if (!(l->wanted.*flag).value_or(false)) continue;
    json n = note;
    n["params"] = {{"_meta", {{std::string(meta_subscription_id), l->subscription_id}}}};
    l->emit(n);
  }
}

void server::log(log_level level, json data, std::string logger) {
  wire::log_message_params p{.level = std::string(to_string(level)), .data = std::move(data)};
  if (!logger.empty()) p.logger = std::move(logger);
  json note = {{"jsonrpc", "2.0"}, {"method", "notifications/message"}, {"params", encode(p)}};
  for (auto& s : impl_->live_sessions())
    if (s->allows(level)) s->send_outbound(note);
}

std::shared_ptr<session> server::open_session(std::function<void(const json&)> outbound) {
  auto s = std::make_shared<session>();
  s->outbound = std::move(outbound);
  std::lock_guard lock(impl_->sessions_mu);
  impl_->sessions.push_back(s);
  return s;
}

void server::close_session(const std::shared_ptr<session>& s) {
  std::map<std::string, std::shared_ptr<pending_reply>> pending;
  std::map<std::string, std::stop_source> running;
  {
    std::unique_lock lock(s->mu);
    s->close_outbound(lock);
    pending.swap(s->pending);
    running = s->running;
  }
  for (auto& [id, src] : running) src.request_stop();
  s->stop_all.request_stop();
  s->stops.request_stop();
  for (auto& [id, p] : pending) {
    std::lock_guard lock(p->mu);
    p->done = true;
    p->value = fail(errc::cancelled, "the session closed before the client answered");
    p->cv.notify_all();
  }
  std::lock_guard lock(impl_->sessions_mu);
  std::erase_if(impl_->sessions, [&](const auto& w) {
    auto p = w.lock();
    return !p || p == s;
  });
}

std::shared_ptr<void> server::listen(const jsonrpc::request& r, std::function<void(const json&)> emit) {
  auto l = std::make_shared<listener>();
  l->subscription_id = std::visit([](const auto& v) {
    if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::string>) return v;
    else return std::to_string(v);
  }, r.id);
  // A filter that does not decode asks for nothing; the acknowledgement shows what is honored.
  static const json none = json::object();
  auto p = decode<wire::listen_params>(r.params.is_object() ? r.params : none, "params");
  if (p && p->notifications) l->wanted = std::move(*p->notifications);
  l->emit = std::move(emit);
  wire::subscription_filter honored;
  for (auto flag : {&wire::subscription_filter::tools_list_changed,
                    &wire::subscription_filter::prompts_list_changed,
                    &wire::subscription_filter::resources_list_changed})
    if ((l->wanted.*flag).value_or(false)) honored.*flag = true;
  honored.resource_subscriptions = l->wanted.resource_subscriptions;
  json ack = {{"jsonrpc", "2.0"},
              {"method", "notifications/subscriptions/acknowledged"},
              {"params", {{"_meta", {{std::string(meta_subscription_id), l->subscription_id}}},
                          {"notifications", encode(honored)}}}};
  l->emit(ack);
  std::lock_guard lock(impl_->sessions_mu);
  impl_->listeners.push_back(l);
  return l;
}

}  // namespace tooluse::mcp
