// `tooluse eval score` and `eval formats` through the real binary, on the 2024-08-11 BFCL data
// kept in tests/data: the --json shape the issue pins, the table, the failures' reasons, the
// errors (unknown model, missing folder) and --fail-under.
#include <gtest/gtest.h>

#include <sstream>

#include "support/cli_process.hpp"
#include "support/test_support.hpp"
#include "tooluse/json.hpp"

namespace tooluse::testing {
namespace {

std::vector<std::string> score_args(const std::string& model) {
  return {"eval", "score", "--data", (data_dir() / "bfcl-2024-08").string(), "--results",
          (data_dir() / "bfcl-result-2024-08-11" / "result" / model).string(), "--model", model};
}

// The words of the table line that starts with `name`.
std::vector<std::string> row(const std::string& out, const std::string& name) {
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (!w.empty() && w[0] == name) return w;
  }
  return {};
}

TEST(eval_cli, json_gives_bfcl_counts_per_category) {
  auto args = score_args("gorilla-openfunctions-v2");
  args.push_back("--json");
  auto r = run_tooluse(args);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = json::parse(r.out);
  EXPECT_EQ(j["model"], "gorilla-openfunctions-v2");
  EXPECT_EQ(j["categories"]["simple"]["correct_count"], 380);
  EXPECT_EQ(j["categories"]["simple"]["total_count"], 400);
  EXPECT_EQ(j["categories"]["parallel_multiple_function"]["correct_count"], 174);
  EXPECT_EQ(j["categories"]["relevance"]["correct_count"], 146);
  EXPECT_EQ(j["categories"]["java"]["correct_count"], 67);
  EXPECT_EQ(j["categories"]["javascript"]["correct_count"], 36);
  ASSERT_TRUE(j["failures"].is_array());
  EXPECT_EQ(j["failures"].size(), (400 - 380) + (200 - 191) + (200 - 174) + (200 - 174) + (240 - 146) + (100 - 67) + (50 - 36));
  EXPECT_TRUE(j["failures"][0].contains("error_type"));
}

TEST(eval_cli, the_table_shows_each_category_and_the_reasons_asked_for) {
  auto args = score_args("claude-3-5-sonnet-20240620");
  args.insert(args.end(), {"--categories", "simple,java", "--show-failures", "2"});
  auto r = run_tooluse(args);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(row(r.out, "simple"), (std::vector<std::string>{"simple", "384", "400", "96.00%"})) << r.out;
  EXPECT_EQ(row(r.out, "java"), (std::vector<std::string>{"java", "65", "100", "65.00%"})) << r.out;
  EXPECT_EQ(r.out.find("relevance"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("java #"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--show-failures N"), std::string::npos) << r.out;
}

TEST(eval_cli, an_unknown_model_exits_2_and_says_how_to_pick_a_decoder) {
  auto args = score_args("gorilla-openfunctions-v2");
  args[args.size() - 1] = "my-finetune";
  auto r = run_tooluse(args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("tooluse: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--format"), std::string::npos) << r.err;
  args.insert(args.end(), {"--format", "gorilla", "--json"});
  auto ok = run_tooluse(args);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(json::parse(ok.out)["categories"]["simple"]["correct_count"], 380);
}

TEST(eval_cli, fail_under_turns_a_low_score_into_exit_1) {
  auto args = score_args("NousResearch_Hermes-2-Pro-Llama-3-8B");
  args.insert(args.end(), {"--fail-under", "90"});
  auto r = run_tooluse(args);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("under --fail-under 90%"), std::string::npos) << r.err;
  args.back() = "50";
  EXPECT_EQ(run_tooluse(args).exit_code, 0);
}

TEST(eval_cli, a_missing_results_folder_is_named) {
  auto r = run_tooluse({"eval", "score", "--data", (data_dir() / "bfcl-2024-08").string(), "--results",
                        "no/such/folder", "--model", "gorilla-openfunctions-v2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no/such/folder"), std::string::npos) << r.err;
}

TEST(eval_cli, formats_lists_decoders_and_models) {
  auto r = run_tooluse({"eval", "formats"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("  hermes\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  NousResearch_Hermes-2-Pro-Llama-3-8B\n"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tooluse::testing
