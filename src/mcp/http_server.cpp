// http_server: the listener and I/O threads (Boost.Asio, one strand per connection), the
// connection limit with eviction of idle connections, the handler pool, session expiry, and
// the checks made on a request header before its body is read.
#include <iostream>

#include "mcp/http_server_impl.hpp"
#include "mcp/server_impl.hpp"

namespace tooluse::mcp {

void write_response(const conn_ptr& c, const http_request& req, http::status status, std::string body,
                    std::string_view content_type, const header_list& headers) {
  c->respond(status, std::move(body), content_type, headers, req.keep_alive());
}

void write_rpc_error(const conn_ptr& c, const http_request& req, http::status status,
                     std::optional<jsonrpc::message_id> id, int code, const std::string& message,
                     json data) {
  auto resp = jsonrpc::response::failure(std::move(id), code, message, std::move(data));
  write_response(c, req, status, jsonrpc::serialize(resp));
}

// --- http_server ------------------------------------------------------------------------------

http_server::impl::impl(server& s, http_options o)
    : srv(s), options(std::move(o)), pool(std::max<std::size_t>(1, options.handler_threads), "mcp http") {}

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
  d.acceptor = std::make_unique<tcp::acceptor>(net::make_strand(d.io));
  tcp::endpoint ep(addr, d.options.port);
  d.acceptor->open(ep.protocol(), ec);
  if (!ec) d.acceptor->set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) d.acceptor->bind(ep, ec);
  if (!ec) d.acceptor->listen(net::socket_base::max_listen_connections, ec);
  if (ec)
    return fail(errc::io_error, "mcp http: cannot listen on " + d.options.host + ":" +
                                    std::to_string(d.options.port) + ": " + ec.message());
  d.bound_port = d.acceptor->local_endpoint().port();
  d.acceptor->non_blocking(true, ec);  // accept_ready drains the backlog without blocking
  d.retry_timer = std::make_unique<net::steady_timer>(d.acceptor->get_executor());
  d.stateless_root = d.srv.connect_stateless();
  if (d.options.session_store)
    if (auto ok = d.start_store_listener(); !ok) return ok;
  d.do_accept();
  int n = d.options.threads > 0 ? d.options.threads : static_cast<int>(std::thread::hardware_concurrency());
  auto self = impl_;
  for (int i = 0; i < std::max(1, n); ++i)
    d.io_threads.emplace_back([self] {
      auto guard = net::make_work_guard(self->io);
      self->io.run();
    });
  d.reaper_thread = std::thread([self] { self->reap_loop(); });
  return {};
}

void http_server::stop() {
  auto& d = *impl_;
  std::vector<std::shared_ptr<detail::http_session>> sessions;
  std::vector<conn_ptr> conns;
  {
    std::lock_guard lock(d.mu);
    if (d.stopped) return;
    d.stopped = d.stopping = true;
    d.cv.notify_all();
    if (!d.acceptor) return;
    for (auto& [id, hs] : d.sessions) sessions.push_back(hs);
    for (auto& [p, w] : d.conns)
      if (auto c = w.lock()) conns.push_back(std::move(c));
  }
  net::post(d.acceptor->get_executor(), [self = impl_] {
    beast::error_code ec;
    self->acceptor->close(ec);
    self->retry_timer->cancel();
  });
  d.store_listener.reset();  // no more deliveries (waits for one in progress)
  for (auto& hs : sessions) d.close_session(hs);
  // The stateless calls still running are stopped with the rest, not waited for: their root
  // is a session too (a closed root starts each later call stopped).
  if (d.stateless_root) d.stateless_root->close();
  for (auto& c : conns) c->close();
  conns.clear();
  if (d.reaper_thread.joinable()) d.reaper_thread.join();
  {
    std::unique_lock lock(d.mu);
    d.cv.wait_for(lock, std::chrono::seconds(5), [&] { return d.connections == 0; });
  }
  d.pool.stop();  // handlers were told to stop with their sessions
  d.io.stop();
  for (auto& t : d.io_threads)
    if (t.joinable()) t.join();
  // Nothing runs on the io_context any more: destroy what lives on it, then the context with the
  // handlers still queued (they hold connections and the impl; see http_server_impl.hpp).
  d.retry_timer.reset();
  d.acceptor.reset();
  d.io_owner.reset();
}

http_server_stats http_server::stats() const {
  std::lock_guard lock(impl_->mu);
  std::size_t idle = 0;
  for (auto& [p, w] : impl_->conns)
    if (auto c = w.lock()) idle += c->idle_since.load(std::memory_order_relaxed) != 0 ? 1 : 0;
  return {impl_->connections, idle, impl_->sessions.size()};
}

void http_server::wait() {
  std::unique_lock lock(impl_->mu);
  impl_->cv.wait(lock, [&] { return impl_->stopping; });
}

void http_server::impl::do_accept() {
  acceptor->async_accept(net::make_strand(io), [self = shared_from_this()](beast::error_code ec, tcp::socket sock) {
    {
      std::lock_guard lock(self->mu);
      if (self->stopping) return;
    }
    if (ec == net::error::no_descriptors || ec == net::error::no_buffer_space) {
      // Out of file descriptors: free one by evicting the oldest idle connection, retry soon.
      conn_ptr victim;
      {
        std::lock_guard lock(self->mu);
        victim = self->oldest_idle_locked();
      }
      if (victim) victim->close();
      self->retry_timer->expires_after(std::chrono::milliseconds(10));
      self->retry_timer->async_wait([self](beast::error_code e) {
        if (!e) self->do_accept();
      });
      return;
    }
    if (!ec) {
      self->accepted(std::move(sock));
      self->accept_ready();
    }
    self->do_accept();
  });
}

// accept_ready takes every connection already waiting in the backlog (non-blocking accepts),
// not one per trip through the I/O queue: under load that queue holds a handler of every busy
// connection, and a connection left in the backlog meanwhile has its first request waiting
// unseen (1,024 connections opened at once were accepted one round of the queue apart).
void http_server::impl::accept_ready() {
  for (int i = 0; i < 256; ++i) {
    beast::error_code ec;
    tcp::socket sock(net::make_strand(io));
    acceptor->accept(sock, ec);
    if (ec) return;  // would_block: the backlog is empty (other errors: the async accept reports them)
    accepted(std::move(sock));
  }
}

conn_ptr http_server::impl::oldest_idle_locked() {
  // A scan, not a list kept in order: eviction is rare (max_connections reached, or out of file
  // descriptors), marking a connection idle or busy is per request.
  conn_ptr oldest;
  std::int64_t since = 0;
  for (auto& [p, w] : conns) {
    auto c = w.lock();  // not `p`: a connection may be gone before on_closed erased it
    if (!c) continue;
    std::int64_t t = c->idle_since.load(std::memory_order_relaxed);
    if (t == 0 || (oldest && t >= since)) continue;
    oldest = std::move(c);
    since = t;
  }
  if (oldest) oldest->idle_since.store(0, std::memory_order_relaxed);
  return oldest;
}

void http_server::impl::accepted(tcp::socket sock) {
  conn_ptr victim;
  bool refuse = false;
  auto c = std::make_shared<http_conn>(*this, std::move(sock));
  {
    std::lock_guard lock(mu);
    if (connections >= options.max_connections) {
      victim = oldest_idle_locked();
      refuse = !victim;
    }
    if (!refuse) {
      ++connections;
      conns[c.get()] = c;
    }
  }
  if (victim) victim->close();
  if (refuse) {
    // Every connection is busy with a request: say so and close. Not counted, never read.
    auto resp = jsonrpc::response::failure(
        std::nullopt, -32000,
        "Service Unavailable: max_connections (" + std::to_string(options.max_connections) +
            ") connections are busy with requests; retry later, or raise max_connections",
        {{"limit", "max_connections"}, {"value", options.max_connections}});
    c->respond(http::status::service_unavailable, jsonrpc::serialize(resp), "application/json", {}, false);
    return;
  }
  c->start();
}

void http_server::impl::set_idle(http_conn& c, bool is_idle) {
  // Only the connection's strand calls this: a connection already idle keeps its time.
  if (!is_idle) {
    c.idle_since.store(0, std::memory_order_relaxed);
  } else if (c.idle_since.load(std::memory_order_relaxed) == 0) {
    auto now = std::chrono::steady_clock::now().time_since_epoch();
    c.idle_since.store(std::max<std::int64_t>(1, std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()),
                       std::memory_order_relaxed);
  }
}

void http_server::impl::on_closed(http_conn& c) {
  std::lock_guard lock(mu);
  if (conns.erase(&c) > 0) --connections;
  cv.notify_all();
}

void http_server::impl::reap_loop() {
  std::unique_lock lock(mu);
  while (!stopping) {
    cv.wait_for(lock, std::chrono::seconds(1));
    auto now = std::chrono::steady_clock::now();
    std::vector<std::shared_ptr<detail::http_session>> expired;
    for (auto& [id, hs] : sessions) {
      std::lock_guard sl(hs->s->mu);
      std::lock_guard hl(hs->mu);
      if (hs->open_streams == 0 && hs->pending == 0 && hs->s->running.empty() &&
          now - hs->s->last_used > options.session_idle)
        expired.push_back(hs);
    }
    lock.unlock();
    for (auto& hs : expired) close_session(hs);
    lock.lock();
  }
}

std::shared_ptr<detail::http_session> http_server::impl::find_session(const std::string& id) {
  std::shared_ptr<detail::http_session> hs;
  {
    std::lock_guard lock(mu);
    auto it = sessions.find(id);
    if (it != sessions.end()) hs = it->second;
  }
  if (!options.session_store) return hs;
  return find_stored(id, std::move(hs));
}

std::shared_ptr<detail::http_session> http_server::impl::new_session(const conn_ptr& c, const http_request& req,
                                                                     const jsonrpc::request& r) {
  std::shared_ptr<detail::http_session> hs, victim;
  {
    std::lock_guard lock(mu);
    if (sessions.size() >= options.max_sessions) {
      // Evict the least recently used session nobody relies on: no stream, no running request,
      // and unused since initialize or idle for session_evict_idle. Live sessions stay.
      const auto now = std::chrono::steady_clock::now();
      std::chrono::steady_clock::time_point best{};
      for (auto& [id, cand] : sessions) {
        std::lock_guard sl(cand->s->mu);
        std::lock_guard hl(cand->mu);
        if (cand->open_streams > 0 || cand->pending > 0 || !cand->s->running.empty()) continue;
        if (cand->used && now - cand->s->last_used < options.session_evict_idle) continue;
        if (!victim || cand->s->last_used < best) {
          victim = cand;
          best = cand->s->last_used;
        }
      }
      if (!victim) {
        write_rpc_error(c, req, http::status::service_unavailable, r.id, -32000,
                        "Service Unavailable: max_sessions (" + std::to_string(options.max_sessions) +
                            ") sessions are open and in use; retry later, or raise max_sessions",
                        {{"limit", "max_sessions"}, {"value", options.max_sessions}});
        return nullptr;
      }
      sessions.erase(victim->id);
    }
    hs = make_session(random_token(16));
    sessions[hs->id] = hs;
  }
  if (victim) close_session(victim);
  return hs;
}

void http_server::impl::close_session(const std::shared_ptr<detail::http_session>& hs) {
  {
    std::lock_guard lock(mu);
    auto it = sessions.find(hs->id);
    if (it != sessions.end() && it->second == hs) sessions.erase(it);
  }
  hs->close();
}

void http_server::impl::refuse_busy(const conn_ptr& c, bool keep_alive, const jsonrpc::message_id& id) {
  auto resp = jsonrpc::response::failure(
      id, -32000,
      "Service Unavailable: max_pending_requests (" + std::to_string(options.max_pending_requests) +
          ") requests are being handled; retry later",
      {{"limit", "max_pending_requests"}, {"value", options.max_pending_requests}});
  c->respond(http::status::service_unavailable, jsonrpc::serialize(resp), "application/json", {}, keep_alive);
}

namespace {

std::string host_part(std::string_view hostport) {
  if (!hostport.empty() && hostport.front() == '[') {
    auto close = hostport.find(']');
    return std::string(hostport.substr(0, close == std::string_view::npos ? hostport.size() : close + 1));
  }
  return std::string(hostport.substr(0, hostport.find(':')));
}

bool is_loopback_bind(const std::string& host) {
  return host == "127.0.0.1" || host == "::1" || host == "localhost" || host.rfind("127.", 0) == 0;
}

}  // namespace

bool http_server::impl::check_host_origin(const http_request& req) const {
  static const std::vector<std::string> loopback_names = {"localhost", "127.0.0.1", "[::1]"};
  const std::vector<std::string>* allowed = &options.allowed_hosts;
  if (allowed->empty()) {
    if (!is_loopback_bind(options.host)) return true;
    allowed = &loopback_names;
  }
  auto ok = [&](const std::string& h) {
    for (const auto& a : *allowed)
      if (beast::iequals(a, h)) return true;
    return false;
  };
  auto host = req[http::field::host];
  if (!host.empty() && !ok(host_part(host))) return false;
  auto origin = req[http::field::origin];
  if (!origin.empty() && origin != "null") {
    auto scheme = origin.find("://");
    if (scheme == std::string_view::npos) return false;
    if (!ok(host_part(origin.substr(scheme + 3)))) return false;
  }
  return true;
}

bool http_server::impl::on_header(const conn_ptr& c, const http_request& head) {
  // Before the body is read and before any session state exists. A refusal closes the
  // connection: the unread body must not be taken for the next request.
  std::string_view target = head.target();
  target = target.substr(0, target.find('?'));
  if (target != options.path) {
    if (options.authorize) return true;  // the hook may answer other paths (after the body)
    c->respond(http::status::not_found, "not found\n", "text/plain", {}, false);
    return false;
  }
  if (!check_host_origin(head)) {
    auto resp = jsonrpc::response::failure(std::nullopt, -32000, "Forbidden: Host or Origin not allowed");
    c->respond(http::status::forbidden, jsonrpc::serialize(resp), "application/json", {}, false);
    return false;
  }
  if (!options.bearer_token.empty() && head[http::field::authorization] != "Bearer " + options.bearer_token) {
    c->respond(http::status::unauthorized, "unauthorized\n", "text/plain", {{"WWW-Authenticate", "Bearer"}}, false);
    return false;
  }
  return true;
}

// authorized asks the authorization hook (OAuth resource server); false when it answered.
std::optional<std::string> http_server::impl::authorized(const conn_ptr& c, http_request& req) {
  std::string_view target = req.target();
  target = target.substr(0, target.find('?'));
  const bool is_endpoint = target == options.path;
  std::vector<std::pair<std::string, std::string>> headers;
  for (const auto& f : req) headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
  auto d = options.authorize({.method = req.method_string(), .target = target, .headers = headers,
                              .body = req.body(), .is_endpoint = is_endpoint});
  if (d.status != 0) {
    write_response(c, req, static_cast<http::status>(d.status), d.body, d.content_type, d.headers);
    return std::nullopt;
  }
  if (!is_endpoint) {
    write_response(c, req, http::status::not_found, "not found\n", "text/plain");
    return std::nullopt;
  }
  return std::move(d.principal);
}

void http_server::impl::on_request(const conn_ptr& c, http_request& req) {
  if (options.authorize) {
    // The hook may block (key fetches, token introspection): not on the I/O thread.
    auto shared = std::make_shared<http_request>(std::move(req));
    bool keep = shared->keep_alive();
    bool queued = pool.post(
        [self = shared_from_this(), c, shared] {
          if (auto principal = self->authorized(c, *shared)) self->route(c, *shared, *principal);
        },
        options.max_pending_requests);
    if (!queued)
      c->respond(http::status::service_unavailable,
                 "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,\"message\":\"Service "
                 "Unavailable: max_pending_requests reached\",\"data\":{\"limit\":\"max_pending_requests\"}}}",
                 "application/json", {}, keep);
    return;
  }
  route(c, req);
}

void http_server::impl::route(const conn_ptr& c, http_request& req, const std::string& principal) {
  try {
    switch (req.method()) {
      case http::verb::post: return post(c, req, principal);
      case http::verb::get: return get(c, req);
      case http::verb::delete_: return del(c, req);
      default:
        return write_response(c, req, http::status::method_not_allowed, "", "text/plain",
                              {{"Allow", "GET, POST, DELETE"}});
    }
  } catch (const std::exception& e) {
    std::cerr << "tooluse mcp http: " << e.what() << "\n";
    c->close();
  }
}

}  // namespace tooluse::mcp
