// mcp::session_store over store::record_table (kind "mcp_session", one JSON record per session)
// and store::event_log (topic: the session id, data: the message).
#include <mutex>

#include "tooluse/mcp_store/shared_state.hpp"
#include "tooluse/mcp_store/task_store.hpp"
#include "tooluse/store/events.hpp"
#include "tooluse/store/records.hpp"

namespace tooluse::mcp_store {
namespace {

json to_json(const mcp::session_record& r) {
  json j = {{"protocolVersion", r.protocol_version}, {"clientCapabilities", r.client_capabilities},
            {"clientInfo", r.client_info},           {"initializeResult", r.initialize_result},
            {"subscriptions", r.subscriptions},      {"taskKey", r.task_key}};
  if (r.log_level) j["logLevel"] = *r.log_level;
  return j;
}

mcp::session_record from_json(const std::string& id, const json& j) {
  mcp::session_record r;
  r.id = id;
  if (!j.is_object()) return r;
  r.protocol_version = j.value("protocolVersion", "");
  r.client_capabilities = j.value("clientCapabilities", json::object());
  r.client_info = j.value("clientInfo", json::object());
  r.initialize_result = j.value("initializeResult", json());
  if (auto it = j.find("subscriptions"); it != j.end() && it->is_array())
    for (const auto& u : *it)
      if (u.is_string()) r.subscriptions.push_back(u.get<std::string>());
  r.task_key = j.value("taskKey", "");
  if (auto it = j.find("logLevel"); it != j.end() && it->is_string())
    r.log_level = it->get<std::string>();
  return r;
}

class durable_session_store final : public mcp::session_store {
 public:
  durable_session_store(std::unique_ptr<store::record_table> table,
                        std::unique_ptr<store::event_log> events,
                        std::function<void(const error&)> on_error)
      : table_(std::move(table)), events_(std::move(events)), on_error_(std::move(on_error)) {}

  status put(const mcp::session_record& r) override {
    return table_->put({.id = r.id, .owner = "", .data = to_json(r)});
  }

  result<std::optional<mcp::session_record>> get(const std::string& id) override {
    auto got = table_->get(id);
    if (!got) return fail(got.error());
    if (!*got) return std::optional<mcp::session_record>();
    return std::optional<mcp::session_record>(from_json(id, (**got).data));
  }

  status erase(const std::string& id) override {
    auto gone = table_->erase(id);
    if (!gone) return fail(gone.error());
    return {};
  }

  status publish(const std::string& id, const json& message) override {
    return events_->publish(id, message);
  }

  result<std::shared_ptr<void>> listen(
      std::function<void(const std::string& id, const json& message)> deliver) override {
    return events_->listen(
        [deliver = std::move(deliver)](const store::event& e) { deliver(e.topic, e.data); },
        on_error_);
  }

 private:
  std::unique_ptr<store::record_table> table_;
  std::unique_ptr<store::event_log> events_;
  std::function<void(const error&)> on_error_;
};

}  // namespace

result<std::shared_ptr<mcp::session_store>> open_session_store(const std::string& location,
                                                               shared_state_options options) {
  auto table = store::open_records(location, "mcp_session", options.store);
  if (!table) return fail(table.error());
  auto events = store::open_events(
      location, {.store = options.store, .poll_interval = options.poll_interval});
  if (!events) return fail(events.error());
  return std::shared_ptr<mcp::session_store>(std::make_shared<durable_session_store>(
      std::move(*table), std::move(*events), std::move(options.on_error)));
}

result<shared_state> open_shared_state(const std::string& location, shared_state_options options) {
  auto sessions = open_session_store(location, options);
  if (!sessions) return fail(sessions.error());
  auto tasks = open_task_store(
      location, {.store = options.store, .on_error = options.on_error, .shared = true});
  if (!tasks) return fail(tasks.error());
  return shared_state{.sessions = std::move(*sessions), .tasks = std::move(*tasks)};
}

}  // namespace tooluse::mcp_store
