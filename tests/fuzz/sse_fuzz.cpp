// Fuzzes http::sse_parser: any bytes, fed whole and in two pieces at a data-chosen split, must
// give the same events, never crash, and every event's data must come from the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "tooluse/http/sse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using tooluse::http::sse_event;
  using tooluse::http::sse_parser;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<sse_event> whole, split;
  sse_parser a, b;
  a.feed(input, [&](const sse_event& e) { whole.push_back(e); });
  a.finish();
  size_t cut = size == 0 ? 0 : data[0] % (size + 1);
  auto on = [&](const sse_event& e) { split.push_back(e); };
  b.feed(input.substr(0, cut), on);
  b.feed(input.substr(cut), on);
  b.finish();
  if (whole != split) std::abort();
  for (const auto& e : whole)
    if (e.data.size() > size) std::abort();
  return 0;
}
