// Fuzzes parse_json, the bounded parse every peer's JSON goes through: never crashes or
// recurses (any depth, any bytes), refuses only with parse_error or limit_exceeded, and agrees
// with nlohmann's own parser on every document within the limits.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tooluse/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tooluse;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto bounded = parse_json(text);
  auto tiny = parse_json(text, json_limits{.max_depth = 4, .max_bytes = 4096, .max_values = 64});
  if (!bounded && bounded.error().code != errc::parse_error &&
      bounded.error().code != errc::limit_exceeded)
    std::abort();
  if (tiny && !bounded) std::abort();  // tighter limits can only refuse more
  if (tiny && *tiny != *bounded) std::abort();
  if (bounded) {
    // Within the limits, the same value as nlohmann builds (its parse recurses only in
    // destruction-free ways up to depth 128, so this is safe here).
    json reference = json::parse(text.begin(), text.end(), nullptr, false);
    if (reference.is_discarded() || reference != *bounded) std::abort();
    (void)dump_json(*bounded);
  }
  return 0;
}
