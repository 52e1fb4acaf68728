// Words for one: "1 entry" (not "1 entries"), "UTC" once (not "UTC, UTC"), as the binary prints
// them ("1 tool call" on the trace page: trace_store_viewer_test.cpp).
#include <gtest/gtest.h>

#include <filesystem>

#include "support/cli_process.hpp"

namespace tooluse::testing {
namespace {

TEST(wording_cli, one_entry_and_utc_once) {
  temp_dir dir;
  std::filesystem::create_directory(dir.path() / "empty");
  auto r = run_tooluse({"tools", "call", "file_delete", "path=empty", "--yes"}, {}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "deleted empty (1 entry)\n");
  r = run_tooluse({"tools", "call", "datetime", "operation=convert", "datetime=2024-03-10T12:00Z",
                   "to_timezone=Asia/Kolkata"},
                  {}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("2024-03-10T12:00:00+00:00 (Sunday, UTC)\n", 0), 0u) << r.out;
  EXPECT_EQ(r.out.find("UTC, UTC"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tooluse::testing
