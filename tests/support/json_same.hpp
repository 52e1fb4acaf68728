#pragma once
// json_same: equal JSON values with equal node types. json's == takes 1 for 1.0 and an unsigned
// integer for a signed one; parse_json's two tokenizers must agree on those too
// (tests/unit/core/json_simd_test.cpp, the json_parse fuzzer).
#include "tooluse/json.hpp"

namespace tooluse::testing {

inline bool json_same(const json& a, const json& b) {
  if (a.type() != b.type() || a.size() != b.size()) return false;
  if (a.is_object()) {
    for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
      if (i.key() != j.key() || !json_same(*i, *j)) return false;
    return true;
  }
  if (a.is_array()) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!json_same(a[i], b[i])) return false;
    return true;
  }
  if (a.is_number_float()) return dump_json(a) == dump_json(b);
  return a == b;
}

}  // namespace tooluse::testing
