// Fuzzes the MCP endpoint's request reader (src/mcp/http_request.hpp): any bytes, fed in two
// pieces at a data-chosen split, must never crash, and must read exactly as Beast's own
// request_parser reads the same bytes: the same error or completion, and when complete the same
// method, target, version, keep-alive, body and fields (as sent, and found by name; in the order
// they came, where Beast's message moves a field next to the others of its name). And what
// read_plain_request takes, the reader over Beast's parser reads the same way.
#include <boost/beast/http.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/http_request.hpp"

namespace {
namespace http = boost::beast::http;

template <class Parser>
boost::beast::error_code feed(Parser& p, std::string_view input, std::size_t cut) {
  p.header_limit(8192);
  p.body_limit(65536);
  p.eager(true);
  boost::beast::error_code ec;
  std::string pending;
  for (std::string_view piece : {input.substr(0, cut), input.substr(cut)}) {
    pending.append(piece);
    while (!pending.empty() && !p.is_done()) {
      auto used = p.put(boost::asio::buffer(pending), ec);
      pending.erase(0, used);
      if (ec == http::error::need_more) {
        ec = {};
        break;
      }
      if (ec) return ec;
      if (used == 0) break;
    }
  }
  return ec;
}

std::string_view sv(boost::beast::string_view s) { return {s.data(), s.size()}; }

}  // namespace

// plain_agrees: what read_plain_request takes, Beast's parser (through request_reader) reads from
// the same bytes, all of them at once, the same way: done after as many bytes, with the same
// request line, fields in order (ids, names, values), keep-alive and body.
void plain_agrees(std::string_view input) {
  using tooluse::mcp::detail::http_request;
  http_request plain;
  plain.body() = "left over";
  const std::size_t n = tooluse::mcp::detail::read_plain_request(input, plain, 8192, 65536);
  if (n == 0) {
    if (plain.field_count() != 0 || !plain.body().empty() || !plain.target().empty()) std::abort();  // cleared
    return;
  }
  http_request beast;
  tooluse::mcp::detail::request_reader reader(beast);
  reader.header_limit(8192);
  reader.body_limit(65536);
  reader.eager(true);
  boost::beast::error_code ec;
  const std::size_t used = reader.put(boost::asio::buffer(input.data(), input.size()), ec);
  if (ec || !reader.is_done() || used != n) std::abort();
  if (plain.method() != beast.method() || plain.method_string() != beast.method_string() ||
      plain.target() != beast.target() || plain.version() != beast.version() ||
      plain.keep_alive() != beast.keep_alive() || plain.body() != beast.body() ||
      plain.field_count() != beast.field_count())
    std::abort();
  for (auto p = plain.begin(), b = beast.begin(); p != plain.end(); ++p, ++b) {
    const auto f = *p, g = *b;
    if (f.name() != g.name() || f.name_string() != g.name_string() || f.value() != g.value()) std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  plain_agrees(input);
  const std::size_t cut = size == 0 ? 0 : data[0] % (size + 1);
  tooluse::mcp::detail::http_request ours;
  ours.body() = "left over from an earlier request";  // the reader clears it
  tooluse::mcp::detail::request_reader reader(ours);
  http::request_parser<http::string_body> beast;
  auto ec_ours = feed(reader, input, cut);
  auto ec_beast = feed(beast, input, cut);
  if (ec_ours != ec_beast || reader.is_done() != beast.is_done()) std::abort();
  if (!reader.is_done() || ec_ours) return 0;
  const auto& b = beast.get();
  if (ours.method() != b.method() || ours.method_string() != sv(b.method_string()) ||
      ours.target() != sv(b.target()) || ours.version() != b.version() || ours.keep_alive() != b.keep_alive() ||
      ours.body() != b.body())
    std::abort();
  // The fields in the order they came; Beast's message moves a field next to the last one of
  // its name. Grouped that way, ours must be Beast's, and lookups by name must agree.
  struct field {
    http::field id;
    std::string_view name, value;
  };
  std::vector<field> grouped;
  for (const auto& f : ours) {
    auto at = grouped.end();
    for (auto g = grouped.begin(); g != grouped.end(); ++g)
      if (boost::beast::iequals(g->name, f.name_string())) at = g + 1;
    grouped.insert(at, field{f.name(), f.name_string(), f.value()});
  }
  if (grouped.size() != ours.field_count()) std::abort();
  auto g = grouped.begin();
  for (const auto& f : b) {
    if (g == grouped.end() || g->id != f.name() || g->name != sv(f.name_string()) || g->value != sv(f.value()))
      std::abort();
    if (ours[g->name] != sv(b[f.name_string()])) std::abort();
    if (f.name() != http::field::unknown && ours[f.name()] != sv(b[f.name()])) std::abort();
    ++g;
  }
  if (g != grouped.end()) std::abort();
  return 0;
}
