#pragma once
// One throwaway PostgreSQL cluster for every store test of this binary that needs one
// (starting a cluster takes seconds under ASan; each test uses its own database in it).
#include "support/postgres_fixture.hpp"

namespace tooluse::testing {

inline postgres_cluster& shared_postgres() {
  static postgres_cluster cluster;
  return cluster;
}

}  // namespace tooluse::testing
