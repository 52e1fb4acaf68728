#pragma once
#include "store/db.hpp"

namespace tooluse::store::detail {

/// migrate creates the schema or brings it to the newest version this tooluse knows.
status migrate(sql_db& db);
int schema_version_known();

/// open_migrated opens the store at `location` (a SQLite file or a postgresql:// URL) with
/// options.durability and migrates it. An empty location is errc::invalid_argument saying
/// `no_store`, which tells the user what to pass.
result<std::unique_ptr<sql_db>> open_migrated(const std::string& location,
                                              const store_options& options,
                                              const std::string& no_store);

}  // namespace tooluse::store::detail
