#pragma once
// http_server::impl, shared by http_server.cpp (listener, I/O threads, connections, sessions,
// the handler pool) and http_server_routes.cpp (POST, GET, DELETE).

#include <atomic>
#include <list>
#include <thread>
#include <unordered_map>

#include "mcp/handler_pool.hpp"
#include "mcp/http_session_conn.hpp"

namespace tooluse::mcp {

namespace beast = detail::beast;
namespace http = detail::http;
namespace net = detail::net;
using http_conn = detail::http_connection;
using detail::http_request;
using detail::tcp;
using conn_ptr = std::shared_ptr<http_conn>;


/// mcp_headers are the request headers a POST to the MCP endpoint reads, found in one pass over
/// the fields (each lookup by name walks the field set; a POST used to make nine). Like
/// `req[name]`, each is the first field of its name, empty when there is none.
struct mcp_headers {
  std::string_view content_type, accept, session_id, protocol_version, method, name;
  static mcp_headers of(const http_request& req);
};

struct http_server::impl : detail::conn_hooks, std::enable_shared_from_this<http_server::impl> {
  server& srv;
  http_options options;
  /// One io_context that every I/O thread runs: a connection's handlers run on whichever thread
  /// is free (a context per thread made the tail worse; design/mcp-server.md). Owned apart from
  /// the rest: queued handlers hold the impl (shared_from_this), so stop() destroys the
  /// io_context itself once its threads are joined, which drops those handlers and the
  /// connections they hold (were it a plain member, impl -> io -> handler -> impl would leak).
  std::unique_ptr<net::io_context> io_owner = std::make_unique<net::io_context>();
  net::io_context& io = *io_owner;
  std::unique_ptr<tcp::acceptor> acceptor;
  std::unique_ptr<net::steady_timer> retry_timer;  ///< accept retry after EMFILE
  unsigned short bound_port = 0;
  std::vector<std::thread> io_threads;
  std::thread reaper_thread;
  handler_pool pool;

  std::mutex mu;
  std::condition_variable cv;
  bool stopping = false;
  bool stopped = false;
  std::size_t connections = 0;
  std::unordered_map<http_conn*, std::weak_ptr<http_conn>> conns;
  std::unordered_map<std::string, std::shared_ptr<detail::http_session>> sessions;
  /// the root of the stateless POSTs (server::connect_stateless), each a one-message connection
  std::unique_ptr<server_session> stateless_root;
  /// delivers the session store's messages (http_server_session_store.cpp)
  std::shared_ptr<void> store_listener;

  impl(server& s, http_options o);

  // conn_hooks
  void on_request(const conn_ptr& c, http_request& req) override;
  bool on_header(const conn_ptr& c, const http_request& head) override;
  void set_idle(http_conn& c, bool is_idle) override;
  void on_closed(http_conn& c) override;
  const http_options& opts() const override { return options; }

  /// authorized asks the hook; nullopt when it answered, else the request's principal.
  std::optional<std::string> authorized(const conn_ptr& c, http_request& req);
  void route(const conn_ptr& c, http_request& req, const std::string& principal = {});
  void do_accept();
  void accept_ready();
  void accepted(tcp::socket sock);
  /// oldest_idle_locked is the connection idle longest (none: null), no longer counted idle.
  conn_ptr oldest_idle_locked();
  void reap_loop();
  bool check_host_origin(const http_request& req) const;
  /// refuse_busy answers a request the handler pool cannot take: 503, max_pending_requests.
  void refuse_busy(const conn_ptr& c, bool keep_alive, const jsonrpc::message_id& id);

  void post(const conn_ptr& c, http_request& req, const std::string& principal);
  void get(const conn_ptr& c, http_request& req);
  void del(const conn_ptr& c, http_request& req);
  /// request_session is the session a GET or DELETE names in Mcp-Session-Id; without sessions,
  /// the header or the session, it answers the request with the error and returns null.
  std::shared_ptr<detail::http_session> request_session(const conn_ptr& c, http_request& req);
  /// post_fast serves a stateless tools/call on the fast path (fast_call.hpp); false, having
  /// written nothing, when the request is not the common case it takes.
  bool post_fast(const conn_ptr& c, http_request& req, const mcp_headers& h, const std::string& name,
                 const std::string& principal);
  void post_stateless(const conn_ptr& c, http_request& req, const mcp_headers& h, jsonrpc::message m,
                      const std::string& principal);
  void post_session(const conn_ptr& c, http_request& req, const std::shared_ptr<detail::http_session>& hs,
                    jsonrpc::message m, const std::string& principal);
  /// admit routes a POSTed request of `hs` to `reply`; false when the session's limits refused
  /// it (the refusal is written).
  bool admit(const conn_ptr& c, http_request& req, detail::http_session& hs, const jsonrpc::request& r,
             const json& id, detail::post_reply& reply);
  void listen(const conn_ptr& c, http_request& req, const jsonrpc::request& r);
  std::shared_ptr<detail::http_session> find_session(const std::string& id);
  /// new_session makes a session, evicting an unused one at max_sessions; null: 503 sent.
  std::shared_ptr<detail::http_session> new_session(const conn_ptr& c, const http_request& req,
                                                    const jsonrpc::request& r);
  void close_session(const std::shared_ptr<detail::http_session>& hs);

  // Sessions in a session store (http_server_session_store.cpp); used only when
  // options.session_store is set.
  /// make_session makes a session's objects, not yet in `sessions`: its unsolicited messages go
  /// to its GET stream, or through the store when there is one.
  std::shared_ptr<detail::http_session> make_session(const std::string& id);
  /// find_stored reads session `id` from the store: refreshes `cached` with it, or restores it
  /// into `sessions`; null (and `cached` dropped) when the store has no such session.
  std::shared_ptr<detail::http_session> find_stored(const std::string& id,
                                                    std::shared_ptr<detail::http_session> cached);
  /// persists_state names the methods whose response waits until the session is saved.
  bool persists_state(std::string_view method) const;
  /// save writes the session's record (before the response of `method` goes out).
  void save(detail::http_session& hs, std::string_view method, const json& result);
  /// announce_change tells the other replicas that session `id` changed or was deleted.
  void announce_change(const std::string& id);
  /// deliver writes a message published for session `id` on its GET stream, if held here.
  void deliver(const std::string& id, const json& message);
  /// start_store_listener subscribes to the store's messages (at start).
  status start_store_listener();
};

/// write_response sends a complete response (keep-alive as the request asks).
void write_response(const conn_ptr& c, const http_request& req, http::status status, std::string body,
                    std::string_view content_type = "application/json", const header_list& headers = {});
/// write_rpc_error sends a JSON-RPC error response body with an HTTP status.
void write_rpc_error(const conn_ptr& c, const http_request& req, http::status status,
                     std::optional<jsonrpc::message_id> id, int code, const std::string& message,
                     json data = nullptr);

}  // namespace tooluse::mcp
