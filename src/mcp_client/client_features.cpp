// tooluse::mcp::client features: tools, resources, prompts, completion, logging, ping.

#include <set>

#include "client_impl.hpp"
#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp {
namespace {

// list_all follows `nextCursor` through every page, refusing a cursor seen before.
result<std::vector<json>> list_all(client::impl& c, std::string_view method,
                                   const std::string& field, const call_options& options) {
  std::vector<json> items;
  std::set<std::string> seen;
  std::optional<std::string> cursor;
  for (int page = 0;; ++page) {
    if (page >= c.options.max_list_pages)
      return fail(errc::protocol_error, c.transport->describe() + ": " + std::string(method) +
                                            " returned more than " +
                                            std::to_string(c.options.max_list_pages) + " pages");
    auto r = c.request(method, encode(wire::paginated_params{.cursor = cursor}), options);
    if (!r) return fail(r.error());
    // The items' key depends on the method, so it is read beside the typed page.
    auto list = r->is_object() ? r->find(field) : r->end();
    if (list == r->end() || !list->is_array())
      return fail(errc::protocol_error, c.transport->describe() + ": " + std::string(method) +
                                            " result has no \"" + field + "\" array");
    auto page_info = decode<wire::list_page>(*r, "result");
    if (!page_info)
      return fail(errc::protocol_error, c.transport->describe() + ": " + std::string(method) +
                                            " result is malformed: " + page_info.error().message);
    for (auto& item : *list) items.push_back(std::move(item));
    if (!page_info->next_cursor) break;
    std::string next = std::move(*page_info->next_cursor);
    if (!seen.insert(next).second)
      return fail(errc::protocol_error, c.transport->describe() + ": " + std::string(method) +
                                            " repeated the cursor \"" + next +
                                            "\"; the server's pagination is broken");
    cursor = std::move(next);
  }
  return items;
}

}  // namespace

result<std::vector<json>> client::list_tools(const list_options& options) {
  if (!options.refresh) {
    std::lock_guard lock(impl_->mu);
    if (impl_->tools_cache) return *impl_->tools_cache;
  }
  auto tools = list_all(*impl_, "tools/list", "tools", options.call);
  if (!tools) return tools;
  if (impl_->carries_headers && stateless()) {
    std::string warnings;
    *tools = valid_header_tools(std::move(*tools), &warnings);
  }
  std::lock_guard lock(impl_->mu);
  impl_->tool_schemas.clear();
  for (const auto& t : *tools)
    if (auto tool = decode<wire::tool_ref>(t, "tool"))  // a tool without a name is not callable
      impl_->tool_schemas[tool->name] = tool->input_schema.value_or(json::object());
  impl_->tools_cache = *tools;
  return tools;
}

result<json> client::call_tool_raw(std::string_view name, const json& arguments,
                                   const call_options& options) {
  auto r = start_tool_task(name, arguments, options);
  if (!r) return r;
  std::string id = created_task_id(*r);
  if (id.empty()) return r;
  if (!impl_->options.tasks)
    return fail(errc::protocol_error, describe() + ": tools/call \"" + std::string(name) +
                                          "\" answered with a task, but this client has tasks off");
  return wait_task(id, options);
}

result<tool_result> client::call_tool(std::string_view name, const json& arguments,
                                      const call_options& options) {
  auto raw = call_tool_raw(name, arguments, options);
  if (!raw) return fail(raw.error());
  auto r = result_from_json(*raw);
  if (!r)
    return fail(errc::protocol_error, describe() + ": tools/call \"" + std::string(name) +
                                          "\" returned a malformed result: " + r.error().message);
  return r;
}

result<std::vector<json>> client::list_resources(const list_options& options) {
  return list_all(*impl_, "resources/list", "resources", options.call);
}

result<std::vector<json>> client::list_resource_templates(const list_options& options) {
  return list_all(*impl_, "resources/templates/list", "resourceTemplates", options.call);
}

result<std::vector<json>> client::list_prompts(const list_options& options) {
  return list_all(*impl_, "prompts/list", "prompts", options.call);
}

result<json> client::read_resource(std::string_view uri, const call_options& options) {
  return impl_->request("resources/read", {{"uri", std::string(uri)}}, options);
}

status client::subscribe_resource(std::string_view uri, const call_options& options) {
  auto r = impl_->request("resources/subscribe", {{"uri", std::string(uri)}}, options);
  if (!r) return fail(r.error());
  return {};
}

status client::unsubscribe_resource(std::string_view uri, const call_options& options) {
  auto r = impl_->request("resources/unsubscribe", {{"uri", std::string(uri)}}, options);
  if (!r) return fail(r.error());
  return {};
}

result<json> client::get_prompt(std::string_view name, const json& arguments,
                                const call_options& options) {
  json params = {{"name", std::string(name)}};
  if (arguments.is_object() && !arguments.empty()) params["arguments"] = arguments;
  return impl_->request("prompts/get", std::move(params), options);
}

result<completion_result> client::complete(const json& ref, std::string_view argument,
                                           std::string_view value, const json& context,
                                           const call_options& options) {
  wire::complete_params params{
      .ref = ref,
      .argument = {.name = std::string(argument), .value = std::string(value)}};
  if (context.is_object()) params.context = json{{"arguments", context}};
  auto r = impl_->request("completion/complete", encode(params), options);
  if (!r) return fail(r.error());
  auto c = decode<wire::complete_result>(*r, "result");
  if (!c)
    return fail(errc::protocol_error,
                describe() + ": completion/complete result is malformed: " + c.error().message);
  return completion_result{.values = std::move(c->completion.values),
                           .total = c->completion.total,
                           .has_more = c->completion.has_more.value_or(false)};
}

status client::set_logging_level(log_level level, const call_options& options) {
  if (stateless()) {
    std::lock_guard lock(impl_->mu);
    impl_->level = level;
    return {};
  }
  auto r = impl_->request("logging/setLevel", {{"level", std::string(to_string(level))}}, options);
  if (!r) return fail(r.error());
  return {};
}

status client::ping(const call_options& options) {
  auto r = impl_->request(stateless() ? "server/discover" : "ping", json::object(), options);
  if (!r) return fail(r.error());
  return {};
}

result<json> client::request(std::string_view method, json params, const call_options& options) {
  return impl_->request(method, std::move(params), options);
}

status client::notify(std::string_view method, json params) {
  json m = {{"jsonrpc", "2.0"}, {"method", std::string(method)}};
  if (!params.is_null()) m["params"] = std::move(params);
  return impl_->write(m);
}

}  // namespace tooluse::mcp
