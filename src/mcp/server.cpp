// tooluse::mcp::server: registration, sessions, notifications and the request context.
#include <algorithm>
#include <stdexcept>

#include "mcp/params.hpp"
#include "mcp/server_impl.hpp"

namespace tooluse::mcp {

namespace {

// needs_approval turns the result of a deferred (never approved) call into the tool error the
// client sees: MCP has no way to resume it later.
tool_result needs_approval(const std::string& name, const exec::pending_approval& p) {
  return tool_result::error("tool \"" + name + "\" is dangerous and was not run: " + p.reason +
                            "; this server has no approval policy that allows it (start "
                            "`tooluse mcp serve` with --yes to allow dangerous tools)");
}

// adapt turns a registry entry into an MCP tool run by the executor: arguments validated,
// timeouts, limits and approval applied, progress forwarded, stopped when the client cancels.
std::shared_ptr<tool_entry> adapt(const std::shared_ptr<const registered_tool>& entry,
                                  const std::shared_ptr<exec::executor>& ex,
                                  const exec::run_options& base,
                                  const std::map<std::string, task_support, std::less<>>& task_tools) {
  auto e = std::make_shared<tool_entry>();
  e->definition = entry->definition;
  e->validator = entry->input_validator;
  e->validated_by_executor = true;
  if (auto it = task_tools.find(entry->definition.name); it != task_tools.end())
    e->task = it->second;
  else if (std::find(entry->definition.tags.begin(), entry->definition.tags.end(),
                     long_running_tag) != entry->definition.tags.end())
    e->task = task_support::optional;
  e->handler = [ex, &base, name = entry->definition.name](const json& args,
                                                          request_context& ctx) -> tool_outcome {
    tool_call call{.id = "mcp", .name = name, .raw_arguments = {}, .arguments = args};
    exec::run_options o = base;
    o.stop = ctx.stop();
    if (ctx.session_ptr() && !ctx.session_ptr()->stateless) o.session = ctx.session_ptr()->id;
    if (auto k = ctx.meta().find(std::string(meta_idempotency_key)); k != ctx.meta().end() && k->is_string()) {
      o.idempotency_scope = k->get<std::string>();  // the caller's key, passed on verbatim
      call.id.clear();
    }
    o.on_event = [&ctx, outer = base.on_event](const exec::call_event& ev) {
      if (ev.kind == exec::event_kind::progress && ev.progress)
        ctx.progress(ev.progress->progress, ev.progress->total, ev.progress->message);
      if (outer) outer(ev);
    };
    tool_result r = ex->call(call, o);
    if (auto pending = exec::pending_from_result(r)) return needs_approval(name, *pending);
    return r;
  };
  return e;
}

}  // namespace

std::vector<std::shared_ptr<tool_entry>> server::impl::all_tools() const {
  std::vector<std::shared_ptr<tool_entry>> out;
  {
    std::shared_lock lock(mu);
    out = tools;
  }
  if (registry) {
    // A server tool shadows a registry tool of the same name (find_tool calls the server's),
    // so the list names it once: tool names must be unique in tools/list.
    const std::size_t own = out.size();
    for (const auto& e : registry->list()) {
      const auto& name = e->definition.name;
      if (std::none_of(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(own),
                       [&](const auto& t) { return t->definition.name == name; }))
        out.push_back(adapted(e));
    }
  }
  return out;
}

std::shared_ptr<tool_entry> server::impl::adapted(const std::shared_ptr<const registered_tool>& e) const {
  // Adapting copies the definition (schemas included): done once per registration, not per call.
  {
    std::shared_lock lock(adapted_mu);
    if (auto it = adapted_tools.find(e->definition.name); it != adapted_tools.end() && it->second.first == e)
      return it->second.second;
  }
  auto a = adapt(e, executor, options.call_options, options.task_tools);
  std::lock_guard lock(adapted_mu);
  adapted_tools[e->definition.name] = {e, a};
  return a;
}

std::shared_ptr<tool_entry> server::impl::find_tool(std::string_view name) const {
  {
    std::shared_lock lock(mu);
    for (const auto& t : tools)
      if (t->definition.name == name) return t;
  }
  if (registry)
    if (auto e = registry->find(name)) return adapted(e);
  return nullptr;
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
  impl_->registry = tools;
  impl_->options = std::move(options);
  impl_->state_key = random_token(32);
  impl_->tasks = std::make_unique<task_runner>(*this, impl_->options.tasks);
  if (tools) {
    impl_->executor = impl_->options.executor;
    if (!impl_->executor) {
      exec::executor_options eo = impl_->options.exec_options;
      if (impl_->options.tool_timeout.count() > 0) eo.default_timeout = impl_->options.tool_timeout;
      impl_->executor = std::make_shared<exec::executor>(*tools, std::move(eo));
    }
  }
  if (tools)
    impl_->registry_listener =
        tools->on_change([this](const registry_event&) {
          {
            std::lock_guard lock(impl_->adapted_mu);
            impl_->adapted_tools.clear();
          }
          notify_list_changed("tools");
        });
}

server::~server() {
  impl_->tasks->shutdown();
  if (impl_->registry) impl_->registry->remove_listener(impl_->registry_listener);
  for (auto& s : impl_->live_sessions()) close_session(s);
}

bool server::runs_inline(const jsonrpc::request& r) const {
  if (method_runs_inline(r.method)) return true;
  if (r.method != "tools/call" || !impl_->executor || !r.params.is_object()) return false;
  auto p = decode<wire::routing_params>(r.params, "params");
  if (!p || !p->name) return false;
  const std::string& name = *p->name;
  {
    std::shared_lock lock(impl_->mu);
    for (const auto& t : impl_->tools)
      if (t->definition.name == name) return false;  // an MCP-level tool may block
  }
  return impl_->executor->runs_inline(name, impl_->options.call_options);
}

const implementation& server::info() const { return impl_->info; }
const server_options& server::options() const { return impl_->options; }

void server::add_tool(tool definition, mcp_tool_handler handler) {
  add_tool(std::move(definition), std::move(handler), task_support::forbidden, nullptr);
}

void server::add_tool(tool definition, mcp_tool_handler handler, task_support support,
                      task_admission admit) {
  const std::string& name = definition.name;
  bool name_ok = !name.empty() && name.size() <= 128 &&
                 std::all_of(name.begin(), name.end(), [](char c) {
                   return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ||
                          c == '.' || c == '/';
                 });
  if (!name_ok) throw std::invalid_argument("mcp tool \"" + name + "\": invalid name");
  if (!handler) throw std::invalid_argument("mcp tool \"" + name + "\": empty handler");
  if (!definition.input_schema.is_object() || definition.input_schema.value("type", "") != "object")
    throw std::invalid_argument("mcp tool \"" + name + "\": input_schema must be an object schema");
  auto e = std::make_shared<tool_entry>();
  if (auto v = schema::validator::compile(definition.input_schema))
    e->validator = std::make_shared<const schema::validator>(std::move(*v));
  e->definition = std::move(definition);
  e->handler = std::move(handler);
  e->task = support;
  e->admit = std::move(admit);
  {
    std::unique_lock lock(impl_->mu);
    for (const auto& t : impl_->tools)
      if (t->definition.name == e->definition.name)
        throw std::invalid_argument("mcp tool \"" + e->definition.name + "\": already registered");
    impl_->tools.push_back(std::move(e));
  }
  notify_list_changed("tools");
}

bool server::remove_tool(std::string_view name) {
  bool removed = false;
  {
    std::unique_lock lock(impl_->mu);
    removed = std::erase_if(impl_->tools, [&](const auto& t) { return t->definition.name == name; }) > 0;
  }
  if (removed) notify_list_changed("tools");
  return removed;
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
  auto p = decode<wire::listen_params>(r.params.is_object() ? r.params : json::object(), "params");
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
