// The MCP endpoint: POST (both eras), GET (session stream, resumption), DELETE. Routes run on
// the connection's I/O thread. A POSTed message is handled by the server_session of its
// connection (server::connect): the HTTP session's (http_session_conn.hpp), or for a stateless
// request the root's, answering on a one-message post_connection. A request that never blocks
// (server::runs_inline) is handled right here and its reply written directly; any other goes
// to the handler pool, and its reply is queued on the HTTP connection from there (written by
// the I/O thread).
#include <iterator>
#include <string_view>
#include <utility>

#include "mcp/fast_call.hpp"
#include "mcp/http_server_impl.hpp"
#include "mcp/server_impl.hpp"
#include "tooluse/base64.hpp"
#include "tooluse/json_build.hpp"

namespace tooluse::mcp {

namespace ec = jsonrpc::error_code;
using detail::conn_writer;
using detail::http_session;
using detail::post_connection;
using detail::post_reply;
using detail::sse_stream;

namespace {

bool accepts(std::string_view accept, std::string_view type) {
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

namespace {
// equals_lowercase: `sent` is `lower` in any case (ASCII; beast::iequals, without its table).
bool equals_lowercase(std::string_view sent, std::string_view lower) {
  for (std::size_t i = 0; i < sent.size(); ++i) {
    char c = sent[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + ('a' - 'A'));
    if (c != lower[i]) return false;
  }
  return true;
}
}  // namespace

mcp_headers mcp_headers::of(const http_request& req) {
  // Each is the first field of its name. The MCP fields are unknown to Beast: matched by
  // length first, so a field costs one comparison at most.
  struct mcp_field {
    std::string_view name;
    std::string_view mcp_headers::*slot;
  };
  static constexpr mcp_field mcp_fields[] = {{"mcp-session-id", &mcp_headers::session_id},
                                             {"mcp-protocol-version", &mcp_headers::protocol_version},
                                             {"mcp-method", &mcp_headers::method},
                                             {"mcp-name", &mcp_headers::name}};
  mcp_headers h;
  bool seen_type = false, seen_accept = false, seen[std::size(mcp_fields)] = {};
  for (const auto& f : req) {
    if (f.name() == http::field::content_type) {
      if (!std::exchange(seen_type, true)) h.content_type = f.value();
    } else if (f.name() == http::field::accept) {
      if (!std::exchange(seen_accept, true)) h.accept = f.value();
    } else if (f.name() == http::field::unknown) {
      const std::string_view n = f.name_string();
      for (std::size_t i = 0; i < std::size(mcp_fields); ++i)
        if (n.size() == mcp_fields[i].name.size() && equals_lowercase(n, mcp_fields[i].name)) {
          if (!std::exchange(seen[i], true)) h.*mcp_fields[i].slot = f.value();
          break;
        }
    }
  }
  return h;
}

void http_server::impl::post(const conn_ptr& c, http_request& req, const std::string& principal) {
  const auto h = mcp_headers::of(req);
  if (h.content_type.find("application/json") == std::string_view::npos)
    return write_rpc_error(c, req, http::status::unsupported_media_type, std::nullopt, ec::invalid_request,
                           "Unsupported Media Type: use Content-Type: application/json");
  if (!accepts(h.accept, "application/json") && !accepts(h.accept, "text/event-stream"))
    return write_rpc_error(c, req, http::status::not_acceptable, std::nullopt, ec::invalid_request,
                           "Not Acceptable: accept application/json and text/event-stream");
  // The common stateless tools/call: fewer layers, the same answer (fast_call.hpp).
  if (options.fast_calls && stateless_root && h.session_id.empty() && h.method == "tools/call" && !h.protocol_version.empty() &&
      !h.name.empty())
    if (auto name = decode_header_value(h.name); name && detail::fast_tool(srv, *name))
      if (post_fast(c, req, h, *name, principal)) return;
  auto parsed = jsonrpc::parse(req.body());
  if (!parsed.errors.empty() || parsed.messages.size() != 1) {
    auto e = parsed.errors.empty()
                 ? jsonrpc::response::failure(std::nullopt, ec::invalid_request, "Invalid Request")
                 : parsed.errors.front();
    return write_response(c, req, http::status::bad_request, jsonrpc::serialize(e));
  }
  jsonrpc::message& m = parsed.messages.front();
  std::string sid(h.session_id);
  std::string hv(h.protocol_version);
  if (const auto* r = std::get_if<jsonrpc::request>(&m)) {
    bool has_meta = r->params.is_object() && r->params.contains("_meta") &&
                    r->params["_meta"].is_object() && r->params["_meta"].contains(meta_protocol_version);
    bool legacy = !has_meta && !hv.empty() && is_session_version(hv);
    if (srv.options().stateless && (has_meta || (!hv.empty() && !legacy && sid.empty())))
      return post_stateless(c, req, h, std::move(m), principal);
    if (sid.empty() && r->method == "initialize" && srv.options().sessions) {
      auto hs = new_session(c, req, *r);
      if (!hs) return;
      return post_session(c, req, hs, std::move(m), principal);
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
  return post_session(c, req, hs, std::move(m), principal);
}

namespace {

// route_guard ends a POST's route in its session when the request is over, however it ended.
struct route_guard {
  http_session& hs;
  const json& id;
  const post_reply& reply;
  ~route_guard() { hs.done(id, reply); }
};

}  // namespace

bool http_server::impl::admit(const conn_ptr& c, http_request& req, http_session& hs, const jsonrpc::request& r,
                              const json& id, post_reply& reply) {
  using admit_result = http_session::admit_result;
  // A change of the session waits for the session store before its response
  // (http_server_session_store.cpp).
  const std::string_view persist = persists_state(r.method) ? std::string_view(r.method) : std::string_view();
  switch (hs.admit(id, reply, options, persist)) {
    case admit_result::ok: return true;
    case admit_result::too_many_streams:
      write_rpc_error(c, req, http::status::too_many_requests, r.id, -32000,
                      "Too Many Requests: max_streams_per_session (" +
                          std::to_string(options.max_streams_per_session) + ") streams are open in this session",
                      {{"limit", "max_streams_per_session"}, {"value", options.max_streams_per_session}});
      return false;
    case admit_result::too_many_pending:
      write_rpc_error(c, req, http::status::too_many_requests, r.id, -32000,
                      "Too Many Requests: max_pending_per_session (" +
                          std::to_string(options.max_pending_per_session) +
                          ") requests of this session are being handled; wait for their responses",
                      {{"limit", "max_pending_per_session"}, {"value", options.max_pending_per_session}});
      return false;
    case admit_result::duplicate_id:
      write_rpc_error(c, req, http::status::bad_request, r.id, ec::invalid_request,
                      "Invalid Request: request id " + dump_json(id) +
                          " is still being handled in this session; use an id not in flight");
      return false;
  }
  return false;
}

void http_server::impl::post_session(const conn_ptr& c, http_request& req, const std::shared_ptr<http_session>& hs,
                                     jsonrpc::message m, const std::string& principal) {
  header_list headers = {{"Mcp-Session-Id", hs->id}};
  const auto* r = std::get_if<jsonrpc::request>(&m);
  if (!r) {
    // Responses and notifications never block: handled here, on the I/O thread.
    hs->served->handle(m, principal);
    return write_response(c, req, http::status::accepted, "", "", headers);
  }
  const bool keep = req.keep_alive();
  const json id = jsonrpc::id_to_json(r->id);
  if (srv.runs_inline(*r)) {
    // The fast path: handled on the I/O thread, the reply on the stack, written directly.
    post_reply reply(c, keep, hs.get(), std::move(headers), false, options);
    if (!admit(c, req, *hs, *r, id, reply)) return;
    {
      route_guard guard{*hs, id, reply};
      hs->served->handle(m, principal);
    }
    return reply.finish();
  }
  auto reply = std::make_shared<post_reply>(c, keep, hs.get(), std::move(headers), false, options);
  if (!admit(c, req, *hs, *r, id, *reply)) return;
  const jsonrpc::message_id rid = r->id;
  bool queued = pool.post(
      [hs, reply, id, msg = std::move(m), principal] {
        {
          route_guard guard{*hs, id, *reply};
          hs->served->handle(msg, principal);
        }
        reply->finish();
      },
      options.max_pending_requests);
  if (queued) return;
  hs->done(id, *reply);
  refuse_busy(c, keep, rid);
}

bool http_server::impl::post_fast(const conn_ptr& c, http_request& req, const mcp_headers& h,
                                  const std::string& name, const std::string& principal) {
  post_connection conn(c, req.keep_alive(), options);
  struct writer final : detail::fast_reply {
    post_connection& conn;
    bool answered = false;  ///< with text: the reply is over
    explicit writer(post_connection& pc) : conn(pc) {}
    void related(const json& m) override { conn.write({.message = m}); }
    bool text(std::string r) override { return answered = conn.respond_text(std::move(r)); }
    void message(const json& m) override { conn.write({.message = m}); }
  } w(conn);
  const bool taken = detail::fast_tools_call(srv, *stateless_root->state(), req.body(), req.body().capacity(),
                                             h.protocol_version, name, w, principal);
  if (taken && !w.answered) conn.close();  // the end of a stream, or 202 for no answer
  return taken;
}

void http_server::impl::post_stateless(const conn_ptr& c, http_request& req, const mcp_headers& h,
                                       jsonrpc::message m, const std::string& principal) {
  const auto& r = std::get<jsonrpc::request>(m);
  std::string_view hv = h.protocol_version;
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
  wire::request_meta checked;  // decoded once: the server does not decode it again
  if (auto rej = srv.stateless_check(r, &checked))
    return write_response(c, req, http::status::bad_request, jsonrpc::serialize(rej->response));
  if (h.method != r.method)
    return write_rpc_error(c, req, http::status::bad_request, r.id, ec::header_mismatch,
                           "Header mismatch: Mcp-Method header does not match the body method");
  if (std::string field(routing_name_field(r.method)); !field.empty()) {
    auto raw = h.name;
    auto name = decode_header_value(raw);
    std::string body = r.params.is_object() ? r.params.value(field, "") : "";
    if (raw.empty() || !name || *name != body)
      return write_rpc_error(c, req, http::status::bad_request, r.id, ec::header_mismatch,
                             "Header mismatch: Mcp-Name header does not match params." + field);
  }
  if (r.method == "subscriptions/listen") return listen(c, req, r);
  const bool keep = req.keep_alive();
  if (srv.runs_inline(r)) {
    // The fast path: a one-message connection on the stack, its reply written directly.
    post_connection conn(c, keep, options);
    stateless_root->handle(m, conn, checked, principal);
    conn.close();
    release_json(std::get<jsonrpc::request>(m).params);  // json_build.hpp: cheaper than its destructor
    return;
  }
  auto conn = std::make_shared<post_connection>(c, keep, options);
  auto kept = std::make_shared<wire::request_meta>(std::move(checked));
  const jsonrpc::message_id rid = r.id;
  bool queued = pool.post(
      [this, conn, kept, msg = std::move(m), principal] {
        stateless_root->handle(msg, *conn, *kept, principal);
        conn->close();
      },
      options.max_pending_requests);
  if (!queued) refuse_busy(c, keep, rid);
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

std::shared_ptr<detail::http_session> http_server::impl::request_session(const conn_ptr& c,
                                                                      http_request& req) {
  if (!srv.options().sessions) {
    write_response(c, req, http::status::method_not_allowed, "", "", {{"Allow", "POST"}});
    return nullptr;
  }
  std::string sid(req["Mcp-Session-Id"]);
  if (sid.empty()) {
    write_rpc_error(c, req, http::status::bad_request, std::nullopt, -32000,
                    "Bad Request: Mcp-Session-Id header is required");
    return nullptr;
  }
  auto hs = find_session(sid);
  if (!hs) write_rpc_error(c, req, http::status::not_found, std::nullopt, -32001, "Session not found");
  return hs;
}

void http_server::impl::get(const conn_ptr& c, http_request& req) {
  auto hs = request_session(c, req);
  if (!hs) return;
  if (!accepts(req[http::field::accept], "text/event-stream"))
    return write_response(c, req, http::status::not_acceptable, "", "");
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
      if (it != hs->streams.end()) {
        stream = it->second;
        after = std::strtoull(last.c_str() + us + 1, nullptr, 10);
      } else if (!options.session_store) {
        return write_rpc_error(c, req, http::status::not_found, std::nullopt, -32000, "Unknown Last-Event-ID");
      }
      // With a session store the stream may have been on a replica that died: a new one here
      // (the events in between are lost; docs/deploy.md).
    }
    if (!stream) {
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
  stream->attach(writer, after);
  // Prime once a writer is attached: the priming event is not kept for replay, so one sent
  // before attach() was written nowhere and the client never got it.
  if (standalone) stream->prime(options.sse_retry);
  if (ended) return c->end_stream();
  c->keep_alive_comments(std::chrono::duration_cast<std::chrono::milliseconds>(options.keepalive));
}

void http_server::impl::del(const conn_ptr& c, http_request& req) {
  auto hs = request_session(c, req);
  if (!hs) return;
  std::string sid(req["Mcp-Session-Id"]);
  if (options.session_store)
    if (auto gone = options.session_store->erase(sid); !gone)
      return write_rpc_error(c, req, http::status::service_unavailable, std::nullopt, -32000,
                             "Service Unavailable: cannot delete the session from the session store (" +
                                 gone.error().message + "); retry the DELETE");
  close_session(hs);
  if (options.session_store) announce_change(sid);
  return write_response(c, req, http::status::ok, "", "");
}

}  // namespace tooluse::mcp
