// Fuzzes parse_json, the bounded parse every peer's JSON goes through: never crashes or
// recurses (any depth, any bytes), refuses only with parse_error or limit_exceeded, and agrees
// with nlohmann's own parser on every document within the limits: the same value, node types
// included, and for a document it refuses, the same refusal as parse_json_nlohmann (parse_json
// tokenizes small documents with simdjson; this holds the two paths to one answer). json_reader
// (json_view.hpp) must take only documents parse_json takes, and build the same value.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tooluse/json.hpp"
#include "tooluse/json_view.hpp"
#include "../support/json_same.hpp"

namespace {
void agree(std::string_view text, const tooluse::json_limits& limits) {
  auto fast = tooluse::parse_json(text, limits);
  auto reference = tooluse::detail::parse_json_nlohmann(text, limits);
  if (fast.has_value() != reference.has_value()) std::abort();
  if (fast && !tooluse::testing::json_same(*fast, *reference)) std::abort();
  if (!fast && (fast.error().code != reference.error().code ||
                fast.error().message != reference.error().message))
    std::abort();
}
bool has_negative_zero(const tooluse::json& v) {
  if (v.is_number_float()) return v.get<double>() == 0 && std::signbit(v.get<double>());
  if (!v.is_structured()) return false;
  for (const auto& item : v)
    if (has_negative_zero(item)) return true;
  return false;
}

// read_agrees: json_reader reads only what parse_json takes, and builds what it builds.
void read_agrees(std::string_view text, const tooluse::json_limits& limits) {
  static tooluse::json_reader reader;
  auto view = reader.read(text, limits);
  if (!view) return;
  auto parsed = tooluse::parse_json(text, limits);
  if (!parsed) std::abort();
  // nullopt only for a float -0.0 somewhere, or a zero in a text with a "-0"
  auto built = view->to_json();
  if (built && !tooluse::testing::json_same(*built, *parsed)) std::abort();
  if (!built && !has_negative_zero(*parsed) && text.find("-0") == std::string_view::npos) std::abort();
}
}  // namespace

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
  agree(text, json_limits{});
  agree(text, json_limits{.max_depth = 4, .max_bytes = 4096, .max_values = 64});
  read_agrees(text, json_limits{});
  read_agrees(text, json_limits{.max_depth = 4, .max_bytes = 4096, .max_values = 64});
  if (bounded) {
    // Within the limits, the same value as nlohmann builds (its parse recurses only in
    // destruction-free ways up to depth 128, so this is safe here).
    json reference = json::parse(text.begin(), text.end(), nullptr, false);
    if (reference.is_discarded() || reference != *bounded) std::abort();
    // dump_json writes compact text itself: byte for byte what nlohmann's serializer writes.
    if (dump_json(*bounded) != bounded->dump(-1, ' ', false, json::error_handler_t::replace))
      std::abort();
  }
  return 0;
}
