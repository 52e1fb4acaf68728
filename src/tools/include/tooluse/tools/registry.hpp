#pragma once
/// \file registry.hpp
/// tooluse::tool_registry, the set of tools an agent or server offers, and the raw level of the
/// tool API: a definition plus a handler taking JSON. The typed level (typed.hpp) and stateful
/// tool objects (tool_object) end in the same registry entry.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/schema/validator.hpp"
#include "tooluse/tools/call_context.hpp"
#include "tooluse/tools/tool.hpp"
#include "tooluse/tools/tool_call.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse {

/// tool_handler runs a call: JSON arguments in, a result out. It may throw; the registry turns
/// an exception into an error result the model sees. Must be safe to call concurrently unless
/// the tool sets max_parallel = 1.
using tool_handler = std::function<tool_result(const json& arguments, call_context& ctx)>;

/// tool_object is a stateful tool: state built once (an index, a connection), many calls.
/// Register it with tool_registry::add(std::shared_ptr<tool_object>); the registry keeps it alive.
/// Example:
///   class doc_search : public tooluse::tool_object {
///     tool definition() const override { return {.name = "doc_search", ...}; }
///     tool_result call(const json& args, call_context& ctx) override { ... }
///   };
class tool_object {
 public:
  virtual ~tool_object() = default;
  /// definition returns the tool's definition; called once, at registration.
  virtual tool definition() const = 0;
  /// call runs one call. Called concurrently unless the definition sets max_parallel = 1.
  virtual tool_result call(const json& arguments, call_context& ctx) = 0;
};

/// registered_tool is an immutable registry entry: the definition, its handler and the
/// compiled input schema. Entries are shared, so a call in flight survives unregistration.
struct registered_tool {
  tool definition;
  tool_handler handler;
  std::shared_ptr<const schema::validator> input_validator;
};

/// tool_filter selects tools (seed 002's filter_tools_for_agent). Empty fields match everything.
struct tool_filter {
  std::vector<std::string> names;       ///< only these names (registration order kept)
  std::string category;                 ///< only this category
  std::vector<std::string> any_tags;    ///< at least one of these tags
  bool exclude_dangerous = false;       ///< drop tools marked dangerous
  std::optional<double> max_cost;       ///< drop tools whose cost_per_call is higher
};

/// registry_event tells listeners what changed.
struct registry_event {
  enum class kind { added, replaced, removed };
  kind what;
  std::string name;
};

/// tool_registry holds tools by name. Thread-safety: safe for concurrent find, list and call;
/// add and remove take an exclusive lock briefly. Listeners run on the thread that made the
/// change, after the lock is released.
/// add_options tunes tool_registry::add.
struct add_options {
  bool replace = false;  ///< replace a tool of the same name instead of throwing
  /// validate_arguments false: the entry's validator accepts any object (the input schema is
  /// still checked and published); the MCP server option of the same name.
  bool validate_arguments = true;
  /// compiled_input: the input schema already compiled, with the default compile_options as the
  /// registry compiles it (add_tool compiles it for its typed handler). The entry shares it
  /// instead of compiling the schema again when it is the same schema, so the handler can tell
  /// by identity that the engine checked the arguments against its own schema
  /// (call_context::validated_against). A validator of another schema is ignored.
  std::shared_ptr<const schema::validator> compiled_input;
};

class tool_registry {
 public:
  tool_registry();
  ~tool_registry();
  tool_registry(const tool_registry&) = delete;
  tool_registry& operator=(const tool_registry&) = delete;

  /// add registers a tool with a raw handler (JSON in, result out).
  /// Throws std::invalid_argument if the name is invalid, the input schema is not an object
  /// schema or does not compile, the handler is empty, or the name is taken and
  /// options.replace is false.
  /// Example:
  ///   registry.add({.name = "greet", .description = "Greet a user"},
  ///                [](const json& args, call_context&) {
  ///                  return tool_result::text("Hi " + args.value("user", "you"));
  ///                });
  void add(tool definition, tool_handler handler, add_options options = {});

  /// add registers a stateful tool object; same rules as the raw add.
  void add(std::shared_ptr<tool_object> object, add_options options = {});

  /// remove unregisters `name`; returns false if there was no such tool.
  bool remove(std::string_view name);

  /// find returns the entry for `name`, or nullptr.
  std::shared_ptr<const registered_tool> find(std::string_view name) const;

  /// list returns the entries matching `filter`, in registration order.
  std::vector<std::shared_ptr<const registered_tool>> list(const tool_filter& filter = {}) const;

  /// names returns every tool name, in registration order.
  std::vector<std::string> names() const;

  /// categories returns the distinct non-empty categories, sorted.
  std::vector<std::string> categories() const;

  /// size returns the number of tools.
  std::size_t size() const;

  /// call runs the handler of call.name with call.arguments, at the raw level: no schema
  /// validation, no timeout (the execution engine adds those). An unknown tool, unparsed
  /// arguments or a throwing handler become error results; call never throws.
  tool_result call(const tool_call& call, call_context& ctx) const;

  using listener_id = std::uint64_t;
  /// on_change registers a listener for additions, replacements and removals.
  listener_id on_change(std::function<void(const registry_event&)> listener);
  /// remove_listener unregisters a listener; unknown ids are ignored.
  void remove_listener(listener_id id);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// invoke_handler runs `entry`'s handler, turning exceptions into error results. Used by the
/// registry and the execution engine.
tool_result invoke_handler(const registered_tool& entry, const json& arguments, call_context& ctx);

}  // namespace tooluse
