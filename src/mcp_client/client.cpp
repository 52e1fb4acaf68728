// tooluse::mcp::client: connection, revision negotiation, accessors, close.

#include <stdexcept>

#include "client_impl.hpp"
#include "tooluse/jsonrpc/message.hpp"
#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp {

std::string id_key(const json& id) { return id.dump(); }

namespace {

// handshake_result reads the server's result to the handshake `method` as T; a mismatch is a
// protocol error that names the transport and the method.
template <class T>
result<T> handshake_result(const client_transport& t, const json& answer, std::string_view method) {
  auto r = decode<T>(answer, "result");
  if (!r)
    return fail(errc::protocol_error, t.describe() + ": the server's " + std::string(method) +
                                          " result is malformed: " + r.error().message);
  return r;
}

}  // namespace

json client::impl::client_capabilities() const {
  json caps = json::object();
  if (options.on_sampling) caps["sampling"] = json::object();
  if (options.on_elicitation) caps["elicitation"] = json::object();
  if (options.on_roots || !options.roots.empty()) caps["roots"] = {{"listChanged", false}};
  return caps;
}

json client::impl::stateless_meta() const {
  json meta = {{std::string(meta_protocol_version), std::string(version_2026_07_28)},
               {std::string(meta_client_info), to_json(options.client_info)},
               {std::string(meta_client_capabilities), client_capabilities()}};
  if (options.tasks)
    meta[std::string(meta_client_capabilities)]["extensions"][std::string(tasks_extension)] = json::object();
  std::lock_guard lock(mu);
  if (level) meta[std::string(meta_log_level)] = std::string(to_string(*level));
  return meta;
}

status client::impl::initialize(std::string_view wanted) {
  wire::initialize_params params{.protocol_version = std::string(wanted),
                                 .capabilities = client_capabilities(),
                                 .client_info = to_json(options.client_info)};
  auto res = round_trip("initialize", encode(params), {});
  if (!res) return fail(res.error());
  auto r = handshake_result<wire::initialize_result>(*transport, *res, "initialize");
  if (!r) return fail(r.error());
  const std::string& got = r->protocol_version;
  if (!is_session_version(got))
    return fail(
        errc::protocol_error,
        transport->describe() + ": the server answered initialize with protocol revision \"" + got +
            "\", which tooluse does not speak; use a server supporting 2025-03-26 or later");
  {
    std::lock_guard lock(mu);
    version = got;
    stateless = false;
    caps = r->capabilities.value_or(json::object());
    server = implementation_of(r->server_info.value_or(json::object()));
    instructions = r->instructions.value_or("");
    ++generation;
  }
  return write(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
}

status client::impl::discover() {
  auto res = round_trip("server/discover", json::object(), {}, options.discover_timeout);
  if (!res) return fail(res.error());
  auto r = handshake_result<wire::discover_result>(*transport, *res, "server/discover");
  if (!r) return fail(r.error());
  bool modern = false;
  for (const auto& v : r->supported_versions)
    if (v.is_string() && is_stateless_version(v.get<std::string>())) modern = true;
  if (!modern)
    return fail(errc::unsupported, transport->describe() +
                                       ": server/discover lists no stateless revision (" +
                                       json(r->supported_versions).dump() + ")");
  std::lock_guard lock(mu);
  version = std::string(version_2026_07_28);
  stateless = true;
  caps = r->capabilities.value_or(json::object());
  json info = r->meta && r->meta->server_info ? *r->meta->server_info : json::object();
  if (info.empty()) info = r->server_info.value_or(json::object());
  if (info.is_object()) server = implementation_of(info);
  instructions = r->instructions.value_or("");
  ++generation;
  return {};
}

// supported_versions reads the `supported` list of an unsupported-version error's data;
// data that does not decode lists nothing (lenient: the fallback then picks the newest).
static std::vector<json> supported_versions(const json& data) {
  auto d = decode<wire::unsupported_version_data>(data, "error.data");
  return d ? std::move(d->supported) : std::vector<json>{};
}

// offers tells whether the `supported` list of an unsupported-version error has `v`.
static bool offers(const json& data, std::string_view v) {
  for (const auto& s : supported_versions(data))
    if (s == std::string(v)) return true;
  return false;
}

// newest_session_version picks the newest handshake revision of an unsupported-version error.
static std::string newest_session_version(const json& data) {
  const auto supported = supported_versions(data);
  for (auto v : session_versions)
    for (const auto& s : supported)
      if (s == std::string(v)) return std::string(v);
  return std::string(latest_session_version);
}

status client::impl::handshake() {
  const std::string& wanted = options.protocol_version;
  if (wanted == "auto" || is_stateless_version(wanted)) {
    {
      std::lock_guard lock(mu);
      stateless = true;  // the probe carries the per-request _meta (and speaks 2026-07-28)
    }
    auto st = discover();
    if (!st && st.error().jsonrpc_code == jsonrpc::error_code::unsupported_protocol_version) {
      // A modern server rejected the version: retry once with one it lists (we speak only
      // 2026-07-28 statelessly; a listed handshake revision means falling back).
      json data;
      {
        std::lock_guard lock(mu);
        data = unsupported_data;
      }
      if (offers(data, version_2026_07_28)) st = discover();
    }
    if (st) return st;
    {
      std::lock_guard lock(mu);
      stateless = false;  // the fallback's initialize speaks no revision yet
    }
    if (wanted != "auto") return st;
    // Anything but a cancellation means a legacy (or confused) server: fall back.
    if (st.error().code == errc::cancelled) return st;
    std::string fallback(latest_session_version);
    if (st.error().jsonrpc_code == jsonrpc::error_code::unsupported_protocol_version)
      fallback = newest_session_version(unsupported_data_locked());
    return initialize(fallback);
  }
  if (!is_session_version(wanted))
    throw std::invalid_argument("client_options::protocol_version \"" + wanted +
                                "\" is not \"auto\" or a revision tooluse speaks");
  return initialize(wanted);
}

status client::impl::redo_handshake(int seen_generation) {
  std::lock_guard hs(handshake_mu);
  {
    std::lock_guard lock(mu);
    if (generation != seen_generation) return {};  // another thread already did it
    tools_cache.reset();
  }
  std::string v = protocol_version_locked();
  return initialize(v.empty() ? std::string(latest_session_version) : v);
}

json client::impl::unsupported_data_locked() const {
  std::lock_guard lock(mu);
  return unsupported_data;
}

std::string client::impl::protocol_version_locked() const {
  std::lock_guard lock(mu);
  return version;
}

status client::impl::write(const json& message, const json* request,
                           const header_list* headers) {
  std::string speaks;
  {
    std::lock_guard lock(mu);
    speaks = stateless ? std::string(version_2026_07_28) : version;
  }
  return transport->write(
      {.message = message, .request = request, .headers = headers, .protocol_version = speaks});
}

void client::impl::fail_all(const error& e) {
  std::unordered_map<std::string, std::shared_ptr<pending_call>> calls;
  {
    std::lock_guard lock(mu);
    calls.swap(pending);
    for (auto& [k, s] : incoming) s.request_stop();
  }
  for (auto& [k, call] : calls) {
    std::lock_guard lock(call->mu);
    call->failure = e;
    call->cv.notify_all();
  }
}

result<std::shared_ptr<client>> client::connect(std::unique_ptr<client_transport> transport,
                                                client_options options) {
  if (!transport) throw std::invalid_argument("mcp::client::connect: the transport is null");
  auto state = std::make_shared<impl>();
  state->transport = std::move(transport);
  state->options = std::move(options);
  impl* raw = state.get();
  transport_handlers handlers{
      .on_message = [raw](json m) { raw->on_message(std::move(m)); },
      .on_closed = [raw](const error& e) { raw->on_closed(e); },
      .on_send_failed = [raw](const json& id, const error& e) { raw->on_send_failed(id, e); }};
  auto c = std::make_shared<client>(state);
  auto info = state->transport->start(std::move(handlers));
  if (!info) return fail(info.error());
  state->carries_headers = info->carries_headers;
  std::lock_guard hs(state->handshake_mu);
  if (auto st = state->handshake(); !st) {
    c->close();
    return fail(st.error());
  }
  return c;
}

client::client(std::shared_ptr<impl> state) : impl_(std::move(state)) {}

client::~client() { close(); }

void client::close() {
  {
    std::lock_guard lock(impl_->mu);
    if (impl_->closed) return;
    impl_->closed = true;
  }
  impl_->fail_all(error{errc::cancelled, impl_->transport->describe() + ": the client was closed"});
  impl_->transport->close();
  std::list<std::shared_ptr<worker>> workers;
  {
    std::lock_guard lock(impl_->mu);
    workers.swap(impl_->workers);
  }
  for (auto& w : workers)
    if (w->thread.joinable()) w->thread.join();
}

implementation client::server_info() const {
  std::lock_guard lock(impl_->mu);
  return impl_->server;
}

json client::capabilities() const {
  std::lock_guard lock(impl_->mu);
  return impl_->caps;
}

std::string client::protocol_version() const { return impl_->protocol_version_locked(); }

std::string client::instructions() const {
  std::lock_guard lock(impl_->mu);
  return impl_->instructions;
}

bool client::stateless() const {
  std::lock_guard lock(impl_->mu);
  return impl_->stateless;
}

std::string client::describe() const { return impl_->transport->describe(); }

}  // namespace tooluse::mcp
