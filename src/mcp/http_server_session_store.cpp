// Sessions shared through a session_store (http_options::session_store): a replica serves a
// session it does not hold from the stored record, saves what initialize, logging/setLevel and
// resources/(un)subscribe change before answering, and sends the session's unsolicited
// messages through the store, to whichever replica holds the GET stream. design/mcp-replicas.md.
#include <iostream>

#include "mcp/http_server_impl.hpp"
#include "mcp/server_impl.hpp"  // random_token

namespace tooluse::mcp {

namespace {

// The message a replica publishes after changing or deleting a session: the replicas that hold
// a copy read the record again (or drop the copy). Never written to a stream.
constexpr std::string_view changed_key = "tooluse/sessionChanged";

// apply copies a stored record into the server's session state.
void apply(session& s, const session_record& r) {
  std::lock_guard lock(s.mu);
  s.id = r.id;
  s.protocol_version = r.protocol_version;
  s.client_capabilities =
      r.client_capabilities.is_object() ? r.client_capabilities : json::object();
  s.client_info = r.client_info.is_object() ? r.client_info : json::object();
  s.level = r.log_level ? parse_log_level(*r.log_level) : std::nullopt;
  s.subscriptions = std::set<std::string>(r.subscriptions.begin(), r.subscriptions.end());
  if (!r.task_key.empty()) s.task_key = r.task_key;
  s.initialized = true;
}

}  // namespace

std::shared_ptr<detail::http_session> http_server::impl::make_session(const std::string& id) {
  auto hs = std::make_shared<detail::http_session>(id);
  if (auto store = options.session_store) {
    // What the session sends related to no request is published, and written by the replica
    // that holds the GET stream (this one included).
    hs->publish = [store, id](const json& m) {
      if (auto ok = store->publish(id, m); !ok)
        std::cerr << "tooluse mcp http: a message for session " << id.substr(0, 8)
                  << "... was lost: " << ok.error().message << "\n";
    };
    hs->on_persist = [this, w = std::weak_ptr<detail::http_session>(hs)](std::string_view method,
                                                                         const json& result) {
      if (auto h = w.lock()) save(*h, method, result);
    };
  }
  // Without a store, the session's unsolicited messages (list changes, logs, resource updates)
  // go to its GET stream (http_session::write).
  hs->served = srv.connect(*hs);
  hs->s = hs->served->state();
  hs->s->id = id;
  // The task owner key must be the same on every replica: made now, stored with the session.
  if (options.session_store) hs->s->task_key = random_token(16);
  return hs;
}

bool http_server::impl::persists_state(std::string_view method) const {
  return options.session_store &&
         (method == "initialize" || method == "logging/setLevel" ||
          method == "resources/subscribe" || method == "resources/unsubscribe");
}

void http_server::impl::save(detail::http_session& hs, std::string_view method,
                             const json& result) {
  session_record r;
  r.id = hs.id;
  {
    std::lock_guard lock(hs.mu);
    if (method == "initialize") hs.initialize_result = result;
    r.initialize_result = hs.initialize_result;
  }
  {
    std::lock_guard lock(hs.s->mu);
    r.protocol_version = hs.s->protocol_version;
    r.client_capabilities = hs.s->client_capabilities;
    r.client_info = hs.s->client_info;
    if (hs.s->level) r.log_level = std::string(to_string(*hs.s->level));
    r.subscriptions.assign(hs.s->subscriptions.begin(), hs.s->subscriptions.end());
    r.task_key = hs.s->task_key;
  }
  if (auto ok = options.session_store->put(r); !ok) {
    std::cerr << "tooluse mcp http: cannot save session " << hs.id.substr(0, 8)
              << "... in the session store (other replicas will not see this " << method
              << "): " << ok.error().message << "\n";
    return;
  }
  if (method != "initialize") announce_change(hs.id);
}

void http_server::impl::announce_change(const std::string& id) {
  (void)options.session_store->publish(id, json{{std::string(changed_key), true}});
}

std::shared_ptr<detail::http_session> http_server::impl::find_stored(
    const std::string& id, std::shared_ptr<detail::http_session> cached) {
  auto rec = options.session_store->get(id);
  if (!rec) {
    // The store is unreachable: a session held here goes on as it is; others are unknown.
    std::cerr << "tooluse mcp http: cannot read session " << id.substr(0, 8)
              << "... from the session store: " << rec.error().message << "\n";
    return cached;
  }
  if (!*rec) {
    // Deleted (by DELETE on another replica) or never made: forget the copy held here.
    if (cached) close_session(cached);
    return nullptr;
  }
  if (cached) {
    // Another replica may have changed the level or the subscriptions since.
    apply(*cached->s, **rec);
    return cached;
  }
  auto hs = make_session(id);
  apply(*hs->s, **rec);
  {
    std::lock_guard lock(hs->mu);
    hs->initialize_result = (*rec)->initialize_result;
    hs->used = true;
  }
  std::shared_ptr<detail::http_session> kept;
  {
    std::lock_guard lock(mu);
    if (!stopping) kept = sessions.emplace(id, hs).first->second;
  }
  // Not kept (stopping, or restored meanwhile by another request of the session): drop ours.
  if (kept != hs) hs->served->close();
  return kept;
}

void http_server::impl::deliver(const std::string& id, const json& message) {
  // A task cancelled through another replica stops here if it runs here.
  if (message.value("method", "") == "notifications/tasks/status" && message.contains("params") &&
      message["params"].value("status", "") == "cancelled")
    srv.stop_cancelled_task(message["params"].value("taskId", ""));
  std::shared_ptr<detail::http_session> hs;
  {
    std::lock_guard lock(mu);
    auto it = sessions.find(id);
    if (it == sessions.end()) return;  // its stream, if any, is on another replica
    hs = it->second;
  }
  if (message.contains(std::string(changed_key))) {
    (void)find_stored(id, std::move(hs));  // read it again; dropped (streams end) if deleted
    return;
  }
  (void)hs->to_stream(message);  // only a session whose GET stream was opened here keeps it
}

status http_server::impl::start_store_listener() {
  auto handle = options.session_store->listen(
      [w = weak_from_this()](const std::string& id, const json& message) {
        if (auto self = w.lock()) self->deliver(id, message);
      });
  if (!handle)
    return fail(errc::io_error,
                "mcp http: cannot listen to the session store: " + handle.error().message);
  store_listener = std::move(*handle);
  return {};
}

}  // namespace tooluse::mcp
