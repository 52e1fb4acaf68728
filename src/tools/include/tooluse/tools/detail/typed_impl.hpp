#pragma once
/// \file typed_impl.hpp
/// Internals of tooluse::add_tool: callable traits, argument checking and result mapping.

#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>

#include "tooluse/describe.hpp"
#include "tooluse/tools/registry.hpp"

namespace tooluse::detail {

/// deduce_in is add_tool's default `In`: take it from the callable's first parameter.
struct deduce_in {};

template <class F, class = void>
struct callable_traits {};
template <class R, class... A>
struct callable_traits<R (*)(A...), void> {
  using args = std::tuple<A...>;
};
template <class R, class... A>
struct callable_traits<R (*)(A...) noexcept, void> : callable_traits<R (*)(A...)> {};
template <class R, class C, class... A>
struct callable_traits<R (C::*)(A...), void> : callable_traits<R (*)(A...)> {
  static constexpr bool is_const = false;
};
template <class R, class C, class... A>
struct callable_traits<R (C::*)(A...) const, void> : callable_traits<R (*)(A...)> {
  static constexpr bool is_const = true;
};
template <class R, class C, class... A>
struct callable_traits<R (C::*)(A...) noexcept, void> : callable_traits<R (C::*)(A...)> {};
template <class R, class C, class... A>
struct callable_traits<R (C::*)(A...) const noexcept, void>
    : callable_traits<R (C::*)(A...) const> {};
template <class F>
struct callable_traits<F, std::void_t<decltype(&F::operator())>>
    : callable_traits<decltype(&F::operator())> {};

template <class F>
concept has_deducible_args = requires { typename callable_traits<F>::args; };

template <class In, class F>
struct input_type {
  using type = In;
};
template <class F>
struct input_type<deduce_in, F> {
  static_assert(has_deducible_args<F>,
                "tooluse::add_tool: cannot deduce the argument type from a generic callable; "
                "name it: tooluse::add_tool<my_args>(registry, {...}, fn)");
  using args = typename callable_traits<F>::args;
  static_assert(std::tuple_size_v<args> >= 1,
                "tooluse::add_tool: the callable must take the argument struct, e.g. "
                "[](const my_args& in) { ... }");
  using type = std::remove_cvref_t<std::tuple_element_t<0, args>>;
};

template <class T>
struct is_result : std::false_type {};
template <class T>
struct is_result<tl::expected<T, error>> : std::true_type {
  using value_type = T;
};

/// output_schema_for returns the inferred output schema of a handler returning R, if any:
/// only described structs (objects) get one, as MCP requires structured content to be an object.
template <class R>
std::optional<json> output_schema_for() {
  using V = std::remove_cvref_t<R>;
  if constexpr (is_result<V>::value)
    return output_schema_for<typename is_result<V>::value_type>();
  else if constexpr (described_struct<V>)
    return schema_for<V>();
  else
    return std::nullopt;
}

/// to_tool_result maps a handler's return value to a tool_result.
template <class R>
tool_result to_tool_result(R&& r) {
  using V = std::remove_cvref_t<R>;
  if constexpr (std::is_same_v<V, tool_result>) {
    return std::forward<R>(r);
  } else if constexpr (is_result<V>::value) {
    if (!r) return tool_result::error(r.error().message);
    if constexpr (std::is_void_v<typename is_result<V>::value_type>)
      return tool_result::text("ok");
    else
      return to_tool_result(std::move(*r));
  } else if constexpr (std::is_convertible_v<V, std::string_view>) {
    return tool_result::text(std::string(std::string_view(r)));
  } else if constexpr (std::is_same_v<V, json>) {
    return r.is_object() ? tool_result::structured(std::forward<R>(r)) : tool_result::text(dump_json(r));
  } else if constexpr (described_struct<V>) {
    return tool_result::structured(encode(r));
  } else {
    return tool_result::text(dump_json(encode(r)));
  }
}

/// has_null tells whether an object of arguments has a top-level null (drop_absent's work).
inline bool has_null(const json& args) {
  if (!args.is_object()) return false;
  for (const auto& kv : args.get_ref<const json::object_t&>())
    if (kv.second.is_null()) return true;
  return false;
}

/// drop_absent removes top-level nulls of properties the schema does not require: models
/// often send `"unit": null` for "not given", which decode reads as an absent optional.
inline json drop_absent(const json& args, const json& schema) {
  if (!args.is_object()) return args;
  const json* required = nullptr;
  if (auto it = schema.find("required"); it != schema.end()) required = &*it;
  json out = json::object();
  for (const auto& [key, value] : args.items()) {
    bool is_required = required && std::find(required->begin(), required->end(), key) != required->end();
    if (value.is_null() && !is_required) continue;
    out[key] = value;
  }
  return out;
}

/// typed_handler checks arguments against the schema, decodes them into In, runs the callable
/// and maps its return value or exception to a tool_result.
template <class In, class F>
struct typed_handler {
  F fn;
  std::shared_ptr<const schema::validator> validator;
  std::string name;

  tool_result operator()(const json& arguments, call_context& ctx) const {
    std::optional<json> dropped;  // copied only when there is a null to drop
    if (has_null(arguments)) dropped = drop_absent(arguments, validator->schema());
    const json& args = dropped ? *dropped : arguments;
    // Checked already (the engine validates every call against the tool's input schema, which
    // for a typed tool is this one, usually this very validator: add_options::compiled_input),
    // unless nulls were dropped since.
    const json& own = validator->schema();
    const bool checked = !dropped && ctx.validated_against &&
                         (ctx.validated_against == &own || *ctx.validated_against == own);
    auto errors = checked ? std::vector<schema::validation_error>{} : validator->validate(args);
    if (!errors.empty())
      return tool_result::error("invalid arguments for tool \"" + name + "\":\n" +
                                schema::format_errors(errors) +
                                "\nfix the arguments to match the tool's input schema and call again");
    auto in = decode<In>(args);
    if (!in)
      return tool_result::error("invalid arguments for tool \"" + name + "\": " +
                                in.error().message);
    try {
      if constexpr (std::is_invocable_v<const F&, const In&, call_context&>)
        return to_tool_result(std::invoke(fn, std::as_const(*in), ctx));
      else
        return to_tool_result(std::invoke(fn, std::as_const(*in)));
    } catch (const std::exception& e) {
      return tool_result::error("tool \"" + name + "\" failed: " + e.what());
    } catch (...) {
      return tool_result::error("tool \"" + name + "\" failed with an unknown exception");
    }
  }
};

template <class In, class F>
using handler_return_t =
    std::conditional_t<std::is_invocable_v<const F&, const In&, call_context&>,
                       std::invoke_result<const F&, const In&, call_context&>,
                       std::invoke_result<const F&, const In&>>;

}  // namespace tooluse::detail
