// libFuzzer target for the calculator's parser and evaluator: any bytes must give a value or a
// clean error (no crash, no sanitizer report), and the error must name a position or a limit.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tooluse/builtin/calculator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto v = tooluse::builtin::evaluate(text, {.max_length = 4096});
  if (v) {
    // Formatting must work for every value evaluate can produce.
    if (v->to_string().empty()) std::abort();
  } else if (v.error().message.empty()) {
    std::abort();
  }
  return 0;
}
