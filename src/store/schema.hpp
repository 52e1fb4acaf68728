#pragma once
#include "store/db.hpp"

namespace tooluse::store::detail {

/// migrate creates the schema or brings it to the newest version this tooluse knows.
status migrate(sql_db& db);
int schema_version_known();

}  // namespace tooluse::store::detail
