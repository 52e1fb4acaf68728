// Fuzzes the MCP endpoint's request reader (src/mcp/http_request.hpp): any bytes, fed in two
// pieces at a data-chosen split, must never crash, and must read exactly as Beast's own
// request_parser reads the same bytes: the same error or completion, and when complete the same
// method, target, version, keep-alive, body and fields (in order, as sent, and found by name).
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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
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
  std::size_t n = 0;
  auto it = b.begin();
  for (const auto& f : ours) {
    if (it == b.end() || f.name() != it->name() || f.name_string() != sv(it->name_string()) ||
        f.value() != sv(it->value()))
      std::abort();
    if (ours[f.name_string()] != sv(b[it->name_string()])) std::abort();
    ++it;
    ++n;
  }
  if (it != b.end() || n != ours.field_count()) std::abort();
  return 0;
}
