// The 2024-08-11 leaderboard reproduced to the entry: for four models whose outputs BFCL-Result
// published (native tool calls, Hermes <tool_call> lines, Gorilla's Python calls, Claude's
// prompted calls), score() must give BFCL's correct_count in every AST and relevance category,
// fail exactly the entries BFCL's score files list, and with BFCL's error type.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

#include "support/test_support.hpp"
#include "tooluse/eval/score.hpp"

namespace tooluse::testing {
namespace {

struct bfcl_entry {
  std::size_t correct = 0, total = 0;
  std::map<std::size_t, std::string> failures;  // id -> error_type
};

bfcl_entry read_score_file(const std::filesystem::path& p) {
  bfcl_entry e;
  std::ifstream in(p);
  std::string line;
  EXPECT_TRUE(std::getline(in, line)) << p;
  auto head = json::parse(line);
  e.correct = head.at("correct_count").get<std::size_t>();
  e.total = head.at("total_count").get<std::size_t>();
  while (std::getline(in, line)) {
    auto j = json::parse(line);
    e.failures[j.at("id").get<std::size_t>()] = j.at("error_type").get<std::string>();
  }
  return e;
}

class bfcl_2024_08_11 : public ::testing::TestWithParam<std::string> {};

TEST_P(bfcl_2024_08_11, every_category_and_every_failure_agree_with_bfcl) {
  const std::string model = GetParam();
  auto results = data_dir() / "bfcl-result-2024-08-11";
  eval::score_options o{(data_dir() / "bfcl-2024-08").string(), (results / "result" / model).string(), model};
  auto report = eval::score(o);
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->categories.size(), 7u);
  std::map<std::string, std::map<std::size_t, std::string>> mine;
  for (const auto& f : report->failures) mine[f.category][f.id] = f.error_type;
  for (const auto& c : report->categories) {
    auto bfcl = read_score_file(results / "score" / model / (c.name + "_score.json"));
    EXPECT_EQ(c.correct_count, bfcl.correct) << model << " " << c.name;
    EXPECT_EQ(c.total_count, bfcl.total) << model << " " << c.name;
    EXPECT_EQ(mine[c.name], bfcl.failures) << model << " " << c.name << ": failing entries or error types differ";
  }
}

INSTANTIATE_TEST_SUITE_P(models, bfcl_2024_08_11,
                         ::testing::Values("gpt-4o-2024-08-06-FC", "claude-3-5-sonnet-20240620",
                                           "NousResearch_Hermes-2-Pro-Llama-3-8B", "gorilla-openfunctions-v2"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(bfcl_score, an_unknown_model_is_an_error_that_says_how_to_pick_a_decoder) {
  auto results = data_dir() / "bfcl-result-2024-08-11" / "result" / "gorilla-openfunctions-v2";
  eval::score_options o{(data_dir() / "bfcl-2024-08").string(), results.string(), "my-model"};
  auto report = eval::score(o);
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().message.find("--format"), std::string::npos) << report.error().message;
  EXPECT_NE(report.error().message.find("gorilla-openfunctions-v2"), std::string::npos);
  o.format = "gorilla";
  report = eval::score(o);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->decoder, "gorilla");
}

TEST(bfcl_score, a_category_filter_scores_only_those) {
  auto results = data_dir() / "bfcl-result-2024-08-11" / "result" / "gorilla-openfunctions-v2";
  eval::score_options o{(data_dir() / "bfcl-2024-08").string(), results.string(), "gorilla-openfunctions-v2"};
  o.categories = {"simple", "relevance"};
  auto report = eval::score(o);
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->categories.size(), 2u);
  EXPECT_EQ(report->categories[0].name, "relevance");
  EXPECT_EQ(report->categories[1].name, "simple");
  EXPECT_EQ(report->categories[1].correct_count, 380u);
  auto j = eval::to_json(*report);
  EXPECT_EQ(j["categories"]["simple"]["total_count"], 400);
  EXPECT_DOUBLE_EQ(j["categories"]["simple"]["accuracy"].get<double>(), 0.95);
}

TEST(bfcl_score, a_missing_folder_names_itself) {
  eval::score_options o{"/nonexistent/data", "/nonexistent/results", "gorilla-openfunctions-v2"};
  auto report = eval::score(o);
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().message.find("/nonexistent/results"), std::string::npos);
}

}  // namespace
}  // namespace tooluse::testing
