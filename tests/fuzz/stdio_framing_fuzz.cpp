// Fuzzes the stdio line framing (jsonrpc::line_framer) and peek_id: the same lines whether the
// bytes arrive whole or split at a data-chosen point, a held line never over the limit, every
// line within the limit delivered intact, and peek_id never crashing on a cut message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/jsonrpc/framing.hpp"

namespace {

struct collected {
  std::vector<std::string> lines;
  std::vector<std::string> heads;
};

collected run(std::string_view input, std::size_t max, std::size_t cut) {
  collected c;
  tooluse::jsonrpc::line_framer f(max);
  auto on_line = [&](std::string_view l) {
    if (l.size() > max) std::abort();
    c.lines.emplace_back(l);
  };
  auto on_overflow = [&](std::string_view h) {
    (void)tooluse::jsonrpc::peek_id(h);
    c.heads.emplace_back(h);
  };
  f.feed(input.substr(0, cut), on_line, on_overflow);
  if (f.buffered() > max) std::abort();
  f.feed(input.substr(cut), on_line, on_overflow);
  if (f.buffered() > max) std::abort();
  f.finish(on_line, on_overflow);
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::size_t max = 1 + data[0] % 64;
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t cut = data[1] % input.size();
  auto whole = run(input, max, input.size());
  auto split = run(input, max, cut);
  if (whole.lines != split.lines || whole.heads.size() != split.heads.size()) std::abort();
  (void)tooluse::jsonrpc::peek_id(input);
  return 0;
}
