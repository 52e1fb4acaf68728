// HTTP sessions and stateless POSTs as connections (http_session_conn.hpp), and the reply of
// one POST (JSON or an SSE stream).
#include "mcp/http_session_conn.hpp"

#include "mcp/server_impl.hpp"

namespace tooluse::mcp::detail {

namespace ec = jsonrpc::error_code;

namespace {

// is_response tells a response (the last message of a request) from a request or notification.
bool is_response(const json& m) { return m.is_object() && !m.contains("method"); }

}  // namespace

// --- post_reply -------------------------------------------------------------------------------

void post_reply::emit(const json& message, bool last) {
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

bool post_reply::respond_text(std::string body) {
  std::lock_guard lock(mu_);
  if (stream_ && !done_) return false;
  if (!done_) c_->respond(http::status::ok, std::move(body), "application/json", headers_, keep_alive_);
  done_ = true;
  return true;
}

void post_reply::finish() {
  std::lock_guard lock(mu_);
  if (!done_ && stream_) finish_locked();
  if (!done_) {
    c_->respond(http::status::accepted, "", "", headers_, keep_alive_);
    done_ = true;
  }
}

http::status post_reply::status_for(const json& m) const {
  if (!stateless_ || !m.contains("error")) return http::status::ok;
  int code = m["error"].value("code", 0);
  if (code == ec::method_not_found) return http::status::not_found;
  if (code == ec::header_mismatch || code == ec::missing_client_capability || code == ec::unsupported_protocol_version)
    return http::status::bad_request;
  return http::status::ok;
}

void post_reply::start() {
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

void post_reply::finish_locked() {
  stream_->end();
  c_->end_stream();
  done_ = true;
  if (hs_) {
    std::lock_guard lock(hs_->mu);
    --hs_->open_streams;
  }
}

// --- http_session -----------------------------------------------------------------------------

http_session::http_session(std::string session_id) : id(std::move(session_id)) {}

http_session::~http_session() {
  if (served) served->close();
}

http_session::admit_result http_session::admit(const json& request_id, post_reply& reply,
                                               const http_options& options, std::string_view persist) {
  std::lock_guard lock(mu);
  if (open_streams >= options.max_streams_per_session) return admit_result::too_many_streams;
  if (pending >= options.max_pending_per_session) return admit_result::too_many_pending;
  for (const auto& r : routes_)
    if (r.id == request_id) return admit_result::duplicate_id;
  routes_.push_back({request_id, &reply, std::string(persist)});
  ++pending;
  return admit_result::ok;
}

void http_session::done(const json& request_id, const post_reply& reply) {
  std::lock_guard lock(mu);
  for (auto it = routes_.begin(); it != routes_.end(); ++it)
    if (it->reply == &reply && it->id == request_id) {
      routes_.erase(it);
      --pending;
      return;
    }
}

result<connection_info> http_session::start(connection_handlers h) {
  std::lock_guard lock(mu);
  handlers_ = std::move(h);
  return {};
}

status http_session::to_stream(const json& message) {
  std::shared_ptr<sse_stream> stream;
  {
    std::lock_guard lock(mu);
    if (closed) return fail(errc::cancelled, "mcp " + describe() + " is closed");
    stream = standalone;
  }
  if (stream) stream->send(message);  // kept for replay while no GET stream is attached
  return {};
}

status http_session::write(const outgoing& out) {
  if (!out.request) {
    if (publish) {
      publish(out.message);
      return {};
    }
    return to_stream(out.message);
  }
  const json& message = out.message;
  const json& request_id = *out.request;
  const bool last = is_response(message);
  post_reply* reply = nullptr;
  std::string persist;
  {
    std::lock_guard lock(mu);
    for (auto it = routes_.begin(); it != routes_.end(); ++it)
      if (it->id == request_id) {
        reply = it->reply;
        if (last && on_persist && message.contains("result")) persist = it->persist;
        // The request stops counting as pending before its response is written: a client that
        // has read the response may send the next request at once, and must not be refused.
        if (last) {
          routes_.erase(it);
          --pending;
        }
        break;
      }
  }
  if (!reply) return to_stream(message);
  if (!persist.empty()) on_persist(persist, message.at("result"));
  // Safe outside the lock: the reply lives until the thread handling the request, which is
  // the one sending, has returned from server_session::handle().
  reply->emit(message, last);
  return {};
}

void http_session::close() {
  std::vector<std::shared_ptr<sse_stream>> ended;
  {
    std::lock_guard lock(mu);
    if (closed) return;
    closed = true;
    for (auto& [sid, st] : streams) ended.push_back(st);
  }
  if (served) served->close();
  for (auto& st : ended) st->end();
}

// --- post_connection --------------------------------------------------------------------------

status post_connection::write(const outgoing& out) {
  reply_.emit(out.message, is_response(out.message));
  return {};
}

}  // namespace tooluse::mcp::detail
