// server_session (server_session.hpp): a connection served by the server, what server::connect
// makes; every server-side transport hands its connections' messages to it.
#include "tooluse/mcp/server_session.hpp"

#include "mcp/server_impl.hpp"
#include "tooluse/mcp/connection.hpp"
#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp {

std::unique_ptr<server_session> server::connect(connection& conn) {
  return std::unique_ptr<server_session>(new server_session(*this, &conn, false));
}

std::unique_ptr<server_session> server::connect_stateless() {
  return std::unique_ptr<server_session>(new server_session(*this, nullptr, true));
}

void server::stop_cancelled_task(const std::string& id) {
  if (!id.empty() && impl_->tasks) impl_->tasks->stop_cancelled(id);
}

server_session::server_session(server& srv, connection* conn, bool shared)
    : srv_(srv), conn_(conn) {
  std::function<void(const json&)> outbound;
  if (conn_)
    outbound = [this](const json& m) {
      if (!conn_->send(m)) write_failed_ = true;
    };
  state_ = srv_.open_session(std::move(outbound));
  // Set before the session is used: handle_message reads it without the lock.
  state_->shared = shared;
}

server_session::~server_session() { close(); }

bool server_session::handle(const jsonrpc::message& m, std::string_view principal) {
  if (!conn_) {
    // The root of one-message connections has no connection of its own: each request names
    // its reply (handle(m, reply)); anything else emits nothing.
    if (std::holds_alternative<jsonrpc::request>(m)) return false;
    return srv_.handle_message(state_, m, [](const json&, bool) {});
  }
  return handle(m, *conn_, principal);
}

bool server_session::handle(const jsonrpc::message& m, connection& reply,
                            std::string_view principal) {
  return reply_to(m, reply, principal, nullptr);
}

bool server_session::handle(const jsonrpc::message& m, connection& reply,
                            wire::request_meta& checked, std::string_view principal) {
  return reply_to(m, reply, principal, &checked);
}

bool server_session::reply_to(const jsonrpc::message& m, connection& reply,
                              std::string_view principal, wire::request_meta* checked) {
  const auto* r = std::get_if<jsonrpc::request>(&m);
  // Responses and notifications of the client emit nothing.
  if (!r) return srv_.handle_message(state_, m, [](const json&, bool) {});
  const json id = jsonrpc::id_to_json(r->id);
  return srv_.handle_message(
      state_, m,
      [&](const json& j, bool) {
        if (!reply.write({.message = j, .request = &id})) write_failed_ = true;
      },
      principal, checked);
}

void server_session::end_input() {
  std::map<std::string, std::shared_ptr<pending_reply>> pending;
  {
    std::lock_guard lock(state_->mu);
    pending.swap(state_->pending);
  }
  for (auto& [id, p] : pending) {
    std::lock_guard lock(p->mu);
    p->done = true;
    p->value = fail(errc::cancelled, "the client closed the connection");
    p->cv.notify_all();
  }
}

void server_session::close() {
  if (closed_.exchange(true)) return;
  srv_.close_session(state_);
}

}  // namespace tooluse::mcp
