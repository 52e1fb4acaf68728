#pragma once
// async_model_server: a fake model on a loopback port that costs the machine as little as a
// remote one would: one thread, Asio and Beast, keep-alive, the model's latency a timer rather
// than a sleeping thread per connection (fake_llm_server keeps a thread per connection, which at
// 1,024 connections used about as much CPU as the client it was measuring). For measuring many
// runs at once: tests/programs/fake_model_server.cpp and bench/agent_bench.cpp.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "support/fake_llm_server.hpp"

namespace tooluse::testing {
namespace async_model_detail {
namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using responder_fn = std::function<scripted_response(const recorded_request&)>;

// One keep-alive connection: read a request, ask the model, wait its latency, answer, again.
struct connection : std::enable_shared_from_this<connection> {
  tcp::socket socket;
  asio::steady_timer timer;
  boost::beast::flat_buffer buffer;
  http::request<http::string_body> request;
  http::response<http::string_body> response;
  const responder_fn& model;

  connection(tcp::socket s, const responder_fn& m)
      : socket(std::move(s)), timer(socket.get_executor()), model(m) {}

  void read() {
    request = {};
    http::async_read(socket, buffer, request,
                     [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                       if (!ec) self->answer();
                     });
  }

  void answer() {
    recorded_request rec;
    rec.method = std::string(request.method_string());
    rec.target = std::string(request.target());
    rec.body = std::move(request.body());
    for (const auto& f : request) rec.headers.emplace_back(f.name_string(), f.value());
    const auto scripted = model(rec);
    response = {static_cast<http::status>(scripted.status), 11};
    for (const auto& [name, value] : scripted.headers) response.set(name, value);
    // SSE chunks go as one body with a length: the same events, without chunked encoding.
    std::string body = scripted.body;
    for (const auto& c : scripted.chunks) body += c;
    response.body() = std::move(body);
    response.keep_alive(request.keep_alive());
    response.prepare_payload();
    timer.expires_after(scripted.delay);
    timer.async_wait([self = shared_from_this()](boost::system::error_code) {
      http::async_write(self->socket, self->response,
                        [self](boost::system::error_code ec, std::size_t) {
                          if (!ec && self->response.keep_alive()) self->read();
                        });
    });
  }
};
}  // namespace async_model_detail

/// async_model_server serves `model` on 127.0.0.1 (a free port) from its own thread until
/// destroyed.
class async_model_server {
 public:
  explicit async_model_server(async_model_detail::responder_fn model)
      : model_(std::move(model)), acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    acceptor_.listen(4096);
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~async_model_server() {
    io_.stop();
    thread_.join();
  }
  async_model_server(const async_model_server&) = delete;
  async_model_server& operator=(const async_model_server&) = delete;

  /// url is http://127.0.0.1:PORT followed by `path` (e.g. "/v1").
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  long connections() const { return connections_.load(); }

 private:
  void accept() {
    acceptor_.async_accept([this](boost::system::error_code ec,
                                  async_model_detail::tcp::socket s) {
      if (ec) return;
      ++connections_;
      s.set_option(async_model_detail::tcp::no_delay(true));
      std::make_shared<async_model_detail::connection>(std::move(s), model_)->read();
      accept();
    });
  }

  async_model_detail::responder_fn model_;
  boost::asio::io_context io_{1};
  async_model_detail::tcp::acceptor acceptor_;
  unsigned short port_ = acceptor_.local_endpoint().port();
  std::atomic<long> connections_{0};
  std::thread thread_;
};

}  // namespace tooluse::testing
