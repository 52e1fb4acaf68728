// Streamable HTTP client transport: one thread per request POST (so the client can time out
// and cancel while a response streams), SSE resumption with GET + Last-Event-ID, sessions,
// the standalone GET stream of the 2025 revisions, and DELETE on close.

#include "tooluse/mcp/http_client_transport.hpp"

#include <algorithm>
#include <condition_variable>
#include <list>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "http_client_replies.hpp"
#include "session_lost.hpp"
#include "tooluse/http/sse.hpp"
#include "tooluse/mcp/protocol.hpp"
#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp {

std::string encode_header_value(std::string_view value);  // client_headers.cpp

namespace {

// stream is what one response stream (and its resumptions) has seen.
struct stream {
  explicit stream(std::size_t max_event_bytes) : parser({.max_event_bytes = max_event_bytes}) {}
  http::sse_parser parser;
  std::optional<error> failure;  // a limit this side enforced: the stream is not resumed
  json want_id;  // null for the standalone GET stream
  bool got_response = false;
  bool got_event = false;
};

class http_transport final : public client_transport {
 public:
  explicit http_transport(http_client_options o) : opts_(std::move(o)) {
    if (!opts_.url.starts_with("http://") && !opts_.url.starts_with("https://"))
      throw std::invalid_argument("mcp http transport: \"" + opts_.url +
                                  "\" is not an http:// or https:// URL");
    send_ = opts_.sender ? opts_.sender : http::default_transport();
  }
  ~http_transport() override { close(); }

  result<connection_info> start(transport_handlers h) override {
    h_ = std::move(h);
    return connection_info{.carries_headers = true};
  }
  status write(const outgoing& out) override;
  void close() override;
  std::string describe() const override { return opts_.url; }

 private:
  // make_request builds one request to the endpoint; `version` is its MCP-Protocol-Version
  // (none when empty).
  http::request make_request(std::string method, const json* body, const header_list& extra,
                             std::string_view version);
  // post_cancellation posts a notifications/cancelled from a thread of its own; `gives_up`,
  // when not null, is the request it cancels, whose response stream is closed.
  status post_cancellation(http::request req, const json* gives_up, std::string_view version);
  // speak records the revision of the latest write (for our GET and DELETE) and opens the
  // session's GET stream at the first write under a handshake revision with a session
  // (`opened_get`); false once closed.
  bool speak(std::string_view version, bool& opened_get);
  // post sends one message (a request's response arrives on a thread of its own).
  status post(const outgoing& out);
  // The GET stream was answered (or its attempt ended): the write that opened it may return.
  void get_answered() {
    {
      std::lock_guard lock(mu_);
      get_answered_ = true;
    }
    cv_.notify_all();
  }
  std::string version() {
    std::lock_guard lock(mu_);
    return version_;
  }
  void run_post(http::request req, json id, bool had_session, std::stop_token stop);
  void resume(stream& s, std::stop_token stop, bool had_session);
  http::send_options stream_options(stream& s, int& status, std::string& body, bool& sse,
                                    std::stop_token stop,
                                    std::vector<http::header>* headers = nullptr);
  void add_auth_headers(http::request& req);
  // challenged: a 401/403 the authorizer wants retried (true), or an error for it.
  result<bool> challenged(int status, const std::vector<http::header>& response,
                          const http::request& req);
  // stream_get is how a GET of a stream went (answered: sent and read).
  struct stream_get {
    bool answered = false, sse = false;
    int status = 0;
    std::string body;
  };
  // get_stream GETs `s` again, after its last event when it has one (Last-Event-ID).
  stream_get get_stream(stream& s, std::stop_token stop);
  void run_get_stream(std::stop_token stop);
  void deliver(const std::string& data, stream& s);
  void fail_request(const json& id, error e) {
    if (h_.on_send_failed) h_.on_send_failed(id, std::move(e));
  }
  error network_error(const error& e, std::string_view what) const {
    if (e.code == errc::limit_exceeded)
      return error{e.code, opts_.url + ": " + detail::http_option_names(e.message)};
    if (e.code == errc::timeout)
      return error{e.code, opts_.url + ": " + std::string(what) +
                               " failed: " + detail::http_option_names(e.message)};
    return error{e.code, opts_.url + ": " + std::string(what) + " failed: " + e.message +
                             "; check that the MCP server is running and the URL is right"};
  }
  // session_lost: the server answered 404 for our session. `after_accepted` when the request
  // had been accepted before (its response stream was being resumed), so repeating it may
  // repeat its effect (session_lost.hpp).
  error session_lost(bool after_accepted = false) {
    std::lock_guard lock(mu_);
    session_.clear();
    return detail::session_lost_error(opts_.url, after_accepted);
  }
  bool sleep_for(std::chrono::milliseconds d, std::stop_token stop) {
    std::unique_lock lock(mu_);
    return !cv_.wait_for(lock, stop, d, [this] { return closed_; }) && !stop.stop_requested();
  }
  void spawn(std::function<void(std::stop_token)> fn, std::stop_source source);

  http_client_options opts_;
  http::transport send_;
  transport_handlers h_;
  std::mutex mu_;
  std::condition_variable_any cv_;
  std::string session_;
  std::string version_;
  std::map<std::string, std::stop_source> inflight_;
  std::list<std::pair<std::jthread, std::shared_ptr<std::atomic<bool>>>> threads_;
  std::stop_source get_stop_;
  std::stop_source notify_stop_;  ///< stops cancellations in flight at close()
  bool get_started_ = false;
  bool get_answered_ = false;
  bool closed_ = false;
};

http::request http_transport::make_request(std::string method, const json* body,
                                           const header_list& extra, std::string_view version) {
  http::request req{.method = std::move(method), .url = opts_.url};
  req.connect_timeout = opts_.connect_timeout;
  req.read_timeout = opts_.idle_timeout;
  req.total_timeout = opts_.max_stream_duration;
  req.max_response_bytes = 0;  // SSE streams may carry many messages: bounded per message
  req.max_header_bytes = std::min<std::size_t>(req.max_header_bytes, opts_.max_message_bytes);
  {
    std::lock_guard lock(mu_);
    if (!session_.empty()) req.headers.push_back({"Mcp-Session-Id", session_});
  }
  if (!version.empty()) req.headers.push_back({"MCP-Protocol-Version", std::string(version)});
  if (body) {
    req.headers.push_back({"Content-Type", "application/json"});
    req.headers.push_back({"Accept", "application/json, text/event-stream"});
    req.body = body->dump();
    if (is_stateless_version(version) && body->contains("method")) {
      std::string m = (*body)["method"].get<std::string>();
      req.headers.push_back({"Mcp-Method", m});
      const json p = body->value("params", json::object());
      const std::string field(routing_name_field(m));
      if (!field.empty() && p.is_object() && p.contains(field) && p[field].is_string())
        req.headers.push_back({"Mcp-Name", encode_header_value(p[field].get<std::string>())});
    }
  } else {
    req.headers.push_back({"Accept", "text/event-stream"});
  }
  if (!opts_.bearer_token.empty())
    req.headers.push_back({"Authorization", "Bearer " + opts_.bearer_token});
  for (const auto& [k, v] : opts_.headers) req.headers.push_back({k, v});
  for (const auto& [k, v] : extra) req.headers.push_back({k, v});
  add_auth_headers(req);
  return req;
}

void http_transport::add_auth_headers(http::request& req) {
  if (!opts_.authorizer) return;
  std::erase_if(req.headers, [](const http::header& h) {
    std::string n = h.name;
    for (auto& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return n == "authorization" || n == "dpop";
  });
  auto hs = opts_.authorizer->headers_for(req.method, req.url);
  if (hs)
    for (auto& h : *hs) req.headers.push_back(std::move(h));
}

result<bool> http_transport::challenged(int status, const std::vector<http::header>& response,
                                        const http::request& req) {
  if (!opts_.authorizer) return false;
  if (status != 401 && status != 403) {
    opts_.authorizer->on_response(response);
    return false;
  }
  auto again = opts_.authorizer->on_challenge(status, response, req.headers, req.method, req.url);
  if (!again)
    return fail(again.error().code, opts_.url + ": authorization failed: " + again.error().message);
  return *again;
}

bool http_transport::speak(std::string_view version, bool& opened_get) {
  bool start_get = false;
  {
    std::lock_guard lock(mu_);
    if (closed_) return false;
    version_ = std::string(version);
    start_get = is_session_version(version) && opts_.open_get_stream && !session_.empty() &&
                !get_started_;
    get_started_ |= start_get;
  }
  if (start_get) spawn([this](std::stop_token st) { run_get_stream(st); }, get_stop_);
  opened_get = start_get;
  return true;
}

status http_transport::post_cancellation(http::request req, const json* gives_up,
                                         std::string_view version) {
  // The caller has given up on the request already: its cancellation must not hold it behind a
  // peer that trickles or never answers. It is sent from its own thread, which close() stops.
  // Under 2026-07-28 closing the request's response stream is the cancellation: nothing is posted.
  if (!gives_up || !is_stateless_version(version)) {
    req.total_timeout = std::chrono::seconds(30);
    spawn(
        [this, req = std::move(req)](std::stop_token st) {
          http::send_options so;
          so.stop = st;
          (void)send_(req, so);  // best effort: a lost cancellation only costs the peer work
        },
        notify_stop_);
  }
  if (gives_up) {
    std::lock_guard lock(mu_);
    auto it = inflight_.find(gives_up->dump());
    if (it != inflight_.end()) it->second.request_stop();
  }
  return {};
}

status http_transport::write(const outgoing& out) {
  bool opened_get = false;
  if (!speak(out.protocol_version, opened_get))
    return fail(errc::cancelled, opts_.url + ": the connection is closed");
  status st = post(out);
  if (opened_get && opts_.get_stream_wait.count() > 0) {
    // A server's request sent on the GET stream before it is open is lost (the suite's
    // elicitation scenarios send theirs right after the handshake): wait for its answer.
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, opts_.get_stream_wait, [this] { return get_answered_ || closed_; });
  }
  return st;
}

status http_transport::post(const outgoing& out) {
  static const header_list no_headers;
  const json& m = out.message;
  const header_list& extra = out.headers ? *out.headers : no_headers;
  auto req = make_request("POST", &m, extra, out.protocol_version);
  bool had_session = false;
  for (const auto& h : req.headers) had_session |= h.name == "Mcp-Session-Id";
  const bool is_request = m.contains("method") && m.contains("id") && !m["id"].is_null();
  if (is_request) {
    std::stop_source source;
    json id = m["id"];
    {
      std::lock_guard lock(mu_);
      inflight_[id.dump()] = source;
    }
    spawn(
        [this, req = std::move(req), id, had_session](std::stop_token st) mutable {
          run_post(std::move(req), id, had_session, st);
          std::lock_guard lock(mu_);
          inflight_.erase(id.dump());
        },
        source);
    return {};
  }
  if (m.is_object() && m.value("method", "") == "notifications/cancelled")
    return post_cancellation(std::move(req), out.request, out.protocol_version);
  req.total_timeout = std::chrono::seconds(30);
  auto r = send_(req, {});
  for (int attempt = 0; r && attempt < 3; ++attempt) {
    auto again = challenged(r->status, r->headers, req);
    if (!again) return fail(again.error());
    if (!*again) break;
    add_auth_headers(req);
    r = send_(req, {});
  }
  if (!r) return fail(network_error(r.error(), "POST"));
  if (r->status == 404 && had_session) return fail(session_lost());
  if (r->status >= 400)
    return fail(errc::http_error, opts_.url + ": POST of " + m.value("method", "a response") +
                                      " got HTTP " + std::to_string(r->status) + ": " +
                                      r->body.substr(0, 300));
  return {};
}

void http_transport::deliver(const std::string& data, stream& s) {
  auto parsed = parse_json(data);
  if (!parsed) return;  // a malformed event is not a message; ignore it
  s.got_event = true;
  std::vector<json> messages;
  if (parsed->is_array())
    for (auto& m : *parsed) messages.push_back(std::move(m));
  else
    messages.push_back(std::move(*parsed));
  for (auto& m : messages) {
    if (!detail::is_jsonrpc_message(m)) continue;  // not for the client; a failure says what it was
    if (!s.want_id.is_null() && detail::is_response_to(m, s.want_id)) s.got_response = true;
    if (h_.on_message) h_.on_message(std::move(m));
  }
}

http::send_options http_transport::stream_options(stream& s, int& status, std::string& body,
                                                  bool& sse, std::stop_token stop,
                                                  std::vector<http::header>* headers) {
  http::send_options so;
  so.stop = stop;
  so.on_headers = [this, &s, &status, &sse, headers](int st, const std::vector<http::header>& hs) {
    status = st;
    if (s.want_id.is_null()) get_answered();  // the session's GET stream
    if (headers) *headers = hs;
    auto ct = http::find_header(hs, "content-type").value_or("");
    sse = st / 100 == 2 && ct.starts_with("text/event-stream");
    auto sid = http::find_header(hs, "mcp-session-id");
    if (sid && st / 100 == 2) {
      std::lock_guard lock(mu_);
      session_ = *sid;
    }
  };
  so.on_body = [this, &s, &body, &sse](std::string_view chunk) {
    if (sse) {
      auto st = s.parser.feed(chunk, [&](const http::sse_event& e) {
        if (!e.data.empty()) deliver(e.data, s);
      });
      if (!st)
        s.failure = error{errc::limit_exceeded,
                          opts_.url + ": " + detail::http_option_names(st.error().message)};
      return st.has_value();
    }
    body.append(chunk);
    if (body.size() <= opts_.max_message_bytes) return true;
    s.failure = limit_error(opts_.url + ": a JSON response body",
                            "mcp::http_client_options::max_message_bytes", opts_.max_message_bytes,
                            "bytes");
    body.clear();
    body.shrink_to_fit();
    return false;
  };
  return so;
}

void http_transport::run_post(http::request req, json id, bool had_session, std::stop_token stop) {
  stream s(opts_.max_message_bytes);
  s.want_id = id;
  int status = 0;
  std::string body;
  bool sse = false;
  std::vector<http::header> headers;
  auto r = send_(req, stream_options(s, status, body, sse, stop, &headers));
  for (int attempt = 0; r && !stop.stop_requested() && attempt < 3; ++attempt) {
    auto again = challenged(status, headers, req);
    if (!again) return fail_request(id, again.error());
    if (!*again) break;
    add_auth_headers(req);
    status = 0;
    body.clear();
    sse = false;
    r = send_(req, stream_options(s, status, body, sse, stop, &headers));
  }
  if (stop.stop_requested()) return;  // abandoned by the client, or closing
  if (s.failure) return fail_request(id, *s.failure);
  // A response stream that broke after it began is resumed like one that ended early.
  if (!r && !(sse && !s.parser.last_event_id().empty()))
    return fail_request(id, network_error(r.error(), "POST"));
  if (status == 404 && had_session) return fail_request(id, session_lost());
  if (!sse) {
    auto parsed = parse_json(body);
    if (parsed && (parsed->is_object() || parsed->is_array())) deliver(body, s);
    if (s.got_response) return;
    std::string method = req.body.size() < 200 ? req.body : req.body.substr(0, 200) + "...";
    return fail_request(
        id, error{status >= 400 ? errc::http_error : errc::protocol_error,
                  opts_.url + ": HTTP " + std::to_string(status) +
                      " without a JSON-RPC response to our request: " + detail::unanswered(body)});
  }
  s.parser.finish();
  if (!s.got_response) resume(s, stop, had_session);
}

http_transport::stream_get http_transport::get_stream(stream& s, std::stop_token stop) {
  auto req = make_request("GET", nullptr, {}, version());
  if (!s.parser.last_event_id().empty())
    req.headers.push_back({"Last-Event-ID", s.parser.last_event_id()});
  stream_get g;
  s.got_event = false;
  g.answered = static_cast<bool>(send_(req, stream_options(s, g.status, g.body, g.sse, stop)));
  return g;
}

void http_transport::resume(stream& s, std::stop_token stop, bool had_session) {
  int attempts = 0;
  while (!s.got_response && !stop.stop_requested()) {
    if (s.parser.last_event_id().empty())
      return fail_request(
          s.want_id,
          error{errc::protocol_error, opts_.url + ": the response stream ended before the "
                                                  "response and carried no event id to resume"});
    if (++attempts > opts_.max_reconnects)
      return fail_request(s.want_id,
                          error{errc::network_error, opts_.url + ": the response stream broke " +
                                                         std::to_string(opts_.max_reconnects) +
                                                         " times in a row; check the server"});
    auto delay = std::chrono::milliseconds(s.parser.retry().value_or(opts_.default_retry.count()));
    if (!sleep_for(delay, stop)) return;
    auto g = get_stream(s, stop);
    if (stop.stop_requested()) return;
    if (s.failure) return fail_request(s.want_id, *s.failure);
    if (g.answered && g.status == 404 && had_session)
      return fail_request(s.want_id, session_lost(true));
    if (g.answered && !g.sse && g.status >= 400)
      return fail_request(
          s.want_id,
          error{errc::http_error, opts_.url + ": resuming the stream got HTTP " +
                                      std::to_string(g.status) + ": " + g.body.substr(0, 300)});
    s.parser.finish();
    if (s.got_event) attempts = 0;
  }
}

void http_transport::run_get_stream(std::stop_token stop) {
  stream s(opts_.max_message_bytes);
  int failures = 0;
  while (!stop.stop_requested() && failures <= opts_.max_reconnects) {
    auto g = get_stream(s, stop);
    get_answered();  // when refused, or the connection failed: none to wait for
    if (stop.stop_requested()) return;
    if (g.answered && !g.sse) return;  // 405 (no GET stream offered) or another refusal: do without
    if (s.failure) {
      // An oversized event: skip it by reconnecting after the last complete event.
      s.failure.reset();
      s.parser.reset_failure();
    }
    s.parser.finish();
    failures = s.got_event || g.answered ? 0 : failures + 1;
    auto delay = std::chrono::milliseconds(s.parser.retry().value_or(opts_.default_retry.count()));
    if (!sleep_for(delay, stop)) return;
  }
}

void http_transport::spawn(std::function<void(std::stop_token)> fn, std::stop_source source) {
  auto done = std::make_shared<std::atomic<bool>>(false);
  std::lock_guard lock(mu_);
  for (auto it = threads_.begin(); it != threads_.end();) {
    if (*it->second) {
      it->first.join();
      it = threads_.erase(it);
    } else {
      ++it;
    }
  }
  threads_.emplace_back(std::jthread([fn = std::move(fn), token = source.get_token(), done] {
                          fn(token);
                          *done = true;
                        }),
                        done);
}

void http_transport::close() {
  std::list<std::pair<std::jthread, std::shared_ptr<std::atomic<bool>>>> threads;
  std::string session, version;
  {
    std::lock_guard lock(mu_);
    if (closed_) return;
    closed_ = true;
    for (auto& [k, s] : inflight_) s.request_stop();
    get_stop_.request_stop();
    notify_stop_.request_stop();
    threads.swap(threads_);
    session = session_;
    version = version_;
  }
  cv_.notify_all();
  for (auto& [t, d] : threads) t.join();
  if (session.empty()) return;
  auto req = make_request("DELETE", nullptr, {}, version);
  req.total_timeout = std::chrono::seconds(5);
  (void)send_(req, {});  // best effort: the server may have gone already
}

}  // namespace

std::unique_ptr<client_transport> make_http_client_transport(http_client_options options) {
  return std::make_unique<http_transport>(std::move(options));
}

}  // namespace tooluse::mcp
