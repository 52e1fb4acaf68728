// record_table over sql_db: one table, tooluse_records (kind, id) -> owner, data, created_ms.
#include "tooluse/store/records.hpp"

#include <chrono>

#include "store/db.hpp"
#include "store/schema.hpp"

namespace tooluse::store {
namespace {

using detail::param;

class sql_records final : public record_table {
 public:
  sql_records(std::unique_ptr<detail::sql_db> db, std::string kind)
      : db_(std::move(db)), kind_(std::move(kind)) {}

  status put(const record& r) override {
    std::lock_guard lock(db_->mutex);
    const std::int64_t created =
        r.created_ms ? r.created_ms
                     : std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
    auto out = db_->exec(
        "INSERT INTO tooluse_records (kind, id, owner, data, created_ms) VALUES ($1, $2, $3, $4, "
        "$5) ON CONFLICT (kind, id) DO UPDATE SET owner = excluded.owner, data = excluded.data",
        {kind_, r.id, r.owner, dump_json(r.data), std::to_string(created)});
    if (!out) return fail(out.error());
    return {};
  }

  result<std::optional<record>> get(const std::string& id) override {
    std::lock_guard lock(db_->mutex);
    auto rows = db_->exec(
        "SELECT id, owner, data, created_ms FROM tooluse_records WHERE kind = $1 AND id = $2",
        {kind_, id});
    if (!rows) return fail(rows.error());
    if (rows->empty()) return std::optional<record>();
    return std::optional<record>(to_record((*rows)[0]));
  }

  result<std::vector<record>> list(const std::optional<std::string>& owner) override {
    std::lock_guard lock(db_->mutex);
    auto rows = owner ? db_->exec("SELECT id, owner, data, created_ms FROM tooluse_records WHERE "
                                  "kind = $1 AND owner = $2 ORDER BY created_ms, id",
                                  {kind_, *owner})
                      : db_->exec("SELECT id, owner, data, created_ms FROM tooluse_records WHERE "
                                  "kind = $1 ORDER BY created_ms, id",
                                  {kind_});
    if (!rows) return fail(rows.error());
    std::vector<record> out;
    for (const auto& row : *rows) out.push_back(to_record(row));
    return out;
  }

  result<bool> erase(const std::string& id) override {
    std::lock_guard lock(db_->mutex);
    auto rows = db_->exec("DELETE FROM tooluse_records WHERE kind = $1 AND id = $2 RETURNING id",
                          {kind_, id});
    if (!rows) return fail(rows.error());
    return !rows->empty();
  }

  std::string location() const override { return db_->location(); }

 private:
  static record to_record(const detail::row& row) {
    record r;
    r.id = row[0].value_or("");
    r.owner = row[1].value_or("");
    // Stored by this module, but read back through the bounded parser like any other input.
    auto data = parse_json(row[2].value_or("null"));
    r.data = data ? std::move(*data) : json();
    r.created_ms = row[3] && !row[3]->empty() ? std::stoll(*row[3]) : 0;
    return r;
  }

  std::unique_ptr<detail::sql_db> db_;
  std::string kind_;
};

}  // namespace

result<std::unique_ptr<record_table>> open_records(const std::string& location,
                                                   const std::string& kind,
                                                   const store_options& options) {
  auto db = detail::open_migrated(location, options,
                                  "no store given: pass a SQLite file or a postgresql:// URL");
  if (!db) return fail(db.error());
  return std::unique_ptr<record_table>(std::make_unique<sql_records>(std::move(*db), kind));
}

}  // namespace tooluse::store
