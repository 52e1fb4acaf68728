#pragma once
/// \file decode_error.hpp
/// decode_error stands for a Python exception raised by BFCL's decoders and type converters
/// (tree-sitter based Java/JavaScript parsers, java_type_converter, js_type_converter). what()
/// is exactly the exception's str(), so score reports can quote it as BFCL does.

#include <stdexcept>

namespace tooluse::eval::detail {

struct decode_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tooluse::eval::detail
