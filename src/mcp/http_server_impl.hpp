#pragma once
// http_server::impl, shared by http_server.cpp (listener, connections, sessions) and
// http_routes.cpp (POST, GET, DELETE).

#include <atomic>
#include <set>
#include <thread>
#include <unordered_map>

#include "mcp/http_io.hpp"

namespace tooluse::mcp {

namespace beast = detail::beast;
namespace http = detail::http;
namespace net = detail::net;
using detail::tcp;

using http_request = http::request<http::string_body>;

struct http_server::impl : std::enable_shared_from_this<http_server::impl> {
  server& srv;
  http_options options;
  net::io_context io;
  std::unique_ptr<tcp::acceptor> acceptor;
  unsigned short bound_port = 0;
  std::thread accept_thread;
  std::thread reaper_thread;

  std::mutex mu;
  std::condition_variable cv;
  bool stopping = false;
  std::size_t connections = 0;
  std::set<tcp::socket*> sockets;
  std::unordered_map<std::string, std::shared_ptr<detail::http_session>> sessions;
  std::shared_ptr<session> stateless_root;  ///< the connection-less session stateless requests use

  impl(server& s, http_options o) : srv(s), options(std::move(o)) {}

  void accept_loop();
  void reap_loop();
  void serve_connection(tcp::socket sock);
  /// handle answers one request; false closes the connection.
  bool handle(tcp::socket& sock, http_request& req);
  bool check_host_origin(const http_request& req) const;

  bool post(tcp::socket& sock, http_request& req);
  bool get(tcp::socket& sock, http_request& req);
  bool del(tcp::socket& sock, http_request& req);
  bool post_stateless(tcp::socket& sock, http_request& req, const jsonrpc::request& r);
  bool post_session(tcp::socket& sock, http_request& req, const std::shared_ptr<detail::http_session>& hs,
                    const jsonrpc::message& m);
  bool listen(tcp::socket& sock, http_request& req, const jsonrpc::request& r);
  std::shared_ptr<detail::http_session> find_session(const std::string& id);
  void close_session(const std::shared_ptr<detail::http_session>& hs);
};

/// write_response writes a complete response; returns whether the connection may be kept.
bool write_response(tcp::socket& sock, const http_request& req, http::status status,
                    const std::string& body, const std::string& content_type = "application/json",
                    const std::vector<std::pair<std::string, std::string>>& headers = {});
/// write_error writes a JSON-RPC error response body with an HTTP status.
bool write_rpc_error(tcp::socket& sock, const http_request& req, http::status status,
                     std::optional<jsonrpc::message_id> id, int code, const std::string& message,
                     json data = nullptr);

}  // namespace tooluse::mcp
