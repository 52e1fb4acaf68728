// request_context and server::handle_message: per-request plumbing shared by every transport.
#include <condition_variable>

#include "mcp/server_impl.hpp"
#include "tooluse/json_build.hpp"
#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp {

namespace ec = jsonrpc::error_code;

request_context::request_context(std::shared_ptr<session> s, const jsonrpc::request& req,
                                 std::function<void(const json&)> emit, std::stop_token stop)
    : session_(std::move(s)), emit_(std::move(emit)), stop_(std::move(stop)) {
  // The request outlives the context (valid only during the handler call): no copies.
  context_access::rebind(*this, req.params);
  id_ = jsonrpc::id_to_json(req.id);
}

void context_access::rebind(request_context& c, const json& params) {
  static const json empty = json::object();
  c.params_ = params.is_object() ? &params : &empty;
  auto it = c.params_->find("_meta");
  c.meta_ = it != c.params_->end() && it->is_object() ? &*it : &empty;
  c.deferred_ = nullptr;
}

const json* context_access::meta_member(const request_context& c, std::string_view key) {
  if (c.deferred_) return c.deferred_->meta_member(key);
  auto it = c.meta_->find(key);
  return it == c.meta_->end() ? nullptr : &*it;
}

const json& request_context::no_input_responses() {
  static const json empty = json::object();
  return empty;
}

const json& request_context::deferred_params() const { return deferred_->params(); }
const json& request_context::deferred_meta() const { return deferred_->meta(); }

const std::string& request_context::protocol_version() const { return session_->protocol_version; }
bool request_context::stateless() const { return session_->stateless; }
const json& request_context::client_capabilities() const { return session_->client_capabilities; }

bool request_context::has_client_capability(std::string_view name) const {
  const json& caps = session_->client_capabilities;
  auto it = caps.find(name);
  return it != caps.end() && !it->is_null() && *it != false;
}

const json* request_context::input_response(std::string_view key) const {
  auto it = input_responses_.find(key);
  return it == input_responses_.end() ? nullptr : &*it;
}

void request_context::progress(double progress, std::optional<double> total, std::string message) {
  const json* token = context_access::meta_member(*this, "progressToken");
  if (!token || !(token->is_string() || token->is_number_integer()) || !emit_) return;
  wire::progress_params p{.progress_token = *token, .progress = progress, .total = total};
  if (!message.empty()) p.message = std::move(message);
  emit_(json{{"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", encode(p)}});
}

void request_context::log(log_level level, json data, std::string logger) {
  if (!emit_ || !session_->allows(level)) return;
  wire::log_message_params p{.level = std::string(to_string(level)), .data = std::move(data)};
  if (!logger.empty()) p.logger = std::move(logger);
  emit_(json{{"jsonrpc", "2.0"}, {"method", "notifications/message"}, {"params", encode(p)}});
}

result<json> request_context::request_client(std::string method, json params,
                                             std::chrono::milliseconds timeout) {
  if (session_->stateless)
    return fail(errc::unsupported, "server-to-client requests are not part of protocol 2026-07-28; "
                                   "return input_required instead");
  auto pending = std::make_shared<pending_reply>();
  std::int64_t id = 0;
  {
    std::lock_guard lock(session_->mu);
    if (session_->closed) return fail(errc::cancelled, "the session is closed");
    id = ++session_->next_request_id;
    session_->pending[jsonrpc::id_to_string(jsonrpc::message_id(id))] = pending;
  }
  json req = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) req["params"] = std::move(params);
  emit_(req);
  // The callback takes pending->mu, so it is registered before the lock is held: a stop
  // requested already runs it here at once (with the lock held, that deadlocked), and its
  // destructor, which waits for a callback running on another thread, runs after the unlock.
  std::stop_callback wake(stop_, [&] {
    std::lock_guard l(pending->mu);
    pending->cv.notify_all();
  });
  std::unique_lock lock(pending->mu);
  bool done = pending->cv.wait_for(lock, timeout, [&] { return pending->done || stop_.stop_requested(); });
  if (!pending->done) {
    // Not the session's lock under the reply's: a notifications/cancelled takes the session's,
    // then (stopping this request) the reply's, and the two orders could deadlock.
    lock.unlock();
    {
      std::lock_guard l(session_->mu);
      session_->pending.erase(jsonrpc::id_to_string(jsonrpc::message_id(id)));
    }
    emit_(json{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"},
               {"params", {{"requestId", id}, {"reason", done ? "cancelled" : "timeout"}}}});
    if (stop_.stop_requested()) return fail(errc::cancelled, method + ": the request was cancelled");
    return fail(errc::timeout, method + ": the client did not answer in time");
  }
  return pending->value;
}

bool server::is_stateless_request(const jsonrpc::request& r) {
  if (!r.params.is_object()) return false;
  auto it = r.params.find("_meta");
  return it != r.params.end() && it->is_object() && it->contains(meta_protocol_version);
}

namespace {

// read_meta reads params._meta as decode<wire::with_meta> does, in one pass over its members
// (the general decoder looks each field up, then goes over the members again for `other`).
// False when a member is not what its field takes: the general decoder then reads it, for its
// error. tests/unit/mcp/request_meta_test.cpp checks the two agree.
bool read_meta(const json& params, std::optional<wire::request_meta>& out) {
  out.reset();
  if (!params.is_object()) return true;
  auto it = params.find(std::string_view("_meta"));
  if (it == params.end() || it->is_null()) return true;
  if (!it->is_object()) return false;
  wire::request_meta& m = out.emplace();
  m.other = json::object();
  for (const auto& member : it->get_ref<const json::object_t&>()) {
    // Not a structured binding: clang 14 cannot capture one in the lambdas below.
    const std::string& key = member.first;
    const json& v = member.second;
    auto text = [&v](std::optional<std::string>& f) {
      if (v.is_string()) f = v.get_ref<const std::string&>();
      else if (v.is_null()) f.reset();
      else return false;
      return true;
    };
    auto any = [&v](std::optional<json>& f) {
      if (v.is_null()) f.reset();
      else f = v;
    };
    const std::string_view k = key;
    if (k == "progressToken") any(m.progress_token);
    else if (k == "traceparent") { if (!text(m.traceparent)) return false; }
    else if (k == meta_protocol_version) { if (!text(m.protocol_version)) return false; }
    else if (k == "io.modelcontextprotocol/clientInfo") any(m.client_info);
    else if (k == "io.modelcontextprotocol/clientCapabilities") any(m.client_capabilities);
    else if (k == "io.modelcontextprotocol/logLevel") { if (!text(m.log_level)) return false; }
    else m.other[key] = v;
  }
  return true;
}

// stateless_meta reads a 2026-07-28 request's `_meta`: it must carry the protocol version and
// the client capabilities (an object).
result<wire::request_meta> stateless_meta(const jsonrpc::request& r) {
  std::optional<wire::request_meta> meta;
  if (!read_meta(r.params, meta)) {
    static const json none = json::object();
    // A reference either way: `cond ? r.params : json::object()` would copy the params.
    auto p = decode<wire::with_meta>(r.params.is_object() ? r.params : none, "params");
    if (!p) return fail(std::move(p.error()));
    meta = std::move(p->meta);
  }
  if (!meta || !meta->protocol_version || !meta->client_capabilities || !meta->client_capabilities->is_object())
    return fail(errc::invalid_argument,
                "_meta must carry io.modelcontextprotocol/protocolVersion and "
                "io.modelcontextprotocol/clientCapabilities");
  return std::move(*meta);
}
}  // namespace

std::optional<server::rejection> server::stateless_check(const jsonrpc::request& r,
                                                         wire::request_meta* meta_out) const {
  auto meta = stateless_meta(r);
  if (!meta)
    return rejection{jsonrpc::response::failure(r.id, ec::invalid_params,
                                                "Invalid params: " + meta.error().message)};
  const std::string& v = *meta->protocol_version;
  if (!is_stateless_version(v) || !impl_->options.stateless) {
    json supported = json::array();
    if (impl_->options.stateless) supported.push_back(std::string(version_2026_07_28));
    if (impl_->options.sessions)
      for (auto sv : session_versions) supported.push_back(std::string(sv));
    return rejection{jsonrpc::response::failure(r.id, ec::unsupported_protocol_version,
                                                "Unsupported protocol version",
                                                json{{"supported", supported}, {"requested", v}})};
  }
  if (meta_out) *meta_out = std::move(*meta);
  return std::nullopt;
}

std::shared_ptr<session> pseudo_session(wire::request_meta meta) {
  auto s = std::make_shared<session>(session::per_request_t{});
  s->protocol_version = std::move(*meta.protocol_version);
  s->client_capabilities = std::move(*meta.client_capabilities);
  if (meta.client_info) s->client_info = std::move(*meta.client_info);
  if (meta.log_level) s->level = parse_log_level(*meta.log_level);
  return s;
}

namespace {

void route_response(const std::shared_ptr<session>& s, const jsonrpc::response& resp) {
  if (!resp.id) return;
  std::shared_ptr<pending_reply> p;
  {
    std::lock_guard lock(s->mu);
    auto it = s->pending.find(jsonrpc::id_to_string(*resp.id));
    if (it == s->pending.end()) return;
    p = it->second;
    s->pending.erase(it);
  }
  std::lock_guard lock(p->mu);
  p->done = true;
  if (resp.error)
    p->value = fail(errc::protocol_error, resp.error->message, resp.error->code);
  else
    p->value = resp.result;
  p->cv.notify_all();
}

void handle_notification(const std::shared_ptr<session>& s, const jsonrpc::notification& n) {
  if (n.method != "notifications/cancelled") return;
  auto p = decode<wire::cancelled_params>(n.params, "params");
  if (!p || !p->request_id) return;  // a notification gets no answer, not even an error
  auto id = jsonrpc::id_from_json(*p->request_id);
  if (!id) return;
  std::lock_guard lock(s->mu);
  auto it = s->running.find(jsonrpc::id_to_string(*id));
  if (it != s->running.end()) it->second.request_stop();
}

}  // namespace

bool server::handle_message(const std::shared_ptr<session>& s, const jsonrpc::message& m,
                            const std::function<void(const json&, bool)>& emit,
                            std::string_view principal, wire::request_meta* checked) {
  if (!s->shared) {
    std::lock_guard lock(s->mu);
    s->last_used = std::chrono::steady_clock::now();
  }
  if (const auto* resp = std::get_if<jsonrpc::response>(&m)) {
    route_response(s, *resp);
    return true;
  }
  if (const auto* n = std::get_if<jsonrpc::notification>(&m)) {
    handle_notification(s, *n);
    return true;
  }
  const auto& r = std::get<jsonrpc::request>(m);
  std::shared_ptr<session> own;  // the pseudo-session of a 2026-07-28 request
  bool initialized = false;
  if (!s->shared) {  // the root of stateless POSTs is never initialized: its requests run in pseudo-sessions
    std::lock_guard lock(s->mu);
    initialized = s->initialized;
  }
  if (!s->stateless && !initialized && checked) {
    own = pseudo_session(std::move(*checked));
  } else if (!s->stateless && !initialized && is_stateless_request(r)) {
    wire::request_meta meta;
    if (auto rej = stateless_check(r, &meta)) {
      emit(jsonrpc::to_json(rej->response), true);
      return true;
    }
    own = pseudo_session(std::move(meta));
  }
  const std::shared_ptr<session>& target = own ? own : s;  // not copied: s may be shared by threads
  auto related = [&emit](const json& j) { emit(j, false); };
  std::optional<jsonrpc::response> resp;
  if (s->shared) {
    // The HTTP server's root of stateless POSTs: many clients whose ids may collide, nothing
    // to cancel by id (2026-07-28 has no cancellation across requests). Closing it stops all.
    resp = dispatch(*this, *impl_, target, r, related, s->stops.token(), principal);
  } else {
    std::string key = jsonrpc::id_to_string(r.id);
    std::stop_source stop;
    {
      std::lock_guard lock(s->mu);
      s->running[key] = stop;
    }
    resp = dispatch(*this, *impl_, target, r, related, stop.get_token(), principal);
    std::lock_guard lock(s->mu);
    s->running.erase(key);
  }
  if (!resp) return false;
  if (resp->error || resp->result.is_null() || !resp->id) {
    emit(jsonrpc::to_json(*resp), true);
  } else {
    json j = result_message(*resp->id, std::move(resp->result));
    emit(j, true);
    release_json(j);
  }
  return true;
}

}  // namespace tooluse::mcp
