#include "tooluse/llm/record_replay.hpp"

#include <array>
#include <fstream>
#include <mutex>
#include <sstream>

#include "tooluse/describe.hpp"
#include "tooluse/json.hpp"

namespace tooluse::llm {
namespace {

// One line of a recording, declared once for writing and reading (TOOLUSE_WIRE): a hand-edited
// line of the wrong shape is refused when loaded, naming the path
// (`exchange.response.headers[0]: expected exactly 2 items, got 1`).
struct recorded_request {
  std::string method;
  std::string url;
  std::string body;
};
TOOLUSE_WIRE(recorded_request, (method, "method", tooluse::required()),
             (url, "url", tooluse::required()), (body, "body", tooluse::required()))

struct recorded_response {
  int status = 0;
  std::vector<std::array<std::string, 2>> headers;  ///< [name, value] pairs, in order
  std::vector<std::string> chunks;                  ///< the body as it arrived
};
TOOLUSE_WIRE(recorded_response, (status, "status", tooluse::required()),
             (headers, "headers", tooluse::required()), (chunks, "chunks", tooluse::required()))

struct recorded_error {
  int code = 0;  ///< a tooluse::errc
  std::optional<std::string> message;
};
TOOLUSE_WIRE(recorded_error, (code, "code", tooluse::required()), (message))

struct exchange {
  recorded_request request;
  recorded_response response;
  std::optional<recorded_error> error;
};
TOOLUSE_WIRE(exchange, (request, "request", tooluse::required()),
             (response, "response", tooluse::required()), (error))

struct recorder {
  std::mutex mu;
  std::ofstream out;
  http::transport inner;
};

struct replayer {
  std::mutex mu;
  std::vector<exchange> exchanges;
  size_t next = 0;
};

result<http::response> replay_one(replayer& r, const http::request& req,
                                  const http::send_options& options) {
  exchange ex;
  size_t index = 0;
  {
    std::lock_guard lock(r.mu);
    if (r.next >= r.exchanges.size())
      return fail(errc::protocol_error, "replay: request " + std::to_string(r.next + 1) + " (" +
                                            req.method + " " + req.url +
                                            ") is not in the recording, which has " +
                                            std::to_string(r.exchanges.size()) + " exchanges");
    index = r.next++;
    ex = r.exchanges[index];
  }
  const recorded_request& rq = ex.request;
  std::string where = "replay: exchange " + std::to_string(index + 1);
  if (rq.method != req.method || rq.url != req.url)
    return fail(errc::protocol_error, where + " was " + rq.method + " " + rq.url + ", now " +
                                          req.method + " " + req.url + "; record the run again");
  if (rq.body != req.body)
    return fail(errc::protocol_error, where + ": the request body differs from the recording "
                                              "(different question, options or tool results); "
                                              "record the run again");
  if (ex.error)
    return fail(static_cast<errc>(ex.error->code), ex.error->message.value_or("recorded error"));
  http::response res;
  res.status = ex.response.status;
  for (const auto& [name, value] : ex.response.headers) res.headers.push_back({name, value});
  if (options.on_headers) options.on_headers(res.status, res.headers);
  for (const auto& bytes : ex.response.chunks) {
    if (options.on_body) {
      if (!options.on_body(bytes)) return fail(errc::cancelled, "replay: aborted by the caller");
    } else {
      res.body += bytes;
    }
  }
  return res;
}

}  // namespace

result<http::transport> record_transport(const std::string& path, http::transport inner) {
  auto rec = std::make_shared<recorder>();
  rec->out.open(path, std::ios::binary | std::ios::trunc);
  if (!rec->out) return fail(errc::io_error, "cannot write the recording \"" + path + "\"");
  rec->inner = inner ? std::move(inner) : http::default_transport();
  return http::transport([rec](const http::request& req, const http::send_options& options) {
    std::vector<std::string> chunks;
    http::send_options wrapped = options;
    std::string buffered;
    wrapped.on_body = [&](std::string_view chunk) {
      chunks.emplace_back(chunk);
      return options.on_body ? options.on_body(chunk) : (buffered.append(chunk), true);
    };
    auto res = rec->inner(req, wrapped);
    exchange ex{.request = {.method = req.method, .url = req.url, .body = req.body}};
    ex.response.chunks = std::move(chunks);
    if (res) {
      if (!options.on_body) res->body = std::move(buffered);
      ex.response.status = res->status;
      for (const auto& h : res->headers) ex.response.headers.push_back({h.name, h.value});
    } else {
      ex.error = recorded_error{.code = static_cast<int>(res.error().code),
                                .message = res.error().message};
    }
    std::lock_guard lock(rec->mu);
    rec->out << dump_json(tooluse::encode(ex)) << "\n";
    rec->out.flush();
    return res;
  });
}

result<http::transport> replay_transport(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(errc::io_error, "cannot read the recording \"" + path + "\"");
  auto rep = std::make_shared<replayer>();
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    auto j = parse_json(line);
    std::string problem = j ? "" : "not JSON: " + j.error().message;
    result<exchange> ex = fail(errc::parse_error, problem);
    if (j) ex = tooluse::decode<exchange>(*j, "exchange");
    if (!ex)
      return fail(errc::parse_error, "recording \"" + path + "\" line " + std::to_string(n) +
                                         " is not an exchange: " + ex.error().message);
    rep->exchanges.push_back(std::move(*ex));
  }
  return http::transport([rep](const http::request& req, const http::send_options& options) {
    return replay_one(*rep, req, options);
  });
}

}  // namespace tooluse::llm
