#pragma once
/// \file decode_error.hpp
/// decode_error stands for a Python exception raised by BFCL's decoders and type converters
/// (tree-sitter based Java/JavaScript parsers, java_type_converter, js_type_converter). what()
/// is exactly the exception's str(), so score reports can quote it as BFCL does.

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tooluse::eval::detail {

struct decode_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// require_known_type is a type converter's first check: it raises "Unsupported type: T" unless
/// `t` is one of the types it `knows`.
inline void require_known_type(std::string_view t, std::initializer_list<std::string_view> knows) {
  for (std::string_view k : knows)
    if (t == k) return;
  throw decode_error("Unsupported type: " + std::string(t));
}

}  // namespace tooluse::eval::detail
