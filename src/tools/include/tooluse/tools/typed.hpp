#pragma once
/// \file typed.hpp
/// tooluse::add_tool, the typed level of the tool API: a C++ callable taking a described
/// argument struct. The input schema is generated from the struct (schema_for), arguments are
/// validated and decoded before the call, and return values and exceptions become tool results.
/// Built on the raw level (tool_registry::add), so a typed tool is an ordinary registry entry.

#include <memory>
#include <mutex>
#include <utility>

#include "tooluse/tools/detail/typed_impl.hpp"

namespace tooluse {

/// add_tool registers `fn` as a tool. `fn` takes `const In&` or `(const In&, call_context&)`,
/// where In is a struct described with TOOLUSE_DESCRIBE (deduced from `fn`'s first parameter
/// unless given), and returns one of:
///   - std::string (or anything convertible to std::string_view): a text result;
///   - a described struct: structured content (its JSON also as text), and `output_schema`
///     is inferred from the struct unless `definition` sets one;
///   - tooluse::json: structured content if it is an object, else its JSON text;
///   - tool_result: used as is; any other encodable value (number, vector...): its JSON text;
///   - result<T> of any of these: an error becomes an error result with the error's message.
/// `definition.input_schema` is replaced by schema_for<In>() (additionalProperties: false).
/// At call time: nulls for non-required properties are dropped, the arguments are validated
/// against the schema, decoded (errors name the JSON path), then `fn` runs; exceptions it
/// throws become error results "tool \"<name>\" failed: <what>". `fn` is called concurrently
/// unless the tool sets max_parallel = 1, through a const reference.
/// Throws std::invalid_argument as tool_registry::add does, or if a described constraint does
/// not fit its field's type.
/// Example:
///   tooluse::add_tool(registry, {.name = "add", .description = "Add two numbers"},
///                     [](const add_args& in) -> tooluse::result<double> { return in.a + in.b; });
template <class In = detail::deduce_in, class F>
void add_tool(tool_registry& registry, tool definition, F&& fn, add_options options = {}) {
  using fn_type = std::remove_cvref_t<F>;
  using in_type = typename detail::input_type<In, fn_type>::type;
  static_assert(detail::described_struct<in_type>,
                "tooluse::add_tool: the argument type must be a struct described with "
                "TOOLUSE_DESCRIBE(type, (field, \"description\"), ...)");
  static_assert(std::is_invocable_v<const fn_type&, const in_type&, call_context&> ||
                    std::is_invocable_v<const fn_type&, const in_type&>,
                "tooluse::add_tool: the callable must be invocable (as const) with "
                "(const In&) or (const In&, tooluse::call_context&)");
  using ret = typename detail::handler_return_t<in_type, fn_type>::type;
  definition.input_schema = schema_for<in_type>();
  if (!definition.output_schema) definition.output_schema = detail::output_schema_for<ret>();
  auto compiled = schema::validator::compile(definition.input_schema);
  if (!compiled)
    throw std::invalid_argument("tool \"" + definition.name +
                                "\": the inferred input schema does not compile: " +
                                compiled.error().message);
  auto validator = std::make_shared<const schema::validator>(std::move(*compiled));
  options.compiled_input = validator;  // the engine checks calls with the handler's own validator
  detail::typed_handler<in_type, fn_type> handler{std::forward<F>(fn), std::move(validator), definition.name};
  registry.add(std::move(definition), std::move(handler), options);
}

/// add_tool registers a stateful tool: `object` is built once (an index, a connection) and
/// kept alive by the registry; each call runs `(object->*method)(in[, ctx])`. A non-const
/// method is called under a mutex (one call at a time); a const method is called concurrently.
/// Example:
///   auto search = std::make_shared<doc_search>(load_corpus());
///   tooluse::add_tool(registry, {.name = "doc_search", .description = "..."}, search,
///                     &doc_search::search);
template <class C, class M>
  requires std::is_member_function_pointer_v<M>
void add_tool(tool_registry& registry, tool definition, std::shared_ptr<C> object, M method,
              add_options options = {}) {
  if (!object) throw std::invalid_argument("tool \"" + definition.name + "\": the object is null");
  using traits = detail::callable_traits<M>;
  using in_type = std::remove_cvref_t<std::tuple_element_t<0, typename traits::args>>;
  constexpr bool with_ctx = std::tuple_size_v<typename traits::args> == 2;
  if constexpr (traits::is_const) {
    add_tool<in_type>(registry, std::move(definition),
                      [object, method](const in_type& in, call_context& ctx) {
                        if constexpr (with_ctx)
                          return ((*object).*method)(in, ctx);
                        else
                          return ((*object).*method)(in);
                      },
                      options);
  } else {
    auto mutex = std::make_shared<std::mutex>();
    add_tool<in_type>(registry, std::move(definition),
                      [object, method, mutex](const in_type& in, call_context& ctx) {
                        std::lock_guard lock(*mutex);
                        if constexpr (with_ctx)
                          return ((*object).*method)(in, ctx);
                        else
                          return ((*object).*method)(in);
                      },
                      options);
  }
}

/// add_tool registers a stateful tool object whose call operator takes the arguments; same
/// rules as the member-function form (a non-const operator() is serialized by a mutex).
template <class C>
  requires requires { &C::operator(); }
void add_tool(tool_registry& registry, tool definition, std::shared_ptr<C> object,
              add_options options = {}) {
  add_tool(registry, std::move(definition), std::move(object), &C::operator(), options);
}

}  // namespace tooluse
