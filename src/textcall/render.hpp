#pragma once
// Shared pieces of the renderers.

#include <string>
#include <string_view>

#include "tooluse/textcall/text_format.hpp"

namespace tooluse::textcall::detail {

/// python_literal writes a JSON value as a Python literal (None, True, "x", [..], {..}).
std::string python_literal(const json& v);

/// python_string writes a double-quoted Python string literal.
std::string python_string(std::string_view s);

/// python_call writes name(k=v, ...).
std::string python_call(const tool_call& c);

/// call_object is {"name": .., args_key: ..}.
json call_object(const tool_call& c, const char* args_key);

}  // namespace tooluse::textcall::detail
