// The MCP methods: one function per method, selected by a table (house style §7).
#include <algorithm>
#include <unordered_map>

#include "mcp/params.hpp"
#include "mcp/server_impl.hpp"
#include "tooluse/telemetry/trace.hpp"

namespace tooluse::mcp {

namespace {

using jsonrpc::response;
namespace ec = jsonrpc::error_code;

struct call {
  server& srv;
  server::impl& d;
  const std::shared_ptr<session>& s;
  const jsonrpc::request& r;
  request_context& ctx;
};

using method_result = answer<json>;

// page: one page of a list (params.hpp), at the server's page size.
template <class T, class F>
method_result page(const call& c, const wire::paginated_params& p, const std::vector<T>& items,
                   const char* key, F to) {
  return mcp::page(p.cursor, c.d.options.page_size, items, key, to);
}

answer<wire::initialize_result> do_initialize(const call& c, wire::initialize_params& p) {
  std::string requested = p.protocol_version.value_or("");
  std::string chosen =
      is_session_version(requested) ? requested : std::string(latest_session_version);
  {
    std::lock_guard lock(c.s->mu);
    c.s->protocol_version = chosen;
    c.s->client_capabilities =
        p.capabilities && p.capabilities->is_object() ? std::move(*p.capabilities) : json::object();
    c.s->client_info = p.client_info ? std::move(*p.client_info) : json::object();
    c.s->initialized = true;
  }
  json caps = c.srv.capabilities();
  if (chosen == version_2025_11_25)  // experimental core tasks of 2025-11-25
    caps["tasks"] = {{"list", json::object()},
                     {"cancel", json::object()},
                     {"requests", {{"tools", {{"call", json::object()}}}}}};
  wire::initialize_result out{
      .protocol_version = chosen, .capabilities = std::move(caps), .server_info = to_json(c.d.info)};
  if (!c.d.options.instructions.empty()) out.instructions = c.d.options.instructions;
  return out;
}

answer<wire::discover_result> do_discover(const call& c, no_params&) {
  wire::discover_result out{.supported_versions = {std::string(version_2026_07_28)},
                            .capabilities = c.srv.capabilities(),
                            .meta = wire::result_meta{.server_info = to_json(c.d.info)}};
  if (c.d.options.sessions)
    for (auto v : session_versions) out.supported_versions.push_back(std::string(v));
  json& caps = *out.capabilities;  // no logging or subscriptions without a session
  caps.erase("logging");
  caps["resources"].erase("subscribe");
  caps["extensions"][std::string(tasks_extension)] = json::object();
  if (!c.d.options.instructions.empty()) out.instructions = c.d.options.instructions;
  return out;
}

method_result do_ping(const call&, no_params&) { return json::object(); }

method_result do_set_level(const call& c, wire::set_level_params& p) {
  std::lock_guard lock(c.s->mu);
  c.s->level = p.level;
  return json::object();
}

method_result do_tools_list(const call& c, wire::paginated_params& p) {
  return page(c, p, c.d.all_tools(), "tools", [](const std::shared_ptr<tool_entry>& t) {
    json j = tool_to_mcp_json(t->definition());
    if (t->task != task_support::forbidden) j["execution"] = {{"taskSupport", std::string(to_string(t->task))}};
    return j;
  });
}

json outcome_json(const call& c, json result_json, const input_required* ir) {
  if (!ir) return result_json;
  if (!c.ctx.stateless()) return nullptr;
  json out = {{"resultType", "input_required"}, {"inputRequests", ir->input_requests}};
  if (ir->state) out["requestState"] = seal_state(c.d.state_key, *ir->state);
  return out;
}

// asked_for_input answers an input_required: the 2026-07-28 result, or an error naming `what`
// for the session revisions, which cannot carry it.
method_result asked_for_input(const call& c, const input_required& ir, const std::string& what) {
  json j = outcome_json(c, nullptr, &ir);
  if (j.is_null())
    return err(ec::internal_error, what + " asked for input, which needs protocol 2026-07-28");
  return j;
}

bool has_tasks_extension(const request_context& ctx) {
  const json& caps = ctx.client_capabilities();
  auto it = caps.find("extensions");
  return it != caps.end() && it->is_object() && it->contains(tasks_extension);
}

jsonrpc::error_object tasks_extension_missing() {
  return missing_capability({{"extensions", {{std::string(tasks_extension), json::object()}}}});
}

// task_route decides whether a tools/call runs as a task. 2026-07-28: the server decides, for
// clients that declare the tasks extension (in the request's capabilities); a required tool
// refuses other clients with -32021. 2025-11-25: the client asks with params.task.
std::optional<method_result> task_route(const call& c, const std::shared_ptr<tool_entry>& t, const json& args,
                                        const std::optional<wire::task_request>& task) {
  task_support support = t->task;
  const std::string& name = t->definition().name;
  std::optional<long long> ttl;
  if (c.ctx.stateless()) {
    bool ext = has_tasks_extension(c.ctx);
    if (support == task_support::required && !ext) return method_result(tasks_extension_missing());
    if (support == task_support::forbidden || !ext) return std::nullopt;
  } else {
    bool asked = task.has_value();
    if (asked && support == task_support::forbidden)
      return method_result(err(ec::method_not_found, "Method not found: tool \"" + name +
                                                         "\" does not run as a task; call it without \"task\""));
    if (!asked && support == task_support::required)
      return method_result(err(ec::method_not_found, "Method not found: tool \"" + name +
                                                         "\" must be called as a task (add \"task\": {} to the params)"));
    if (!asked) return std::nullopt;
    ttl = task->ttl;
  }
  // The executor validates every call; one that becomes a task is validated first too, so
  // that its admission and the task see valid arguments.
  if (auto errors = t->registered->input_validator->validate(args); !errors.empty())
    return method_result(result_to_json(tool_result::error(
        "invalid arguments for tool \"" + name + "\":\n" + schema::format_errors(errors))));
  if (t->admit) {
    std::optional<input_required> ir;
    try {
      ir = t->admit(args, c.ctx);
    } catch (const std::exception& e) {
      return method_result(result_to_json(tool_result::error("tool \"" + name + "\" failed: " + e.what())));
    }
    if (ir) return asked_for_input(c, *ir, "tool \"" + name + "\"");
  }
  return c.d.tasks->start(t, args, c.ctx, ttl);
}

method_result do_tasks_get(const call& c, wire::task_id_params& p) { return c.d.tasks->get(c.ctx, p); }
method_result do_tasks_update(const call& c, wire::task_id_params& p) { return c.d.tasks->update(c.ctx, p); }
method_result do_tasks_cancel(const call& c, wire::task_id_params& p) { return c.d.tasks->cancel(c.ctx, p); }
method_result do_tasks_result(const call& c, wire::task_id_params& p) { return c.d.tasks->result(c.ctx, p); }
method_result do_tasks_list(const call& c, wire::paginated_params& p) { return c.d.tasks->list(c.ctx, p); }

// tools_call runs a tools/call: its answer, or the result of the tool it ran, as it is (the
// fast path writes that without making it JSON first).
std::variant<method_result, tool_result> tools_call(const call& c, wire::call_tool_params& p) {
  const std::string& name = p.name;
  auto t = c.d.find_tool(name);
  if (!t) return err(ec::invalid_params, "Unknown tool: " + shown(name));
  json args = p.arguments ? std::move(*p.arguments) : json::object();
  if (!args.is_object()) return not_an_object("params.arguments", args);
  // Invalid arguments are a tool error the model can correct (2025-11-25, SEP-1303): the
  // executor's, like its timeouts, limits and approval.
  if (auto task = task_route(c, t, args, p.task)) return std::move(*task);
  tool_outcome out = c.d.run_tool(*t, std::move(args), c.ctx);
  if (auto* ir = std::get_if<input_required>(&out)) return asked_for_input(c, *ir, "tool \"" + name + "\"");
  if (auto* e = std::get_if<jsonrpc::error_object>(&out)) return method_result(std::move(*e));
  return std::move(std::get<tool_result>(out));
}

method_result do_tools_call(const call& c, wire::call_tool_params& p) {
  auto out = tools_call(c, p);
  if (auto* r = std::get_if<tool_result>(&out)) return result_to_json(*r);
  return std::move(std::get<method_result>(out));
}

template <class E>
std::vector<std::shared_ptr<E>> snapshot(const call& c, const std::vector<std::shared_ptr<E>>& items) {
  std::shared_lock lock(c.d.mu);
  return items;
}

method_result do_resources_list(const call& c, wire::paginated_params& p) {
  return page(c, p, snapshot(c, c.d.resources), "resources", [](const auto& e) { return to_json(e->info); });
}

method_result do_templates_list(const call& c, wire::paginated_params& p) {
  return page(c, p, snapshot(c, c.d.templates), "resourceTemplates",
              [](const auto& e) { return to_json(e->info); });
}

method_result do_resources_read(const call& c, wire::uri_params& p) {
  const std::string& uri = p.uri;
  resource_handler handler;
  json vars = json::object();
  {
    std::shared_lock lock(c.d.mu);
    for (const auto& e : c.d.resources)
      if (e->info.uri == uri) handler = e->handler;
    if (!handler)
      for (const auto& e : c.d.templates)
        if (auto m = match_uri_template(e->info.uri_template, uri)) {
          handler = e->handler;
          vars = std::move(*m);
          break;
        }
  }
  json not_found_data = {{"uri", uri}};
  if (!handler) return err(ec::invalid_params, "Resource not found", not_found_data);
  auto contents = handler(uri, vars, c.ctx);
  if (!contents) {
    if (contents.error().code == errc::not_found)
      return err(ec::invalid_params, "Resource not found", not_found_data);
    return err(contents.error().jsonrpc_code ? contents.error().jsonrpc_code : ec::internal_error,
               contents.error().message);
  }
  if (contents->empty()) return err(ec::invalid_params, "Resource not found", not_found_data);
  json list = json::array();
  for (const auto& x : *contents) list.push_back(to_json(x));
  return json{{"contents", std::move(list)}};
}

template <bool On>
method_result do_subscribe(const call& c, wire::uri_params& p) {
  std::lock_guard lock(c.s->mu);
  if constexpr (On)
    c.s->subscriptions.insert(std::move(p.uri));
  else
    c.s->subscriptions.erase(p.uri);
  return json::object();
}

method_result do_prompts_list(const call& c, wire::paginated_params& p) {
  return page(c, p, snapshot(c, c.d.prompts), "prompts", [](const auto& e) { return to_json(e->info); });
}

method_result do_prompts_get(const call& c, wire::get_prompt_params& p) {
  const std::string& name = p.name;
  std::shared_ptr<prompt_entry> e;
  {
    std::shared_lock lock(c.d.mu);
    for (const auto& x : c.d.prompts)
      if (x->info.name == name) e = x;
  }
  if (!e) return err(ec::invalid_params, "Invalid params: unknown prompt \"" + shown(name) + "\"");
  json args = p.arguments && p.arguments->is_object() ? std::move(*p.arguments) : json::object();
  for (const auto& a : e->info.arguments)
    if (a.required && !args.contains(a.name))
      return err(ec::invalid_params,
                 "Invalid params: prompt \"" + name + "\" needs argument \"" + a.name + "\"");
  auto out = e->handler(args, c.ctx);
  if (!out)
    return err(out.error().jsonrpc_code ? out.error().jsonrpc_code : ec::invalid_params,
               out.error().message);
  if (auto* ir = std::get_if<input_required>(&*out)) return asked_for_input(c, *ir, "prompt \"" + name + "\"");
  return to_json(std::get<prompt_result>(*out));
}

bool has_completion(const server::impl& d) {
  std::shared_lock lock(d.mu);
  return static_cast<bool>(d.completion);
}

answer<completion_result> do_complete(const call& c, wire::complete_params& p) {
  completion_handler h;
  {
    std::shared_lock lock(c.d.mu);
    h = c.d.completion;
  }
  if (!h) return err(ec::method_not_found, "Method not found: completion/complete");  // unset meanwhile
  if (!p.ref.is_object()) return not_an_object("params.ref", p.ref);
  return h(p.ref, p.argument.name, p.argument.value, c.ctx);
}

// method is one MCP method, bound once: its name, its rules and its handler with typed
// params and result (params.hpp).
struct method {
  std::string_view name;
  method_rules rules;
  method_result (*run)(const call&, const json& params);
  /// available, when set, tells whether the server offers the method now (-32601 if not),
  /// checked before its params are read.
  bool (*available)(const server::impl&) = nullptr;
};

constexpr method_rules stateless_too{};
constexpr method_rules quick{.runs_inline = true};
constexpr method_rules quick_list{.runs_inline = true, .cache = cache_kind::list};
constexpr method_rules session_only{.in = revisions::sessions_only};
constexpr method_rules quick_session_only{.in = revisions::sessions_only, .runs_inline = true};
constexpr method_rules task_method{.tasks_extension = true};

// methods is the table: every method the server answers, in one place.
constexpr method methods[] = {
    {"initialize", quick_session_only, bound<do_initialize>},
    {"ping", quick_session_only, bound<do_ping>},
    {"logging/setLevel", quick_session_only, bound<do_set_level>},
    {"server/discover", {.runs_inline = true, .cache = cache_kind::read}, bound<do_discover>},
    {"tools/list", quick_list, bound<do_tools_list>},
    {"tools/call", stateless_too, bound<do_tools_call>},  // runs inline: server::runs_inline
    {"resources/list", quick_list, bound<do_resources_list>},
    {"resources/templates/list", quick_list, bound<do_templates_list>},
    {"resources/read", {.cache = cache_kind::read}, bound<do_resources_read>},
    {"resources/subscribe", quick_session_only, bound<do_subscribe<true>>},
    {"resources/unsubscribe", quick_session_only, bound<do_subscribe<false>>},
    {"prompts/list", quick_list, bound<do_prompts_list>},
    {"prompts/get", stateless_too, bound<do_prompts_get>},
    {"completion/complete", stateless_too, bound<do_complete>, has_completion},
    {"tasks/get", task_method, bound<do_tasks_get>},
    {"tasks/update", {.in = revisions::stateless_only, .tasks_extension = true}, bound<do_tasks_update>},
    {"tasks/cancel", task_method, bound<do_tasks_cancel>},
    {"tasks/result", {.in = revisions::sessions_only, .note = " (tasks/get inlines the result)"},
     bound<do_tasks_result>},
    {"tasks/list", session_only, bound<do_tasks_list>},
};

const method* find_method(std::string_view name) {
  static const auto index = [] {
    std::unordered_map<std::string_view, const method*> m;
    for (const auto& x : methods) m.emplace(x.name, &x);
    return m;
  }();
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

}  // namespace

bool method_runs_inline(std::string_view name) {
  const method* m = find_method(name);
  return m && m->rules.runs_inline;
}

namespace {

// outside_revisions is the -32601 of a method the request's revision does not have.
std::optional<jsonrpc::error_object> outside_revisions(const method& m, bool stateless) {
  if (m.rules.in == revisions::sessions_only && stateless)
    return err(ec::method_not_found, "Method not found: " + std::string(m.name) +
                                         " is not part of protocol 2026-07-28" + std::string(m.rules.note));
  if (m.rules.in == revisions::stateless_only && !stateless)
    return err(ec::method_not_found, "Method not found: " + std::string(m.name) +
                                         " is part of protocol 2026-07-28" + std::string(m.rules.note));
  return std::nullopt;
}

// read_mrtr reads inputResponses and requestState into the context (every 2026-07-28 request).
std::optional<jsonrpc::error_object> read_mrtr(server::impl& d, request_context& ctx) {
  // Most requests carry neither (params is an object or null here: dispatch refused the rest).
  const json& params = ctx.params();
  if (!params.contains(std::string_view("inputResponses")) && !params.contains(std::string_view("requestState")))
    return std::nullopt;
  wire::mrtr_params p;
  if (auto e = read_params(ctx.params(), p)) return e;
  if (p.input_responses) {
    if (!p.input_responses->is_object())
      return not_an_object("params.inputResponses", *p.input_responses);
    for (const auto& [k, v] : p.input_responses->items())
      if (!v.is_object()) {
        std::string path = "params.inputResponses";
        tooluse::detail::path_push(path, k);
        return not_an_object(path, v);
      }
    context_access::responses(ctx) = std::move(*p.input_responses);
  }
  if (p.request_state) {
    auto state = open_state(d.state_key, *p.request_state);
    if (!state)
      return err(ec::invalid_params, "Invalid params: requestState integrity check failed");
    context_access::state(ctx) = std::move(*state);
  }
  return std::nullopt;
}

// run checks the rules of `m` and runs it.
// answered is the response of request `r` to method `m` from what it returned.
jsonrpc::response answered(const server::impl& d, const jsonrpc::request& r, const method& m, method_result out,
                           bool stateless) {
  if (auto* e = std::get_if<jsonrpc::error_object>(&out)) return jsonrpc::response{r.id, nullptr, std::move(*e)};
  json result = std::move(std::get<json>(out));
  if (stateless) {
    if (!result.contains("resultType")) result["resultType"] = "complete";
    if (m.rules.cache != cache_kind::none && result["resultType"] == "complete") {
      const cache_hint& h = m.rules.cache == cache_kind::read ? d.options.read_cache : d.options.list_cache;
      if (!result.contains("ttlMs")) result["ttlMs"] = h.ttl_ms;
      if (!result.contains("cacheScope")) result["cacheScope"] = h.scope;
    }
  }
  return jsonrpc::response::success(r.id, std::move(result));
}

method_result run(const method& m, const call& c, bool stateless) {
  if (stateless)
    if (auto e = read_mrtr(c.d, c.ctx)) return std::move(*e);
  if (stateless && m.rules.tasks_extension && !has_tasks_extension(c.ctx)) return tasks_extension_missing();
  if (m.available && !m.available(c.d)) return err(ec::method_not_found, "Method not found: " + std::string(m.name));
  return m.run(c, c.ctx.params());
}

}  // namespace

jsonrpc::error_object missing_capability(json required_capabilities) {
  return err(ec::missing_client_capability, "Missing required client capability",
             json{{"requiredCapabilities", std::move(required_capabilities)}});
}

std::optional<jsonrpc::response> dispatch(server& srv, server::impl& d,
                                          const std::shared_ptr<session>& s,
                                          const jsonrpc::request& r,
                                          const std::function<void(const json&)>& emit,
                                          std::stop_token stop, std::string_view principal) {
  if (!r.params.is_null() && !r.params.is_object())
    return response::failure(r.id, ec::invalid_params, "Invalid params: params must be an object");
  request_context ctx(s, r, emit, stop);
  context_access::principal(ctx) = principal;
  // MCP semantic conventions: a SERVER span per request, parented by the client's
  // _meta.traceparent when it sent one; tool executions inside it are its children.
  // Without an exporter the span records nothing: its name and parent are not worked out.
  std::optional<telemetry::span_context> parent;
  std::string target;
  const bool traced = telemetry::enabled();
  if (traced && r.params.is_object()) {
    // Telemetry never refuses a request: a `_meta` that does not decode just has no parent.
    if (auto p = decode<wire::with_meta>(r.params, "params"); p && p->meta && p->meta->traceparent)
      parent = telemetry::parse_traceparent(*p->meta->traceparent);
    if (auto names = decode<wire::routing_params>(r.params, "params"))
      target = names->name ? std::move(*names->name) : names->uri.value_or("");
  }
  auto span = telemetry::start_span(traced ? r.method + (target.empty() ? "" : " " + target) : std::string(),
                                    telemetry::span_kind::server, parent);
  if (span.recording()) {
    span.set("mcp.method.name", r.method);
    if (!s->id.empty()) span.set("mcp.session.id", s->id);
    span.set("jsonrpc.request.id", dump_json(jsonrpc::id_to_json(r.id)));
    if (r.method == "tools/call") {
      span.set("gen_ai.operation.name", "execute_tool");
      span.set("gen_ai.tool.name", target);
    }
  }
  bool stateless = s->stateless;
  const method* m = find_method(r.method);
  if (!m) return response::failure(r.id, ec::method_not_found, "Method not found: " + shown(r.method));
  method_result out;
  if (auto e = outside_revisions(*m, stateless)) {
    out = std::move(*e);
  } else {
    try {
      out = run(*m, call{srv, d, s, r, ctx}, stateless);
    } catch (const std::exception& e) {
      out = err(ec::internal_error, std::string("Internal error: ") + e.what());
    }
  }
  if (stop.stop_requested() && !stateless) return std::nullopt;
  if (auto* e = std::get_if<jsonrpc::error_object>(&out)) span.set_error(e->message, std::to_string(e->code));
  return answered(d, r, *m, std::move(out), stateless);
}

tools_call_answer dispatch_tools_call(server& srv, server::impl& d, const std::shared_ptr<session>& s,
                                      const jsonrpc::request& r, wire::call_tool_params& p,
                                      const params_source& params, const std::function<void(const json&)>& emit,
                                      std::stop_token stop, std::string_view principal) {
  // dispatch, for what fast_call.cpp hands over: a 2026-07-28 tools/call with telemetry off and
  // params without inputResponses or requestState (read_mrtr has nothing to read), so no span,
  // no method lookup and no revision check (tools/call is in every revision). Its params are
  // read already (read_params's fast case: a name, object arguments or none, no task).
  static const method& tools_call_method = *find_method("tools/call");
  request_context ctx(s, r, emit, std::move(stop));
  context_access::defer(ctx, params);
  context_access::principal(ctx) = principal;
  method_result out;
  try {
    auto called = tools_call(call{srv, d, s, r, ctx}, p);
    if (auto* result = std::get_if<tool_result>(&called)) return {std::nullopt, std::move(*result)};
    out = std::move(std::get<method_result>(called));
  } catch (const std::exception& e) {
    out = err(ec::internal_error, std::string("Internal error: ") + e.what());
  }
  return {answered(d, r, tools_call_method, std::move(out), true), std::nullopt};
}

}  // namespace tooluse::mcp
