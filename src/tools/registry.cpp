#include "tooluse/tools/registry.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

#include "tooluse/thread_cache.hpp"

namespace tooluse {

struct tool_registry::impl {
  mutable std::shared_mutex mutex;
  // Registration order is kept in `order`; `by_name` gives O(log n) lookup.
  std::vector<std::shared_ptr<const registered_tool>> order;
  std::map<std::string, std::shared_ptr<const registered_tool>, std::less<>> by_name;

  std::mutex listeners_mutex;
  std::map<listener_id, std::function<void(const registry_event&)>> listeners;
  listener_id next_listener = 1;

  void notify(const registry_event& event) {
    std::vector<std::function<void(const registry_event&)>> copy;
    {
      std::lock_guard lock(listeners_mutex);
      for (auto& [id, fn] : listeners) copy.push_back(fn);
    }
    for (auto& fn : copy) fn(event);
  }
};

namespace {

// Each thread's recent finds (thread_cache.hpp): a request looks its tool up several times, on
// whichever I/O thread serves it, and the registry's lock and its entries' reference counts
// would otherwise pass between the threads' caches on every lookup.
using lookups = detail::thread_cache<const registered_tool>;

std::shared_ptr<const registered_tool> make_entry(tool definition, tool_handler handler,
                                                 const add_options& options) {
  const std::string& name = definition.name;
  if (!is_valid_tool_name(name))
    throw std::invalid_argument("tool name \"" + name +
                                "\" is invalid: use 1 to 128 of A-Z a-z 0-9 _ . -");
  if (!handler) throw std::invalid_argument("tool \"" + name + "\": the handler is empty");
  const json& s = definition.input_schema;
  if (!s.is_object() || s.value("type", json()) != "object")
    throw std::invalid_argument("tool \"" + name +
                                "\": input_schema must be a JSON object schema with \"type\": "
                                "\"object\"");
  // The caller's validator of this very schema is shared (add_tool compiled it for its typed
  // handler); any other schema is compiled here.
  std::shared_ptr<const schema::validator> input;
  if (options.compiled_input && options.compiled_input->schema() == s) {
    input = options.compiled_input;
  } else {
    auto compiled = schema::validator::compile(s);
    if (!compiled)
      throw std::invalid_argument("tool \"" + name +
                                  "\": input_schema does not compile: " + compiled.error().message);
    input = std::make_shared<const schema::validator>(std::move(*compiled));
  }
  if (definition.output_schema) {
    auto out = schema::validator::compile(*definition.output_schema);
    if (!out)
      throw std::invalid_argument("tool \"" + name + "\": output_schema does not compile: " +
                                  out.error().message);
  }
  if (definition.max_parallel < 0 || definition.rate.calls < 0 || definition.cost_per_call < 0)
    throw std::invalid_argument("tool \"" + name +
                                "\": max_parallel, rate.calls and cost_per_call must be >= 0");
  auto entry = std::make_shared<registered_tool>();
  entry->definition = std::move(definition);
  entry->handler = std::move(handler);
  if (!options.validate_arguments)
    input = std::make_shared<const schema::validator>(*schema::validator::compile(json{{"type", "object"}}));
  entry->input_validator = std::move(input);
  return entry;
}

bool matches(const tool& t, const tool_filter& f) {
  if (!f.names.empty() && std::find(f.names.begin(), f.names.end(), t.name) == f.names.end())
    return false;
  if (!f.category.empty() && t.category != f.category) return false;
  if (!f.any_tags.empty()) {
    bool any = std::any_of(f.any_tags.begin(), f.any_tags.end(), [&](const std::string& tag) {
      return std::find(t.tags.begin(), t.tags.end(), tag) != t.tags.end();
    });
    if (!any) return false;
  }
  if (f.exclude_dangerous && t.dangerous) return false;
  if (f.max_cost && t.cost_per_call > *f.max_cost) return false;
  return true;
}

}  // namespace

tool_registry::tool_registry() : impl_(std::make_unique<impl>()) {}
tool_registry::~tool_registry() { lookups::forget(impl_.get()); }

void tool_registry::add(tool definition, tool_handler handler, add_options options) {
  auto entry = make_entry(std::move(definition), std::move(handler), options);
  registry_event event{registry_event::kind::added, entry->definition.name};
  {
    std::unique_lock lock(impl_->mutex);
    auto it = impl_->by_name.find(event.name);
    if (it != impl_->by_name.end()) {
      if (!options.replace)
        throw std::invalid_argument("tool \"" + event.name +
                                    "\" is already registered: remove it first or pass "
                                    "{.replace = true}");
      auto pos = std::find(impl_->order.begin(), impl_->order.end(), it->second);
      *pos = entry;
      it->second = entry;
      event.what = registry_event::kind::replaced;
    } else {
      impl_->by_name.emplace(event.name, entry);
      impl_->order.push_back(entry);
    }
  }
  if (event.what == registry_event::kind::replaced) lookups::forget(impl_.get());
  impl_->notify(event);
}

void tool_registry::add(std::shared_ptr<tool_object> object, add_options options) {
  if (!object) throw std::invalid_argument("tool_registry::add: the tool object is null");
  tool definition = object->definition();
  add(std::move(definition),
      [object](const json& args, call_context& ctx) { return object->call(args, ctx); }, options);
}

bool tool_registry::remove(std::string_view name) {
  {
    std::unique_lock lock(impl_->mutex);
    auto it = impl_->by_name.find(name);
    if (it == impl_->by_name.end()) return false;
    impl_->order.erase(std::find(impl_->order.begin(), impl_->order.end(), it->second));
    impl_->by_name.erase(it);
  }
  lookups::forget(impl_.get());
  impl_->notify({registry_event::kind::removed, std::string(name)});
  return true;
}

std::shared_ptr<const registered_tool> tool_registry::find(std::string_view name) const {
  return lookups::get(impl_.get(), name, [&]() -> std::shared_ptr<const registered_tool> {
    std::shared_lock lock(impl_->mutex);
    auto it = impl_->by_name.find(name);
    return it == impl_->by_name.end() ? nullptr : it->second;
  });
}

std::vector<std::shared_ptr<const registered_tool>> tool_registry::list(
    const tool_filter& filter) const {
  std::vector<std::shared_ptr<const registered_tool>> out;
  std::shared_lock lock(impl_->mutex);
  if (!filter.names.empty()) {
    // Keep the caller's order when names are given, so `--tools b,a` means b then a.
    for (const auto& n : filter.names) {
      auto it = impl_->by_name.find(n);
      if (it != impl_->by_name.end() && matches(it->second->definition, filter))
        out.push_back(it->second);
    }
    return out;
  }
  for (const auto& e : impl_->order)
    if (matches(e->definition, filter)) out.push_back(e);
  return out;
}

std::vector<std::string> tool_registry::names() const {
  std::shared_lock lock(impl_->mutex);
  std::vector<std::string> out;
  out.reserve(impl_->order.size());
  for (const auto& e : impl_->order) out.push_back(e->definition.name);
  return out;
}

std::vector<std::string> tool_registry::categories() const {
  std::set<std::string> cats;
  std::shared_lock lock(impl_->mutex);
  for (const auto& e : impl_->order)
    if (!e->definition.category.empty()) cats.insert(e->definition.category);
  return {cats.begin(), cats.end()};
}

std::size_t tool_registry::size() const {
  std::shared_lock lock(impl_->mutex);
  return impl_->order.size();
}

tool_result invoke_handler(const registered_tool& entry, const json& arguments,
                           call_context& ctx) {
  const std::string& name = entry.definition.name;
  // Never run a sandboxed handler in-process (docs/sandbox.md): it runs in a worker or not at all.
  if (entry.definition.sandboxed && !entry.definition.sandboxed_by_handler)
    return tool_result::error(
        "tool \"" + name +
        "\" is sandboxed but runs in no worker process; the host must call "
        "tooluse::start_tool_workers(registry) after registering it (before starting threads)");
  try {
    return entry.handler(arguments, ctx);
  } catch (const std::exception& e) {
    return tool_result::error("tool \"" + name + "\" failed: " + e.what());
  } catch (...) {
    return tool_result::error("tool \"" + name + "\" failed with an unknown exception");
  }
}

tool_result tool_registry::call(const tool_call& call, call_context& ctx) const {
  auto entry = find(call.name);
  if (!entry) {
    std::string available;
    for (const auto& n : names()) available += (available.empty() ? "" : ", ") + n;
    return tool_result::error("unknown tool \"" + call.name + "\"; available tools: " +
                              (available.empty() ? "(none)" : available));
  }
  if (call.arguments.is_null())
    return tool_result::error("tool \"" + call.name +
                              "\": the arguments are not valid JSON; send a JSON object "
                              "matching the tool's input schema");
  return invoke_handler(*entry, call.arguments, ctx);
}

tool_registry::listener_id tool_registry::on_change(
    std::function<void(const registry_event&)> listener) {
  std::lock_guard lock(impl_->listeners_mutex);
  listener_id id = impl_->next_listener++;
  impl_->listeners.emplace(id, std::move(listener));
  return id;
}

void tool_registry::remove_listener(listener_id id) {
  std::lock_guard lock(impl_->listeners_mutex);
  impl_->listeners.erase(id);
}

}  // namespace tooluse
