// The MCP endpoint: POST (both eras), GET (session stream, resumption), DELETE.
#include <string_view>

#include "mcp/http_server_impl.hpp"
#include "mcp/server_impl.hpp"
#include "tooluse/base64.hpp"

namespace tooluse::mcp {

namespace ec = jsonrpc::error_code;
using detail::conn_writer;
using detail::http_session;
using detail::sse_stream;

namespace {

// post_reply answers one POSTed request: plain JSON when the response is the first thing to
// send, otherwise an SSE stream that carries the related messages and ends with the response.
class post_reply {
 public:
  post_reply(tcp::socket& sock, const http_request& req, std::shared_ptr<http_session> hs,
             std::vector<std::pair<std::string, std::string>> headers, bool stateless,
             const http_options& options)
      : sock_(sock), req_(req), hs_(std::move(hs)), headers_(std::move(headers)),
        stateless_(stateless), options_(options) {}

  void emit(const json& message, bool last) {
    std::lock_guard lock(mu_);
    if (done_) return;
    if (!stream_ && last) {
      keep_ = write_response(sock_, req_, status_for(message), dump_json(message), "application/json", headers_);
      done_ = true;
      return;
    }
    if (!stream_) start();
    stream_->send(message);
    if (last) finish_locked();
  }

  /// finish ends the reply when the request produced no response (cancelled).
  bool finish() {
    std::lock_guard lock(mu_);
    if (!done_ && stream_) finish_locked();
    if (!done_) {
      keep_ = write_response(sock_, req_, http::status::accepted, "", "", headers_);
      done_ = true;
    }
    return keep_;
  }

 private:
  http::status status_for(const json& m) const {
    if (!stateless_ || !m.contains("error")) return http::status::ok;
    int code = m["error"].value("code", 0);
    if (code == ec::method_not_found) return http::status::not_found;
    if (code == ec::header_mismatch || code == ec::missing_client_capability ||
        code == ec::unsupported_protocol_version)
      return http::status::bad_request;
    return http::status::ok;
  }

  void start() {
    auto res = detail::sse_headers();
    for (const auto& [k, v] : headers_) res.set(k, v);
    res.keep_alive(req_.keep_alive());
    http::response_serializer<http::empty_body> sr{res};
    beast::error_code e;
    http::write_header(sock_, sr, e);
    writer_ = std::make_shared<conn_writer>(sock_);
    if (e) writer_->ok = false;
    stream_ = std::make_shared<sse_stream>();
    stream_->keep = options_.replay_events;
    if (hs_) {
      std::lock_guard lock(hs_->mu);
      stream_->id = hs_->id.substr(0, 8) + "p" + std::to_string(++hs_->next_stream);
      hs_->streams[stream_->id] = stream_;
      ++hs_->open_streams;
    } else {
      stream_->id = "s";
    }
    stream_->writer = writer_;
    if (hs_ && hs_->s->protocol_version >= std::string(version_2025_11_25)) stream_->prime(options_.sse_retry);
  }

  void finish_locked() {
    stream_->end();
    writer_->last_chunk();
    keep_ = writer_->ok && req_.keep_alive();
    done_ = true;
    if (hs_) {
      std::lock_guard lock(hs_->mu);
      --hs_->open_streams;
    }
  }

  tcp::socket& sock_;
  const http_request& req_;
  std::shared_ptr<http_session> hs_;
  std::vector<std::pair<std::string, std::string>> headers_;
  bool stateless_;
  const http_options& options_;
  std::mutex mu_;
  std::shared_ptr<sse_stream> stream_;
  std::shared_ptr<conn_writer> writer_;
  bool done_ = false;
  bool keep_ = false;
};

bool accepts(const http_request& req, std::string_view type) {
  auto accept = req[http::field::accept];
  return accept.empty() || accept.find(type) != std::string_view::npos ||
         accept.find("*/*") != std::string_view::npos;
}

// decode_header_value undoes the "=?base64?...?=" sentinel of 2026-07-28.
std::optional<std::string> decode_header_value(std::string_view v) {
  constexpr std::string_view pre = "=?base64?", post = "?=";
  if (v.size() < pre.size() + post.size() || v.substr(0, pre.size()) != pre ||
      v.substr(v.size() - post.size()) != post)
    return std::string(v);
  std::string_view b = v.substr(pre.size(), v.size() - pre.size() - post.size());
  while (!b.empty() && b.back() == '=') b.remove_suffix(1);
  return base64_decode(b);
}

}  // namespace

bool http_server::impl::post(tcp::socket& sock, http_request& req) {
  auto ctype = req[http::field::content_type];
  if (ctype.find("application/json") == std::string_view::npos)
    return write_rpc_error(sock, req, http::status::unsupported_media_type, std::nullopt,
                           ec::invalid_request, "Unsupported Media Type: use Content-Type: application/json");
  if (!accepts(req, "application/json") && !accepts(req, "text/event-stream"))
    return write_rpc_error(sock, req, http::status::not_acceptable, std::nullopt, ec::invalid_request,
                           "Not Acceptable: accept application/json and text/event-stream");
  auto parsed = jsonrpc::parse(req.body());
  if (!parsed.errors.empty() || parsed.messages.size() != 1) {
    auto e = parsed.errors.empty()
                 ? jsonrpc::response::failure(std::nullopt, ec::invalid_request, "Invalid Request")
                 : parsed.errors.front();
    return write_response(sock, req, http::status::bad_request, jsonrpc::serialize(e));
  }
  const jsonrpc::message& m = parsed.messages.front();
  std::string sid(req["Mcp-Session-Id"]);
  std::string hv(req["MCP-Protocol-Version"]);
  if (const auto* r = std::get_if<jsonrpc::request>(&m)) {
    bool has_meta = r->params.is_object() && r->params.contains("_meta") &&
                    r->params["_meta"].is_object() && r->params["_meta"].contains(meta_protocol_version);
    bool legacy = !has_meta && !hv.empty() && is_session_version(hv);
    if (srv.options().stateless && (has_meta || (!hv.empty() && !legacy && sid.empty())))
      return post_stateless(sock, req, *r);
    if (sid.empty() && r->method == "initialize" && srv.options().sessions) {
      std::shared_ptr<http_session> hs;
      {
        std::lock_guard lock(mu);
        if (sessions.size() >= options.max_sessions)
          return write_rpc_error(sock, req, http::status::service_unavailable, r->id, -32000,
                                 "Service Unavailable: too many sessions");
        hs = std::make_shared<http_session>();
        hs->id = random_token(16);
        hs->s = srv.open_session();
        hs->s->id = hs->id;
        sessions[hs->id] = hs;
      }
      return post_session(sock, req, hs, m);
    }
  }
  if (sid.empty())
    return write_rpc_error(sock, req, http::status::bad_request, std::nullopt, -32000,
                           "Bad Request: Mcp-Session-Id header is required");
  auto hs = find_session(sid);
  if (!hs) return write_rpc_error(sock, req, http::status::not_found, std::nullopt, -32001, "Session not found");
  if (!hv.empty() && !is_session_version(hv))
    return write_rpc_error(sock, req, http::status::bad_request, std::nullopt, ec::invalid_request,
                           "Bad Request: unsupported MCP-Protocol-Version \"" + hv + "\"");
  return post_session(sock, req, hs, m);
}

bool http_server::impl::post_session(tcp::socket& sock, http_request& req,
                                     const std::shared_ptr<http_session>& hs, const jsonrpc::message& m) {
  std::vector<std::pair<std::string, std::string>> headers = {{"Mcp-Session-Id", hs->id}};
  if (!std::holds_alternative<jsonrpc::request>(m)) {
    srv.handle_message(hs->s, m, [](const json&, bool) {});
    return write_response(sock, req, http::status::accepted, "", "", headers);
  }
  {
    std::lock_guard lock(hs->mu);
    if (hs->open_streams >= options.max_streams_per_session)
      return write_rpc_error(sock, req, http::status::too_many_requests, std::get<jsonrpc::request>(m).id,
                             -32000, "Too Many Requests: too many open streams in this session");
  }
  post_reply reply(sock, req, hs, headers, false, options);
  srv.handle_message(hs->s, m, [&](const json& j, bool last) { reply.emit(j, last); });
  return reply.finish();
}

bool http_server::impl::post_stateless(tcp::socket& sock, http_request& req, const jsonrpc::request& r) {
  std::string hv(req["MCP-Protocol-Version"]);
  if (hv.empty())
    return write_rpc_error(sock, req, http::status::bad_request, r.id, ec::header_mismatch,
                           "Header mismatch: the MCP-Protocol-Version header is required");
  const json meta = r.params.is_object() ? r.params.value("_meta", json::object()) : json::object();
  if (meta.is_object() && meta.contains(meta_protocol_version) && meta[meta_protocol_version] != hv)
    return write_rpc_error(sock, req, http::status::bad_request, r.id, ec::header_mismatch,
                           "Header mismatch: MCP-Protocol-Version does not match _meta protocolVersion");
  if (auto rej = srv.stateless_check(r))
    return write_response(sock, req, http::status::bad_request, jsonrpc::serialize(rej->response));
  auto method_header = req["Mcp-Method"];
  if (method_header != r.method)
    return write_rpc_error(sock, req, http::status::bad_request, r.id, ec::header_mismatch,
                           "Header mismatch: Mcp-Method header does not match the body method");
  if (std::string field(routing_name_field(r.method)); !field.empty()) {
    auto raw = req["Mcp-Name"];
    auto name = decode_header_value(raw);
    std::string body = r.params.is_object() ? r.params.value(field, "") : "";
    if (raw.empty() || !name || *name != body)
      return write_rpc_error(sock, req, http::status::bad_request, r.id, ec::header_mismatch,
                             "Header mismatch: Mcp-Name header does not match params." + field);
  }
  if (r.method == "subscriptions/listen") return listen(sock, req, r);
  post_reply reply(sock, req, nullptr, {}, true, options);
  srv.handle_message(stateless_root, jsonrpc::message(r), [&](const json& j, bool last) { reply.emit(j, last); });
  return reply.finish();
}

bool http_server::impl::listen(tcp::socket& sock, http_request& /*req*/, const jsonrpc::request& r) {
  auto res = detail::sse_headers();
  res.keep_alive(false);
  http::response_serializer<http::empty_body> sr{res};
  beast::error_code e;
  http::write_header(sock, sr, e);
  if (e) return false;
  auto writer = std::make_shared<conn_writer>(sock);
  auto stream = std::make_shared<sse_stream>();
  stream->id = "l";
  stream->keep = 0;
  stream->writer = writer;
  auto handle = srv.listen(r, [stream](const json& j) { stream->send(j); });
  std::unique_lock lock(mu);
  while (!stopping && writer->ok) {
    cv.wait_for(lock, options.keepalive);
    if (stopping) break;
    lock.unlock();
    writer->chunk(":\n\n");
    lock.lock();
  }
  return false;
}

bool http_server::impl::get(tcp::socket& sock, http_request& req) {
  if (!srv.options().sessions)
    return write_response(sock, req, http::status::method_not_allowed, "", "", {{"Allow", "POST"}});
  std::string sid(req["Mcp-Session-Id"]);
  if (sid.empty())
    return write_rpc_error(sock, req, http::status::bad_request, std::nullopt, -32000,
                           "Bad Request: Mcp-Session-Id header is required");
  auto hs = find_session(sid);
  if (!hs) return write_rpc_error(sock, req, http::status::not_found, std::nullopt, -32001, "Session not found");
  if (!accepts(req, "text/event-stream"))
    return write_response(sock, req, http::status::not_acceptable, "", "");
  std::string last(req["Last-Event-ID"]);
  std::shared_ptr<sse_stream> stream;
  std::uint64_t after = 0;
  bool standalone = false;
  {
    std::lock_guard lock(hs->mu);
    if (!last.empty()) {
      auto us = last.rfind('_');
      auto it = us == std::string::npos ? hs->streams.end() : hs->streams.find(last.substr(0, us));
      if (it == hs->streams.end())
        return write_rpc_error(sock, req, http::status::not_found, std::nullopt, -32000, "Unknown Last-Event-ID");
      stream = it->second;
      after = std::strtoull(last.c_str() + us + 1, nullptr, 10);
    } else {
      if (hs->standalone && hs->standalone->writer)
        return write_rpc_error(sock, req, http::status::conflict, std::nullopt, -32000,
                               "Conflict: this session already has a GET stream");
      if (!hs->standalone) {
        hs->standalone = std::make_shared<sse_stream>();
        hs->standalone->id = hs->id.substr(0, 8) + "g" + std::to_string(++hs->next_stream);
        hs->standalone->keep = options.replay_events;
        hs->streams[hs->standalone->id] = hs->standalone;
      }
      stream = hs->standalone;
      standalone = true;
    }
    if (hs->open_streams >= options.max_streams_per_session)
      return write_rpc_error(sock, req, http::status::too_many_requests, std::nullopt, -32000,
                             "Too Many Requests: too many open streams in this session");
    ++hs->open_streams;
  }
  auto res = detail::sse_headers();
  res.set("Mcp-Session-Id", hs->id);
  res.keep_alive(false);
  http::response_serializer<http::empty_body> sr{res};
  beast::error_code e;
  http::write_header(sock, sr, e);
  auto writer = std::make_shared<conn_writer>(sock);
  if (e) writer->ok = false;
  if (standalone) {
    stream->prime(options.sse_retry);
    std::lock_guard lock(hs->s->mu);
    hs->s->outbound = [stream](const json& j) { stream->send(j); };
  }
  stream->attach(writer, after);
  {
    std::unique_lock lock(stream->mu);
    while (!stream->ended && writer->ok) {
      if (stream->cv.wait_for(lock, options.keepalive) == std::cv_status::timeout) {
        lock.unlock();
        writer->chunk(":\n\n");
        lock.lock();
      }
      std::lock_guard l(mu);
      if (stopping) break;
    }
    if (stream->writer == writer) stream->writer.reset();
  }
  if (writer->ok) writer->last_chunk();
  std::lock_guard lock(hs->mu);
  --hs->open_streams;
  return false;
}

bool http_server::impl::del(tcp::socket& sock, http_request& req) {
  if (!srv.options().sessions)
    return write_response(sock, req, http::status::method_not_allowed, "", "", {{"Allow", "POST"}});
  std::string sid(req["Mcp-Session-Id"]);
  if (sid.empty())
    return write_rpc_error(sock, req, http::status::bad_request, std::nullopt, -32000,
                           "Bad Request: Mcp-Session-Id header is required");
  auto hs = find_session(sid);
  if (!hs) return write_rpc_error(sock, req, http::status::not_found, std::nullopt, -32001, "Session not found");
  close_session(hs);
  return write_response(sock, req, http::status::ok, "", "");
}

}  // namespace tooluse::mcp
