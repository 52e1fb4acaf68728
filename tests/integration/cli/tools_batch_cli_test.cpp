// `tooluse tools batch` through the real binary: results in call order, JSON shape, exit codes.
#include <gtest/gtest.h>

#include <fstream>

#include "support/cli_process.hpp"
#include "tooluse/json.hpp"

using tooluse::testing::run_tooluse;

namespace {
std::filesystem::path write_calls(const tooluse::testing::temp_dir& dir, const std::string& text) {
  auto path = dir.path() / "calls.json";
  std::ofstream(path) << text;
  return path;
}
}  // namespace

TEST(tools_batch_cli, json_results_come_back_in_call_order) {
  tooluse::testing::temp_dir dir;
  auto calls = write_calls(dir, R"([
    {"name": "calculator", "arguments": {"expression": "13!"}},
    {"name": "calculator", "arguments": {"expression": "1/0"}},
    {"name": "calculator", "arguments": "{\"expression\": \"2^62\"}"}
  ])");
  auto r = run_tooluse({"tools", "batch", calls.string(), "--json", "--parallel", "3"}, {},
                       dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;  // one call returned an error
  auto doc = tooluse::parse_json(r.out);
  ASSERT_TRUE(doc) << r.out;
  const auto& results = (*doc)["results"];
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0]["name"], "calculator");
  EXPECT_EQ(results[0]["is_error"], false);
  EXPECT_EQ(results[0]["content"][0]["text"], "6227020800");
  EXPECT_EQ(results[1]["is_error"], true);
  EXPECT_NE(results[1]["content"][0]["text"].get<std::string>().find("division by zero"),
            std::string::npos);
  EXPECT_EQ(results[2]["content"][0]["text"], "4611686018427387904");
  EXPECT_TRUE(results[0]["ms"].is_number());
  EXPECT_TRUE((*doc)["wall_ms"].is_number());
}

TEST(tools_batch_cli, all_successful_calls_exit_zero) {
  tooluse::testing::temp_dir dir;
  auto calls = write_calls(dir, R"([{"name": "calculator", "arguments": {"expression": "1+1"}}])");
  auto r = run_tooluse({"tools", "batch", calls.string()}, {}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2"), std::string::npos) << r.out;
}

TEST(tools_batch_cli, schema_failures_are_error_results_not_crashes) {
  tooluse::testing::temp_dir dir;
  auto calls = write_calls(dir, R"([{"name": "calculator", "arguments": {"expr": "1"}},
                                    {"name": "no_such_tool", "arguments": {}}])");
  auto r = run_tooluse({"tools", "batch", calls.string(), "--json"}, {}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto doc = tooluse::parse_json(r.out);
  ASSERT_TRUE(doc) << r.out;
  EXPECT_EQ((*doc)["results"][0]["is_error"], true);
  EXPECT_EQ((*doc)["results"][1]["is_error"], true);
}

TEST(tools_batch_cli, unreadable_or_malformed_calls_file_is_a_usage_error) {
  tooluse::testing::temp_dir dir;
  EXPECT_EQ(run_tooluse({"tools", "batch", "missing.json"}, {}, dir.path()).exit_code, 2);
  auto calls = write_calls(dir, R"({"name": "calculator"})");
  auto r = run_tooluse({"tools", "batch", calls.string()}, {}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("array"), std::string::npos) << r.err;
}
