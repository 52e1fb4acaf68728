#include "tooluse/llm/record_replay.hpp"

#include <fstream>
#include <mutex>
#include <sstream>

#include "tooluse/json.hpp"

namespace tooluse::llm {
namespace {

json headers_json(const std::vector<http::header>& headers) {
  json out = json::array();
  for (const auto& h : headers) out.push_back(json::array({h.name, h.value}));
  return out;
}

struct recorder {
  std::mutex mu;
  std::ofstream out;
  http::transport inner;
};

struct replayer {
  std::mutex mu;
  std::vector<json> exchanges;
  size_t next = 0;
};

result<http::response> replay_one(replayer& r, const http::request& req,
                                  const http::send_options& options) {
  json ex;
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
  const json& rq = ex["request"];
  std::string where = "replay: exchange " + std::to_string(index + 1);
  if (rq.value("method", "") != req.method || rq.value("url", "") != req.url)
    return fail(errc::protocol_error, where + " was " + rq.value("method", "") + " " +
                                          rq.value("url", "") + ", now " + req.method + " " +
                                          req.url + "; record the run again");
  if (rq.value("body", "") != req.body)
    return fail(errc::protocol_error, where + ": the request body differs from the recording "
                                              "(different question, options or tool results); "
                                              "record the run again");
  if (ex.contains("error")) {
    const json& e = ex["error"];
    return fail(static_cast<errc>(e.value("code", static_cast<int>(errc::network_error))),
                e.value("message", "recorded error"));
  }
  const json& rs = ex["response"];
  http::response res;
  res.status = rs.value("status", 0);
  for (const auto& h : rs.value("headers", json::array()))
    res.headers.push_back({h[0].get<std::string>(), h[1].get<std::string>()});
  if (options.on_headers) options.on_headers(res.status, res.headers);
  for (const auto& chunk : rs.value("chunks", json::array())) {
    const auto& bytes = chunk.get_ref<const std::string&>();
    if (options.on_body) {
      if (!options.on_body(bytes)) return fail(errc::cancelled, "replay: aborted by the caller");
    } else {
      res.body += bytes;
    }
  }
  return res;
}

// exchange_problem says what makes `j` not an exchange replay_one can serve ("" when fine), so
// a hand-edited recording is refused when loaded instead of failing in the middle of a run.
std::string exchange_problem(const json& j) {
  if (!j.is_object() || !j.contains("request") || !j.contains("response"))
    return "it needs \"request\" and \"response\"";
  const json& rq = j["request"];
  for (const char* k : {"method", "url", "body"})
    if (!rq.is_object() || !rq.contains(k) || !rq[k].is_string())
      return std::string("request.") + k + " must be a string";
  const json& rs = j["response"];
  if (!rs.is_object() || !rs.contains("status") || !rs["status"].is_number_integer())
    return "response.status must be an integer";
  if (!rs.contains("headers") || !rs["headers"].is_array())
    return "response.headers must be an array of [name, value]";
  for (const auto& h : rs["headers"])
    if (!h.is_array() || h.size() != 2 || !h[0].is_string() || !h[1].is_string())
      return "response.headers must be an array of [name, value]";
  if (!rs.contains("chunks") || !rs["chunks"].is_array())
    return "response.chunks must be an array of strings";
  for (const auto& c : rs["chunks"])
    if (!c.is_string()) return "response.chunks must be an array of strings";
  if (j.contains("error") &&
      (!j["error"].is_object() || !j["error"].value("code", json()).is_number_integer()))
    return "error.code must be an integer";
  return "";
}

}  // namespace

result<http::transport> record_transport(const std::string& path, http::transport inner) {
  auto rec = std::make_shared<recorder>();
  rec->out.open(path, std::ios::binary | std::ios::trunc);
  if (!rec->out) return fail(errc::io_error, "cannot write the recording \"" + path + "\"");
  rec->inner = inner ? std::move(inner) : http::default_transport();
  return http::transport([rec](const http::request& req, const http::send_options& options) {
    json chunks = json::array();
    http::send_options wrapped = options;
    std::string buffered;
    wrapped.on_body = [&](std::string_view chunk) {
      chunks.push_back(std::string(chunk));
      return options.on_body ? options.on_body(chunk) : (buffered.append(chunk), true);
    };
    auto res = rec->inner(req, wrapped);
    json ex = {{"request", {{"method", req.method}, {"url", req.url}, {"body", req.body}}}};
    if (res) {
      if (!options.on_body) res->body = std::move(buffered);
      ex["response"] = {{"status", res->status}, {"headers", headers_json(res->headers)},
                        {"chunks", chunks}};
    } else {
      ex["error"] = {{"code", static_cast<int>(res.error().code)},
                     {"message", res.error().message}};
      ex["response"] = {{"status", 0}, {"headers", json::array()}, {"chunks", chunks}};
    }
    std::lock_guard lock(rec->mu);
    rec->out << dump_json(ex) << "\n";
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
    std::string problem = j ? exchange_problem(*j) : "not JSON: " + j.error().message;
    if (!problem.empty())
      return fail(errc::parse_error, "recording \"" + path + "\" line " + std::to_string(n) +
                                         " is not an exchange: " + problem);
    rep->exchanges.push_back(std::move(*j));
  }
  return http::transport([rep](const http::request& req, const http::send_options& options) {
    return replay_one(*rep, req, options);
  });
}

}  // namespace tooluse::llm
