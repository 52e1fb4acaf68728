#pragma once
/// \file records.hpp
/// record_table: a durable table of JSON records of one kind, in the same database as the
/// durable runs (SQLite file or PostgreSQL URL). Other modules keep their state here without
/// seeing the store's SQL: the MCP server's task records (tooluse::mcp_store) are the first.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::store {

/// record is one row: its id (unique within the table's kind), an owner to list by, the data.
struct record {
  std::string id;
  std::string owner;
  json data;
  std::int64_t created_ms = 0;  ///< milliseconds since the epoch; orders list()
};

/// record_table holds the records of one kind. Thread-safe.
class record_table {
 public:
  virtual ~record_table() = default;
  /// put inserts or replaces the record with r.id (created_ms of a replaced record is kept).
  virtual status put(const record& r) = 0;
  /// get returns the record with `id`, nullopt if none.
  virtual result<std::optional<record>> get(const std::string& id) = 0;
  /// list returns the records of `owner`, oldest first; every record when `owner` is nullopt.
  virtual result<std::vector<record>> list(const std::optional<std::string>& owner) = 0;
  /// erase removes a record; false if there was none.
  virtual result<bool> erase(const std::string& id) = 0;
  /// location is where the table lives (a path, or a URL without its password).
  virtual std::string location() const = 0;
};

/// open_records opens (creating and migrating the schema if needed, as open_store does) the
/// table of records of `kind` (e.g. "mcp_task") in the store at `location`.
/// Errors: those of open_store.
result<std::unique_ptr<record_table>> open_records(const std::string& location,
                                                   const std::string& kind,
                                                   const store_options& options = {});

}  // namespace tooluse::store
