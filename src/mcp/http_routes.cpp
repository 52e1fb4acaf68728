// The MCP endpoint: POST (both eras), GET (session stream, resumption), DELETE. Routes run on
// the connection's I/O thread; a request that may block is handed to the handler pool, and
// its reply is queued on the connection from there (written by the I/O thread).
#include <string_view>
#include <utility>

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
  post_reply(conn_ptr c, bool keep_alive, std::shared_ptr<http_session> hs, header_list headers,
             bool stateless, const http_options& options)
      : c_(std::move(c)), keep_alive_(keep_alive), hs_(std::move(hs)), headers_(std::move(headers)),
        stateless_(stateless), options_(options) {}

  void emit(const json& message, bool last) {
    std::lock_guard lock(mu_);
    if (done_) return;
    if (!stream_ && last) {
      c_->respond(status_for(message), dump_json(message), "application/json", headers_, keep_alive_);
      done_ = true;
      return;
    }
    if (!stream_) start();
    stream_->send(message);
    if (last) finish_locked();
  }

  /// finish ends the reply when the request produced no response (cancelled).
  void finish() {
    std::lock_guard lock(mu_);
    if (!done_ && stream_) finish_locked();
    if (!done_) {
      c_->respond(http::status::accepted, "", "", headers_, keep_alive_);
      done_ = true;
    }
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
    c_->start_stream(headers_, keep_alive_);
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
    stream_->writer = std::make_shared<conn_writer>(c_);
    if (hs_ && hs_->s->protocol_version >= std::string(version_2025_11_25)) stream_->prime(options_.sse_retry);
  }

  void finish_locked() {
    stream_->end();
    c_->end_stream();
    done_ = true;
    if (hs_) {
      std::lock_guard lock(hs_->mu);
      --hs_->open_streams;
    }
  }

  conn_ptr c_;
  bool keep_alive_;
  std::shared_ptr<http_session> hs_;
  header_list headers_;
  bool stateless_;
  const http_options& options_;
  std::mutex mu_;
  std::shared_ptr<sse_stream> stream_;
  bool done_ = false;
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

void http_server::impl::post(const conn_ptr& c, http_request& req) {
  auto ctype = req[http::field::content_type];
  if (ctype.find("application/json") == std::string_view::npos)
    return write_rpc_error(c, req, http::status::unsupported_media_type, std::nullopt, ec::invalid_request,
                           "Unsupported Media Type: use Content-Type: application/json");
  if (!accepts(req, "application/json") && !accepts(req, "text/event-stream"))
    return write_rpc_error(c, req, http::status::not_acceptable, std::nullopt, ec::invalid_request,
                           "Not Acceptable: accept application/json and text/event-stream");
  auto parsed = jsonrpc::parse(req.body());
  if (!parsed.errors.empty() || parsed.messages.size() != 1) {
    auto e = parsed.errors.empty()
                 ? jsonrpc::response::failure(std::nullopt, ec::invalid_request, "Invalid Request")
                 : parsed.errors.front();
    return write_response(c, req, http::status::bad_request, jsonrpc::serialize(e));
  }
  jsonrpc::message& m = parsed.messages.front();
  std::string sid(req["Mcp-Session-Id"]);
  std::string hv(req["MCP-Protocol-Version"]);
  if (const auto* r = std::get_if<jsonrpc::request>(&m)) {
    bool has_meta = r->params.is_object() && r->params.contains("_meta") &&
                    r->params["_meta"].is_object() && r->params["_meta"].contains(meta_protocol_version);
    bool legacy = !has_meta && !hv.empty() && is_session_version(hv);
    if (srv.options().stateless && (has_meta || (!hv.empty() && !legacy && sid.empty())))
      return post_stateless(c, req, std::move(m));
    if (sid.empty() && r->method == "initialize" && srv.options().sessions) {
      auto hs = new_session(c, req, *r);
      if (!hs) return;
      return post_session(c, req, hs, std::move(m));
    }
  }
  if (sid.empty())
    return write_rpc_error(c, req, http::status::bad_request, std::nullopt, -32000,
                           "Bad Request: Mcp-Session-Id header is required");
  auto hs = find_session(sid);
  if (!hs) return write_rpc_error(c, req, http::status::not_found, std::nullopt, -32001, "Session not found");
  if (!hv.empty() && !is_session_version(hv))
    return write_rpc_error(c, req, http::status::bad_request, std::nullopt, ec::invalid_request,
                           "Bad Request: unsupported MCP-Protocol-Version \"" + hv + "\"");
  {
    std::lock_guard lock(hs->mu);
    hs->used = true;
  }
  return post_session(c, req, hs, std::move(m));
}

void http_server::impl::post_session(const conn_ptr& c, http_request& req, const std::shared_ptr<http_session>& hs,
                                     jsonrpc::message m) {
  header_list headers = {{"Mcp-Session-Id", hs->id}};
  if (!std::holds_alternative<jsonrpc::request>(m)) {
    // Responses and notifications never block: handled here, on the I/O thread.
    srv.handle_message(hs->s, m, [](const json&, bool) {});
    return write_response(c, req, http::status::accepted, "", "", headers);
  }
  const auto& r = std::get<jsonrpc::request>(m);
  {
    std::lock_guard lock(hs->mu);
    if (hs->open_streams >= options.max_streams_per_session)
      return write_rpc_error(c, req, http::status::too_many_requests, r.id, -32000,
                             "Too Many Requests: max_streams_per_session (" +
                                 std::to_string(options.max_streams_per_session) +
                                 ") streams are open in this session",
                             {{"limit", "max_streams_per_session"}, {"value", options.max_streams_per_session}});
    if (hs->pending >= options.max_pending_per_session)
      return write_rpc_error(c, req, http::status::too_many_requests, r.id, -32000,
                             "Too Many Requests: max_pending_per_session (" +
                                 std::to_string(options.max_pending_per_session) +
                                 ") requests of this session are being handled; wait for their responses",
                             {{"limit", "max_pending_per_session"}, {"value", options.max_pending_per_session}});
    ++hs->pending;
  }
  const bool keep = req.keep_alive();
  auto msg = std::make_shared<jsonrpc::message>(std::move(m));
  run(c, req, std::get<jsonrpc::request>(*msg), [this, c, hs, headers, keep, msg] {
    post_reply reply(c, keep, hs, headers, false, options);
    // The request stops counting as pending before its response is written: a client that
    // has read the response may send the next request at once, and must not be refused.
    bool released = false;
    auto release = [&] {
      if (std::exchange(released, true)) return;
      std::lock_guard lock(hs->mu);
      --hs->pending;
    };
    try {
      srv.handle_message(hs->s, *msg, [&](const json& j, bool last) {
        if (last) release();
        reply.emit(j, last);
      });
    } catch (...) {
      release();
      throw;
    }
    release();
    reply.finish();
  });
}

void http_server::impl::post_stateless(const conn_ptr& c, http_request& req, jsonrpc::message m) {
  auto msg = std::make_shared<jsonrpc::message>(std::move(m));
  const auto& r = std::get<jsonrpc::request>(*msg);
  std::string_view hv = req["MCP-Protocol-Version"];
  if (hv.empty())
    return write_rpc_error(c, req, http::status::bad_request, r.id, ec::header_mismatch,
                           "Header mismatch: the MCP-Protocol-Version header is required");
  static const json no_meta = json::object();
  const json* meta = &no_meta;
  if (r.params.is_object())
    if (auto it = r.params.find("_meta"); it != r.params.end()) meta = &*it;
  if (meta->is_object() && meta->contains(meta_protocol_version) &&
      !((*meta)[meta_protocol_version].is_string() &&
        (*meta)[meta_protocol_version].get_ref<const std::string&>() == hv))
    return write_rpc_error(c, req, http::status::bad_request, r.id, ec::header_mismatch,
                           "Header mismatch: MCP-Protocol-Version does not match _meta protocolVersion");
  if (auto rej = srv.stateless_check(r))
    return write_response(c, req, http::status::bad_request, jsonrpc::serialize(rej->response));
  auto method_header = req["Mcp-Method"];
  if (method_header != r.method)
    return write_rpc_error(c, req, http::status::bad_request, r.id, ec::header_mismatch,
                           "Header mismatch: Mcp-Method header does not match the body method");
  if (std::string field(routing_name_field(r.method)); !field.empty()) {
    auto raw = req["Mcp-Name"];
    auto name = decode_header_value(raw);
    std::string body = r.params.is_object() ? r.params.value(field, "") : "";
    if (raw.empty() || !name || *name != body)
      return write_rpc_error(c, req, http::status::bad_request, r.id, ec::header_mismatch,
                             "Header mismatch: Mcp-Name header does not match params." + field);
  }
  if (r.method == "subscriptions/listen") return listen(c, req, r);
  const bool keep = req.keep_alive();
  run(c, req, r, [this, c, keep, msg] {
    post_reply reply(c, keep, nullptr, {}, true, options);
    srv.handle_message(stateless_root, *msg, [&](const json& j, bool last) { reply.emit(j, last); });
    reply.finish();
  });
}

void http_server::impl::listen(const conn_ptr& c, http_request& /*req*/, const jsonrpc::request& r) {
  c->start_stream({}, false);
  auto writer = std::make_shared<conn_writer>(c);
  auto stream = std::make_shared<sse_stream>();
  stream->id = "l";
  stream->keep = 0;
  stream->writer = writer;
  auto handle = srv.listen(r, [stream](const json& j) { stream->send(j); });
  // The listener lives as long as the connection; comments keep idle proxies from closing it.
  c->on_close([handle, stream] { stream->end(); });
  c->keep_alive_comments(std::chrono::duration_cast<std::chrono::milliseconds>(options.keepalive));
}

void http_server::impl::get(const conn_ptr& c, http_request& req) {
  if (!srv.options().sessions)
    return write_response(c, req, http::status::method_not_allowed, "", "", {{"Allow", "POST"}});
  std::string sid(req["Mcp-Session-Id"]);
  if (sid.empty())
    return write_rpc_error(c, req, http::status::bad_request, std::nullopt, -32000,
                           "Bad Request: Mcp-Session-Id header is required");
  auto hs = find_session(sid);
  if (!hs) return write_rpc_error(c, req, http::status::not_found, std::nullopt, -32001, "Session not found");
  if (!accepts(req, "text/event-stream")) return write_response(c, req, http::status::not_acceptable, "", "");
  std::string last(req["Last-Event-ID"]);
  std::shared_ptr<sse_stream> stream;
  std::uint64_t after = 0;
  bool standalone = false;
  {
    std::lock_guard lock(hs->mu);
    hs->used = true;
    if (!last.empty()) {
      auto us = last.rfind('_');
      auto it = us == std::string::npos ? hs->streams.end() : hs->streams.find(last.substr(0, us));
      if (it == hs->streams.end())
        return write_rpc_error(c, req, http::status::not_found, std::nullopt, -32000, "Unknown Last-Event-ID");
      stream = it->second;
      after = std::strtoull(last.c_str() + us + 1, nullptr, 10);
    } else {
      if (hs->standalone && hs->standalone->writer)
        return write_rpc_error(c, req, http::status::conflict, std::nullopt, -32000,
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
      return write_rpc_error(c, req, http::status::too_many_requests, std::nullopt, -32000,
                             "Too Many Requests: max_streams_per_session (" +
                                 std::to_string(options.max_streams_per_session) +
                                 ") streams are open in this session",
                             {{"limit", "max_streams_per_session"}, {"value", options.max_streams_per_session}});
    ++hs->open_streams;
  }
  c->start_stream({{"Mcp-Session-Id", hs->id}}, false);
  auto writer = std::make_shared<conn_writer>(c);
  c->on_close([hs, stream, writer] {
    {
      std::lock_guard lock(stream->mu);
      if (stream->writer == writer) stream->writer.reset();
    }
    std::lock_guard lock(hs->mu);
    --hs->open_streams;
  });
  std::weak_ptr<http_conn> wc = c;
  bool ended = false;
  {
    std::lock_guard lock(stream->mu);
    ended = stream->ended;
    if (!ended) stream->on_end = [wc] {
        if (auto conn = wc.lock()) conn->end_stream();
      };
  }
  if (standalone) {
    std::lock_guard lock(hs->s->mu);
    hs->s->outbound = [stream](const json& j) { stream->send(j); };
  }
  stream->attach(writer, after);
  // Prime once a writer is attached: the priming event is not kept for replay, so one sent
  // before attach() was written nowhere and the client never got it.
  if (standalone) stream->prime(options.sse_retry);
  if (ended) return c->end_stream();
  c->keep_alive_comments(std::chrono::duration_cast<std::chrono::milliseconds>(options.keepalive));
}

void http_server::impl::del(const conn_ptr& c, http_request& req) {
  if (!srv.options().sessions)
    return write_response(c, req, http::status::method_not_allowed, "", "", {{"Allow", "POST"}});
  std::string sid(req["Mcp-Session-Id"]);
  if (sid.empty())
    return write_rpc_error(c, req, http::status::bad_request, std::nullopt, -32000,
                           "Bad Request: Mcp-Session-Id header is required");
  auto hs = find_session(sid);
  if (!hs) return write_rpc_error(c, req, http::status::not_found, std::nullopt, -32001, "Session not found");
  close_session(hs);
  return write_response(c, req, http::status::ok, "", "");
}

}  // namespace tooluse::mcp
