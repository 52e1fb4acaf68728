// fake_model_server: the calculator-using fake model (tests/support/fake_model.hpp) on a
// loopback port with keep-alive, for measuring many_agents by hand (docs/scale.md):
//   fake_model_server [latency_ms]   prints "url http://127.0.0.1:PORT/v1", then serves until
//   its standard input closes, and prints the requests and connections it served.
//
// It stands in for a remote model, so it should cost the machine as little as one: one thread,
// Asio and Beast, the latency a timer rather than a sleeping thread per connection (the test
// suite's fake_llm_server keeps a thread per connection, which at 1,024 connections used about
// as much CPU as the client it was measuring).
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "support/fake_model.hpp"

namespace {
namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using responder_fn = std::function<tooluse::testing::scripted_response(
    const tooluse::testing::recorded_request&)>;

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
    tooluse::testing::recorded_request rec;
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

}  // namespace

int main(int argc, char** argv) {
  const long latency = argc > 1 ? std::atol(argv[1]) : 50;
  std::atomic<long> requests{0};
  long connections = 0;
  const responder_fn model =
      tooluse::testing::calculator_model(std::chrono::milliseconds(latency), &requests);
  asio::io_context io{1};
  tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
  acceptor.listen(4096);
  std::function<void()> accept = [&] {
    acceptor.async_accept([&](boost::system::error_code ec, tcp::socket s) {
      if (ec) return;
      ++connections;
      s.set_option(tcp::no_delay(true));
      std::make_shared<connection>(std::move(s), model)->read();
      accept();
    });
  };
  accept();
  // Standard input closing ends the server.
  asio::posix::stream_descriptor in(io, ::dup(STDIN_FILENO));
  char sink[256];
  std::function<void()> watch_stdin = [&] {
    in.async_read_some(asio::buffer(sink), [&](boost::system::error_code ec, std::size_t) {
      if (ec) {
        io.stop();
        return;
      }
      watch_stdin();
    });
  };
  watch_stdin();
  std::cout << "url http://127.0.0.1:" << acceptor.local_endpoint().port() << "/v1" << std::endl;
  io.run();
  std::cout << "requests " << requests.load() << " connections " << connections << std::endl;
  return 0;
}
