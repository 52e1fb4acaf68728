// Task records: names of statuses, the in-memory store and the Task wire fields.
#include "tooluse/mcp/tasks.hpp"

#include <algorithm>
#include <ctime>
#include <map>
#include <mutex>

#include "tooluse/enum_names.hpp"

namespace tooluse::mcp {

TOOLUSE_ENUM_NAMES(task_status, (working), (input_required), (completed), (failed), (cancelled))
TOOLUSE_ENUM_NAMES(task_support, (forbidden), (optional), (required))

std::string_view to_string(task_status s) noexcept { return enum_name(s, "working"); }

std::optional<task_status> parse_task_status(std::string_view s) noexcept {
  return enum_from_name<task_status>(s);
}

std::string_view to_string(task_support s) noexcept { return enum_name(s, "forbidden"); }

std::optional<task_support> parse_task_support(std::string_view s) noexcept {
  return enum_from_name<task_support>(s);
}

std::string format_time(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  auto ms = duration_cast<milliseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms % 1000));
  return out;
}

json task_to_json(const task_record& r, std::string_view revision) {
  bool v2 = revision == "2026-07-28";
  json j = {{"taskId", r.id},
            {"status", std::string(to_string(r.status))},
            {"createdAt", format_time(r.created_at)},
            {"lastUpdatedAt", format_time(r.updated_at)}};
  if (!r.status_message.empty()) j["statusMessage"] = r.status_message;
  json ttl = r.ttl_ms ? json(*r.ttl_ms) : json(nullptr);
  j[v2 ? "ttlMs" : "ttl"] = ttl;
  if (r.poll_interval_ms > 0) j[v2 ? "pollIntervalMs" : "pollInterval"] = r.poll_interval_ms;
  return j;
}

namespace {

class memory_task_store final : public task_store {
 public:
  void put(const task_record& r) override {
    std::lock_guard lock(mu_);
    records_[r.id] = r;
  }
  std::optional<task_record> get(const std::string& id) override {
    std::lock_guard lock(mu_);
    auto it = records_.find(id);
    if (it == records_.end()) return std::nullopt;
    return it->second;
  }
  std::vector<task_record> list(const std::string& owner) override {
    std::lock_guard lock(mu_);
    std::vector<task_record> out;
    for (const auto& [id, r] : records_)
      if (r.owner == owner) out.push_back(r);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return a.created_at != b.created_at ? a.created_at < b.created_at : a.id < b.id;
    });
    return out;
  }
  bool erase(const std::string& id) override {
    std::lock_guard lock(mu_);
    return records_.erase(id) > 0;
  }

 private:
  std::mutex mu_;
  std::map<std::string, task_record> records_;
};

}  // namespace

std::shared_ptr<task_store> make_memory_task_store() {
  return std::make_shared<memory_task_store>();
}

}  // namespace tooluse::mcp
