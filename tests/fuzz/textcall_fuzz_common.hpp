#pragma once
// Shared by the textcall fuzz targets: parse a text whole and streamed in chunks, and abort
// (a finding) when the two results differ.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tooluse/textcall/text_format.hpp"

namespace textcall_fuzz {

using namespace tooluse::textcall;


inline const parse_options& options() {
  static const parse_options o{.schemas = {
      {"get_weather", tooluse::json::parse(R"({"type":"object","properties":{"city":{"type":"string"},
          "days":{"type":"integer"},"ok":{"type":"boolean"},"tags":{"type":"array"}}})")},
      {"f", tooluse::json::parse(R"({"type":"object","properties":{"a":{"type":"number"}}})")}}};
  return o;
}

inline void check(format f, std::string_view text, std::size_t chunk) {
  parsed_text whole = parse(f, text, options());
  stream_parser p(f, options());
  parsed_text streamed;
  auto take = [&streamed](stream_delta d) {
    streamed.content += d.content;
    streamed.reasoning += d.reasoning;
    for (auto& c : d.calls) streamed.calls.push_back(std::move(c));
  };
  for (std::size_t i = 0; i < text.size(); i += chunk) take(p.feed(text.substr(i, chunk)));
  take(p.finish());
  if (streamed.content != whole.content || streamed.reasoning != whole.reasoning ||
      streamed.calls.size() != whole.calls.size())
    std::abort();
  for (std::size_t i = 0; i < whole.calls.size(); ++i) {
    if (streamed.calls[i].name != whole.calls[i].name ||
        streamed.calls[i].arguments != whole.calls[i].arguments)
      std::abort();
  }
}

/// run_formats checks every format of `formats` on the input: the first byte picks the chunk size.
inline int run_formats(const uint8_t* data, size_t size, std::initializer_list<format> formats) {
  if (size < 1 || size > 4096) return 0;
  std::size_t chunk = 1 + data[0] % 16;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  for (format f : formats) check(f, text, chunk);
  return 0;
}

}  // namespace textcall_fuzz
