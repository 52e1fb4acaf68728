// mcp::task_store over store::record_table (kind "mcp_task"): each task_record is one JSON
// record, owned by its session so that tasks/list reads one owner's records.
#include "tooluse/mcp_store/task_store.hpp"

#include "tooluse/store/records.hpp"

namespace tooluse::mcp_store {
namespace {

using namespace std::chrono;

long long to_ms(system_clock::time_point t) {
  return duration_cast<milliseconds>(t.time_since_epoch()).count();
}
system_clock::time_point from_ms(long long ms) { return system_clock::time_point(milliseconds(ms)); }

class durable_task_store final : public mcp::task_store {
 public:
  durable_task_store(std::unique_ptr<store::record_table> table,
                     std::function<void(const error&)> on_error)
      : table_(std::move(table)), on_error_(std::move(on_error)) {}

  void put(const mcp::task_record& r) override {
    report(table_->put({.id = r.id,
                        .owner = r.owner,
                        .data = task_record_to_json(r),
                        .created_ms = to_ms(r.created_at)}));
  }

  std::optional<mcp::task_record> get(const std::string& id) override {
    auto got = table_->get(id);
    if (!got) return report(fail(got.error())), std::nullopt;
    if (!*got) return std::nullopt;
    return task_record_from_json((**got).data);
  }

  std::vector<mcp::task_record> list(const std::string& owner) override {
    std::vector<mcp::task_record> out;
    auto rows = table_->list(owner);
    if (!rows) return report(fail(rows.error())), out;
    for (const auto& row : *rows)
      if (auto r = task_record_from_json(row.data)) out.push_back(std::move(*r));
    return out;
  }

  bool erase(const std::string& id) override {
    auto gone = table_->erase(id);
    if (!gone) return report(fail(gone.error())), false;
    return *gone;
  }

  // fail_orphans marks the records a previous process left running as failed.
  status fail_orphans() {
    auto rows = table_->list(std::nullopt);
    if (!rows) return fail(rows.error());
    for (const auto& row : *rows) {
      auto r = task_record_from_json(row.data);
      if (!r || mcp::is_terminal(r->status)) continue;
      const std::string why = "the server restarted while task " + r->id + " (tool \"" + r->tool +
                              "\") was " + std::string(mcp::to_string(r->status)) +
                              "; its work is lost: call the tool again";
      r->status = mcp::task_status::failed;
      r->status_message = why;
      r->input_requests = json::object();
      r->error = jsonrpc::error_object{jsonrpc::error_code::internal_error, why,
                                       json{{"taskId", r->id}}};
      r->updated_at = system_clock::now();
      if (auto s = table_->put({.id = r->id,
                                .owner = r->owner,
                                .data = task_record_to_json(*r),
                                .created_ms = to_ms(r->created_at)});
          !s)
        return s;
    }
    return {};
  }

 private:
  void report(const status& s) const {
    if (!s && on_error_) on_error_(s.error());
  }
  std::unique_ptr<store::record_table> table_;
  std::function<void(const error&)> on_error_;
};

}  // namespace

json task_record_to_json(const mcp::task_record& r) {
  json j = {{"id", r.id},
            {"owner", r.owner},
            {"principal", r.principal},
            {"tool", r.tool},
            {"revision", r.revision},
            {"status", std::string(mcp::to_string(r.status))},
            {"statusMessage", r.status_message},
            {"createdMs", to_ms(r.created_at)},
            {"updatedMs", to_ms(r.updated_at)},
            {"ttlMs", r.ttl_ms ? json(*r.ttl_ms) : json()},
            {"pollIntervalMs", r.poll_interval_ms},
            {"result", r.result},
            {"inputRequests", r.input_requests}};
  if (r.error)
    j["error"] = {{"code", r.error->code}, {"message", r.error->message}, {"data", r.error->data}};
  return j;
}

std::optional<mcp::task_record> task_record_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  auto status = mcp::parse_task_status(j.value("status", ""));
  if (!status) return std::nullopt;
  mcp::task_record r;
  r.id = j.value("id", "");
  r.owner = j.value("owner", "");
  r.principal = j.value("principal", "");
  r.tool = j.value("tool", "");
  r.revision = j.value("revision", "");
  r.status = *status;
  r.status_message = j.value("statusMessage", "");
  r.created_at = from_ms(j.value("createdMs", 0LL));
  r.updated_at = from_ms(j.value("updatedMs", 0LL));
  if (j.contains("ttlMs") && j["ttlMs"].is_number()) r.ttl_ms = j["ttlMs"].get<long long>();
  r.poll_interval_ms = j.value("pollIntervalMs", 1000LL);
  r.result = j.value("result", json());
  r.input_requests = j.value("inputRequests", json::object());
  if (j.contains("error") && j["error"].is_object()) {
    const json& e = j["error"];
    r.error = jsonrpc::error_object{e.value("code", int(jsonrpc::error_code::internal_error)),
                                    e.value("message", ""), e.value("data", json())};
  }
  if (r.id.empty()) return std::nullopt;
  return r;
}

result<std::shared_ptr<mcp::task_store>> open_task_store(const std::string& location,
                                                         task_store_options options) {
  auto table = store::open_records(location, "mcp_task", options.store);
  if (!table) return fail(table.error());
  auto s = std::make_shared<durable_task_store>(std::move(*table), std::move(options.on_error));
  if (options.shared) return std::shared_ptr<mcp::task_store>(std::move(s));
  if (auto ok = s->fail_orphans(); !ok)
    return fail(errc::io_error, "cannot recover the MCP task records in " + location + ": " +
                                    ok.error().message);
  return std::shared_ptr<mcp::task_store>(std::move(s));
}

}  // namespace tooluse::mcp_store
