#pragma once
// sql_db: the little SQL the store needs, over SQLite and PostgreSQL alike. Statements use
// $1, $2, ... placeholders and text parameters; rows come back as optional strings (NULL is
// nullopt). Not thread-safe: the store serialises calls with `mutex`.
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tooluse/result.hpp"

namespace tooluse::store::detail {

using param = std::optional<std::string>;
using row = std::vector<std::optional<std::string>>;
using rows = std::vector<row>;

class sql_db {
 public:
  virtual ~sql_db() = default;
  /// exec runs one statement.
  virtual result<rows> exec(const std::string& sql, const std::vector<param>& params = {}) = 0;
  /// script runs several statements without parameters (schema creation).
  virtual status script(const std::string& sql) = 0;
  /// begin starts a write transaction (SQLite: BEGIN IMMEDIATE).
  virtual status begin() = 0;
  virtual status commit() = 0;
  virtual void rollback() = 0;
  virtual bool postgres() const = 0;
  /// wait_notification waits up to `timeout` for a NOTIFY on a LISTENed channel (PostgreSQL);
  /// true if one or more arrived. SQLite: false at once.
  virtual bool wait_notification(std::chrono::milliseconds timeout) = 0;
  virtual std::string location() const = 0;

  std::recursive_mutex mutex;
};

result<std::unique_ptr<sql_db>> open_sqlite(const std::string& path);
result<std::unique_ptr<sql_db>> open_postgres(const std::string& url);

/// redact_url drops the password of a postgresql:// URL.
std::string redact_url(const std::string& url);

}  // namespace tooluse::store::detail
