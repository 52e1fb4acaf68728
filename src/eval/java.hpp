#pragma once
/// \file java.hpp
/// The Java side of BFCL (gorilla commit de8307b4, 2024-08-11): parse_java_function_call
/// (java_parser.py, built on tree-sitter-java 0.21.0) and java_type_converter
/// (java_type_converter.py). Both reproduce BFCL's observable behaviour, quirks included.
/// Also declares Python int()/float() string conversions shared with js_convert.cpp.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/decode_error.hpp"
#include "tooluse/eval/py_value.hpp"

namespace tooluse::eval::detail {

/// BFCL's parse_java_function_call(source): `[{name: {arg: value}}]` for the first method
/// invocation found (pre-order), `{}` (an empty dict) when there is none. Named arguments
/// (`a=b`) are keyed by name, bare identifiers and class literals by None. Throws decode_error
/// with BFCL's message when tree-sitter's tree would hold an ERROR node, when a name repeats,
/// or when BFCL's text reconstruction fails (`new int[5]` has no initializer).
py_value parse_java_function_call(std::string_view source);

/// BFCL's java_type_converter(value, expected_type, nested_type). value must be a str (the
/// checker rejects others first); throws decode_error for BFCL's ValueError /
/// NotImplementedError (message = str(e)).
py_value java_type_converter(const py_value& value, std::string_view expected_type,
                             std::optional<std::string_view> nested_type = std::nullopt);

/// Python's int(s) for a str: nullopt where Python raises ValueError. Values beyond 64 bits
/// (Python ints are unbounded) come back as the nearest float, a documented deviation.
std::optional<py_value> python_int(std::string_view s);
/// Python's float(s) for a str (underscores, inf/nan spellings, surrounding whitespace).
std::optional<double> python_float(std::string_view s);
/// Python's str.strip() with no argument (ASCII and Unicode whitespace).
std::string_view python_strip(std::string_view s);
/// Python's str.split(",").
std::vector<std::string> split_comma(std::string_view s);
/// Python's s[1:-1] on code points.
std::string python_trim1(std::string_view s);

}  // namespace tooluse::eval::detail
