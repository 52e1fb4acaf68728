#include "trace_server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

namespace tooluse::cli {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// A trace file and how far it has been read: complete lines become events once.
struct trace_file {
  std::string path;
  std::streamoff offset = 0;
  std::string partial;
  std::vector<json> events;
};

class files_source : public run_source {
 public:
  explicit files_source(std::vector<std::string> paths) {
    for (auto& p : paths) {
      std::string id = std::filesystem::path(p).filename().string();
      for (auto& c : id)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
          c = '_';
      while (files_.count(id)) id += "_";
      order_.push_back({id, std::filesystem::path(p).filename().string()});
      files_[id].path = p;
    }
  }

  std::vector<run_info> runs() override { return order_; }

  result<std::vector<json>> events(const std::string& id, std::size_t from) override {
    std::lock_guard lock(mutex_);
    auto it = files_.find(id);
    if (it == files_.end()) return fail(errc::not_found, "no run \"" + id + "\"");
    auto& f = it->second;
    std::ifstream in(f.path, std::ios::binary);
    if (!in) return fail(errc::io_error, "cannot read the trace file \"" + f.path + "\"");
    in.seekg(f.offset);
    std::string chunk((std::istreambuf_iterator<char>(in)), {});
    f.offset += static_cast<std::streamoff>(chunk.size());
    f.partial += chunk;
    for (size_t nl; (nl = f.partial.find('\n')) != std::string::npos;) {
      std::string line = f.partial.substr(0, nl);
      f.partial.erase(0, nl + 1);
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      auto j = parse_json(line);
      f.events.push_back(j ? *j : json{{"event", "unreadable"}, {"text", line}});
    }
    if (from >= f.events.size()) return std::vector<json>{};
    return std::vector<json>(f.events.begin() + static_cast<std::ptrdiff_t>(from), f.events.end());
  }

 private:
  std::mutex mutex_;
  std::vector<run_info> order_;
  std::map<std::string, trace_file> files_;
};

// percent_decoded decodes %XX in a URL path segment (ids may hold any character).
std::string percent_decoded(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool loopback_host(std::string host) {
  if (auto colon = host.rfind(':');
      colon != std::string::npos && host.find(']') == std::string::npos)
    host = host.substr(0, colon);
  else if (host.size() > 1 && host.front() == '[')
    host = host.substr(0, host.find(']') + 1);
  return host == "127.0.0.1" || host == "localhost" || host == "[::1]";
}

http::response<http::string_body> answer(const http::request<http::string_body>& req,
                                         run_source& source, bool check_host) {
  auto reply = [&](http::status status, std::string body, const char* type) {
    http::response<http::string_body> res{status, req.version()};
    res.set(http::field::content_type, type);
    res.set(http::field::cache_control, "no-store");
    // The page is self-contained: nothing may be loaded from anywhere else.
    res.set("Content-Security-Policy",
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            "connect-src 'self'; img-src data:");
    res.set("X-Content-Type-Options", "nosniff");
    res.keep_alive(false);
    res.body() = std::move(body);
    res.prepare_payload();
    return res;
  };
  auto text = "text/plain; charset=utf-8";
  if (check_host && !loopback_host(std::string(req[http::field::host])))
    return reply(http::status::forbidden, "host not allowed\n", text);
  if (req.method() != http::verb::get)
    return reply(http::status::method_not_allowed, "GET only\n", text);
  std::string target(req.target());
  std::string query;
  if (auto q = target.find('?'); q != std::string::npos)
    query = target.substr(q + 1), target.resize(q);
  auto runs = source.runs();
  auto summaries = [&] {
    json list = json::array();
    for (const auto& r : runs) {
      auto events = source.events(r.id, 0);
      list.push_back(run_summary(r, events ? *events : std::vector<json>{}));
    }
    return list;
  };
  if (target == "/api/runs") return reply(http::status::ok, dump_json(summaries()), "application/json");
  // The run list: at /runs, and at / when there is more than one run to show.
  if (target == "/runs" || target == "/runs/" || (target == "/" && runs.size() > 1))
    return reply(http::status::ok, runs_page(summaries()), "text/html; charset=utf-8");
  const std::string api = "/api/runs/", page = "/runs/";
  if (target.rfind(api, 0) == 0 && target.size() > api.size() + 7 &&
      target.compare(target.size() - 7, 7, "/events") == 0) {
    std::string id = percent_decoded(target.substr(api.size(), target.size() - api.size() - 7));
    std::size_t from = 0;
    if (query.rfind("from=", 0) == 0) from = std::strtoull(query.c_str() + 5, nullptr, 10);
    auto events = source.events(id, from);
    if (!events) return reply(http::status::not_found, events.error().message + "\n", text);
    json body = {{"events", *events}, {"next", from + events->size()}};
    return reply(http::status::ok, dump_json(body), "application/json");
  }
  std::string id;
  if (target == "/" && !runs.empty())
    id = runs.front().id;
  else if (target.rfind(page, 0) == 0)
    id = percent_decoded(target.substr(page.size()));
  if (target == "/" && runs.empty())
    return reply(http::status::not_found, "no runs to show yet; reload when one is stored\n", text);
  if (id.empty()) return reply(http::status::not_found, "not found\n", text);
  auto events = source.events(id, 0);
  if (!events) return reply(http::status::not_found, events.error().message + "\n", text);
  return reply(http::status::ok, trace_page(id, json(*events)), "text/html; charset=utf-8");
}

void handle(tcp::socket socket, std::shared_ptr<run_source> source, bool check_host) {
  beast::error_code ec;
  beast::flat_buffer buffer;
  http::request_parser<http::string_body> parser;
  parser.body_limit(64 * 1024);
  http::read(socket, buffer, parser, ec);
  if (ec) return;
  auto res = answer(parser.get(), *source, check_host);
  http::write(socket, res, ec);
  socket.shutdown(tcp::socket::shutdown_both, ec);
}

}  // namespace

std::shared_ptr<run_source> trace_files_source(std::vector<std::string> paths) {
  return std::make_shared<files_source>(std::move(paths));
}

status serve_traces(std::shared_ptr<run_source> source, const std::string& host,
                    unsigned short port) {
  asio::io_context io;
  beast::error_code ec;
  auto address = asio::ip::make_address(host == "localhost" ? "127.0.0.1" : host, ec);
  if (ec) return fail(errc::invalid_argument, "--http: \"" + host + "\" is not an IP address");
  tcp::acceptor acceptor(io);
  tcp::endpoint endpoint(address, port);
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    return fail(errc::io_error, "cannot listen on " + host + ":" + std::to_string(port) + ": " +
                                    ec.message() + "; pick another --http address");
  const bool loopback = address.is_loopback();
  std::string shown = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  std::cerr << "tooluse: trace viewer http://" << shown << ":" << acceptor.local_endpoint().port()
            << "/" << std::endl;
  if (!loopback)
    std::cerr << "tooluse: warning: listening on " << host
              << ", reachable from other machines; traces can hold private data\n";
  for (;;) {
    tcp::socket socket(io);
    acceptor.accept(socket, ec);
    if (ec) continue;
    std::thread(handle, std::move(socket), source, loopback).detach();
  }
}

}  // namespace tooluse::cli
