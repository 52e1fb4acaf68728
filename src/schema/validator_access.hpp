#pragma once
// validator_access lets the schema module's own code (coercion) read a validator's compiled
// tree, which the public header keeps private.

#include "schema/schema_impl.hpp"

namespace tooluse::schema::detail {

/// validator_access::impl returns the compiled tree of `v`.
struct validator_access {
  static const compiled_schema& impl(const validator& v);
};

}  // namespace tooluse::schema::detail
