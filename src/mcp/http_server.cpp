// http_server: the listener, one thread per connection (blocking Beast I/O with socket
// timeouts, so a slow client only holds its own thread), session expiry.
#include <sys/socket.h>
#include <sys/time.h>

#include <boost/url.hpp>
#include <iostream>

#include "mcp/http_server_impl.hpp"
#include "mcp/server_impl.hpp"

namespace tooluse::mcp {

bool write_response(tcp::socket& sock, const http_request& req, http::status status,
                    const std::string& body, const std::string& content_type,
                    const std::vector<std::pair<std::string, std::string>>& headers) {
  http::response<http::string_body> res{status, req.version()};
  if (!body.empty()) res.set(http::field::content_type, content_type);
  for (const auto& [k, v] : headers) res.set(k, v);
  res.keep_alive(req.keep_alive());
  res.body() = body;
  res.prepare_payload();
  beast::error_code ec;
  http::write(sock, res, ec);
  return !ec && req.keep_alive();
}

bool write_rpc_error(tcp::socket& sock, const http_request& req, http::status status,
                     std::optional<jsonrpc::message_id> id, int code, const std::string& message,
                     json data) {
  auto resp = jsonrpc::response::failure(std::move(id), code, message, std::move(data));
  return write_response(sock, req, status, jsonrpc::serialize(resp));
}

http_server::http_server(server& srv, http_options options)
    : impl_(std::make_shared<impl>(srv, std::move(options))) {}

http_server::~http_server() { stop(); }

unsigned short http_server::port() const { return impl_->bound_port; }

std::string http_server::url() const {
  std::string host = impl_->options.host.find(':') != std::string::npos ? "[" + impl_->options.host + "]"
                                                                       : impl_->options.host;
  return "http://" + host + ":" + std::to_string(impl_->bound_port) + impl_->options.path;
}

status http_server::start() {
  auto& d = *impl_;
  beast::error_code ec;
  auto addr = net::ip::make_address(d.options.host, ec);
  if (ec) return fail(errc::invalid_argument, "mcp http: \"" + d.options.host + "\" is not an IP address; use e.g. 127.0.0.1");
  d.acceptor = std::make_unique<tcp::acceptor>(d.io);
  tcp::endpoint ep(addr, d.options.port);
  d.acceptor->open(ep.protocol(), ec);
  if (!ec) d.acceptor->set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) d.acceptor->bind(ep, ec);
  if (!ec) d.acceptor->listen(net::socket_base::max_listen_connections, ec);
  if (ec)
    return fail(errc::io_error, "mcp http: cannot listen on " + d.options.host + ":" +
                                    std::to_string(d.options.port) + ": " + ec.message());
  d.bound_port = d.acceptor->local_endpoint().port();
  d.stateless_root = d.srv.open_session();
  auto self = impl_;
  d.accept_thread = std::thread([self] { self->accept_loop(); });
  d.reaper_thread = std::thread([self] { self->reap_loop(); });
  return {};
}

void http_server::stop() {
  auto& d = *impl_;
  std::vector<std::shared_ptr<detail::http_session>> sessions;
  {
    std::lock_guard lock(d.mu);
    if (d.stopping || !d.acceptor) {
      d.stopping = true;
      return;
    }
    d.stopping = true;
    for (auto& [id, hs] : d.sessions) sessions.push_back(hs);
    for (auto* s : d.sockets) {
      beast::error_code ec;
      s->shutdown(tcp::socket::shutdown_both, ec);
    }
    d.cv.notify_all();
  }
  // A blocking accept() is not woken by close() from another thread; shutdown() is.
  ::shutdown(d.acceptor->native_handle(), SHUT_RDWR);
  beast::error_code ec;
  d.acceptor->cancel(ec);
  if (d.accept_thread.joinable()) d.accept_thread.join();
  d.acceptor->close(ec);
  for (auto& hs : sessions) d.close_session(hs);
  if (d.accept_thread.joinable()) d.accept_thread.join();
  if (d.reaper_thread.joinable()) d.reaper_thread.join();
  std::unique_lock lock(d.mu);
  d.cv.wait(lock, [&] { return d.connections == 0; });
  if (d.stateless_root) d.srv.close_session(d.stateless_root);
}

void http_server::wait() {
  std::unique_lock lock(impl_->mu);
  impl_->cv.wait(lock, [&] { return impl_->stopping; });
}

void http_server::impl::accept_loop() {
  for (;;) {
    beast::error_code ec;
    tcp::socket sock(io);
    acceptor->accept(sock, ec);
    std::unique_lock lock(mu);
    if (stopping) return;
    if (ec) continue;
    if (connections >= options.max_connections) continue;  // the socket closes as it leaves scope
    ++connections;
    lock.unlock();
    auto self = shared_from_this();
    std::thread([self, s = std::move(sock)]() mutable { self->serve_connection(std::move(s)); }).detach();
  }
}

void http_server::impl::reap_loop() {
  std::unique_lock lock(mu);
  while (!stopping) {
    cv.wait_for(lock, std::chrono::seconds(1));
    auto now = std::chrono::steady_clock::now();
    std::vector<std::shared_ptr<detail::http_session>> idle;
    for (auto& [id, hs] : sessions) {
      std::lock_guard sl(hs->s->mu);
      std::lock_guard hl(hs->mu);
      if (hs->open_streams == 0 && hs->s->running.empty() && now - hs->s->last_used > options.session_idle)
        idle.push_back(hs);
    }
    lock.unlock();
    for (auto& hs : idle) close_session(hs);
    lock.lock();
  }
}

std::shared_ptr<detail::http_session> http_server::impl::find_session(const std::string& id) {
  std::lock_guard lock(mu);
  auto it = sessions.find(id);
  return it == sessions.end() ? nullptr : it->second;
}

void http_server::impl::close_session(const std::shared_ptr<detail::http_session>& hs) {
  {
    std::lock_guard lock(mu);
    sessions.erase(hs->id);
  }
  std::vector<std::shared_ptr<detail::sse_stream>> streams;
  {
    std::lock_guard lock(hs->mu);
    hs->closed = true;
    for (auto& [id, st] : hs->streams) streams.push_back(st);
  }
  srv.close_session(hs->s);
  for (auto& st : streams) st->end();
}

void http_server::impl::serve_connection(tcp::socket sock) {
  {
    std::lock_guard lock(mu);
    sockets.insert(&sock);
  }
  timeval tv{static_cast<time_t>(options.read_timeout.count()), 0};
  ::setsockopt(sock.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(sock.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sock.set_option(tcp::no_delay(true));
  beast::flat_buffer buffer;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(options.max_body_bytes);
    parser.header_limit(64 * 1024);
    beast::error_code ec;
    http::read(sock, buffer, parser, ec);
    if (ec == http::error::body_limit) {
      http_request req;
      req.version(11);
      req.keep_alive(false);
      write_response(sock, req, http::status::payload_too_large, "request body too large\n", "text/plain");
      break;
    }
    if (ec) break;
    http_request req = parser.release();
    bool keep = false;
    try {
      keep = handle(sock, req);
    } catch (const std::exception& e) {
      std::cerr << "tooluse mcp http: " << e.what() << "\n";
      keep = false;
    }
    if (!keep) break;
  }
  beast::error_code ec;
  sock.shutdown(tcp::socket::shutdown_send, ec);
  std::lock_guard lock(mu);
  sockets.erase(&sock);
  --connections;
  cv.notify_all();
}

namespace {

// host_part is the host of a Host header's "host[:port]" (an IPv6 literal keeps its brackets);
// "" when it is not an authority.
std::string host_part(std::string_view hostport) {
  auto a = boost::urls::parse_authority(hostport);
  return a ? std::string(a->encoded_host()) : std::string();
}

bool is_loopback_bind(const std::string& host) {
  return host == "127.0.0.1" || host == "::1" || host == "localhost" || host.rfind("127.", 0) == 0;
}

}  // namespace

bool http_server::impl::check_host_origin(const http_request& req) const {
  std::vector<std::string> allowed = options.allowed_hosts;
  if (allowed.empty()) {
    if (!is_loopback_bind(options.host)) return true;
    allowed = {"localhost", "127.0.0.1", "[::1]"};
  }
  auto ok = [&](const std::string& h) {
    for (const auto& a : allowed)
      if (beast::iequals(a, h)) return true;
    return false;
  };
  auto host = req[http::field::host];
  if (!host.empty() && !ok(host_part(host))) return false;
  auto origin = req[http::field::origin];
  if (!origin.empty() && origin != "null") {
    auto u = boost::urls::parse_uri(origin);
    if (!u || !u->has_authority() || !ok(std::string(u->encoded_host()))) return false;
  }
  return true;
}

bool http_server::impl::handle(tcp::socket& sock, http_request& req) {
  std::string_view target = req.target();
  target = target.substr(0, target.find('?'));
  // The authorization hook (OAuth resource server) may answer before the request goes on.
  auto hook = [&](bool is_endpoint) -> std::optional<bool> {
    if (!options.authorize) return std::nullopt;
    std::vector<std::pair<std::string, std::string>> headers;
    for (const auto& f : req) headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
    auto d = options.authorize({.method = req.method_string(), .target = target, .headers = headers,
                                .body = req.body(), .is_endpoint = is_endpoint});
    if (d.status == 0) return std::nullopt;
    return write_response(sock, req, static_cast<http::status>(d.status), d.body, d.content_type,
                          d.headers);
  };
  if (target != options.path) {
    if (auto answered = hook(false)) return *answered;
    return write_response(sock, req, http::status::not_found, "not found\n", "text/plain");
  }
  if (!check_host_origin(req))
    return write_rpc_error(sock, req, http::status::forbidden, std::nullopt, -32000,
                           "Forbidden: Host or Origin not allowed");
  if (auto answered = hook(true)) return *answered;
  if (!options.bearer_token.empty()) {
    auto auth = req[http::field::authorization];
    if (auth != "Bearer " + options.bearer_token)
      return write_response(sock, req, http::status::unauthorized, "unauthorized\n", "text/plain",
                            {{"WWW-Authenticate", "Bearer"}});
  }
  switch (req.method()) {
    case http::verb::post:
      return post(sock, req);
    case http::verb::get:
      return get(sock, req);
    case http::verb::delete_:
      return del(sock, req);
    default:
      return write_response(sock, req, http::status::method_not_allowed, "", "text/plain",
                            {{"Allow", "GET, POST, DELETE"}});
  }
}

}  // namespace tooluse::mcp
