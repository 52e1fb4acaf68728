#include "tooluse/enum_names.hpp"

namespace tooluse::detail {

std::string join_names(const std::vector<std::string_view>& names) {
  std::string out;
  for (auto n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

}  // namespace tooluse::detail
