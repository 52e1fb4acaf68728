#pragma once
/// \file js.hpp
/// The JavaScript side of BFCL (gorilla commit de8307b4, 2024-08-11):
/// parse_javascript_function_call (js_parser.py, built on tree-sitter-javascript 0.21.4) and
/// js_type_converter (js_type_converter.py), reproducing BFCL's behaviour, quirks included.

#include <optional>
#include <string_view>

#include "eval/decode_error.hpp"
#include "tooluse/eval/py_value.hpp"

namespace tooluse::eval::detail {

/// BFCL's parse_javascript_function_call(source): `[{name: {arg: value}}]` for the first
/// top-level expression statement that is a call, None when there is none. Values are the
/// raw source text of the argument with one pair of surrounding quotes removed; bare
/// identifiers and `true` are keyed by None; other arguments are skipped. Throws decode_error
/// with BFCL's message when tree-sitter's tree would hold an ERROR node or a name repeats.
py_value parse_javascript_function_call(std::string_view source);

/// BFCL's js_type_converter(value, expected_type, nested_type). Throws decode_error for
/// BFCL's ValueError (message = str(e)).
py_value js_type_converter(const py_value& value, std::string_view expected_type,
                           std::optional<std::string_view> nested_type = std::nullopt);

}  // namespace tooluse::eval::detail
