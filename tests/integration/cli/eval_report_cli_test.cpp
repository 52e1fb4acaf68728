// `tooluse eval report` through the real binary over the four models kept in tests/data: the CSV
// has BFCL's data.csv columns and ranks by overall accuracy, Markdown is a table, and the HTML
// page, rendered by headless Chromium, sorts by a column and draws a bar chart per category.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "integration/cli/headless_browser.hpp"
#include "support/cli_process.hpp"
#include "support/test_support.hpp"

namespace tooluse::testing {
namespace {

std::vector<std::string> report_args(const std::string& format) {
  return {"eval", "report", "--data", (data_dir() / "bfcl-2024-08").string(), "--results",
          (data_dir() / "bfcl-result-2024-08-11" / "result").string(), "--format", format};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(eval_report_cli, csv_has_bfcl_columns_and_ranks_by_overall_accuracy) {
  auto r = run_tooluse(report_args("csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 5u) << r.out;
  EXPECT_EQ(lines[0].rfind("Rank,Overall Acc,Model,Model Link,Organization,License,AST Summary,Exec Summary,"
                           "Simple Function AST,Python Simple Function AST,Java Simple Function AST",
                           0),
            0u)
      << lines[0];
  // Overall: 1247/1390 claude, 1199 gpt-4o FC, 1168 gorilla, 982 Hermes.
  EXPECT_EQ(lines[1].rfind("1,89.71%,claude-3-5-sonnet-20240620,", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("2,86.26%,gpt-4o-2024-08-06-FC,", 0), 0u) << lines[2];
  EXPECT_EQ(lines[3].rfind("3,84.03%,gorilla-openfunctions-v2,", 0), 0u) << lines[3];
  EXPECT_EQ(lines[4].rfind("4,70.65%,NousResearch_Hermes-2-Pro-Llama-3-8B,", 0), 0u) << lines[4];
  EXPECT_NE(lines[3].find(",95.00%,67.00%,72.00%,95.50%,87.00%,87.00%,N/A,"), std::string::npos) << lines[3];
}

TEST(eval_report_cli, markdown_is_a_table) {
  auto r = run_tooluse(report_args("markdown"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out;
  EXPECT_EQ(lines[0].rfind("| Rank | Overall Acc | Model |", 0), 0u) << lines[0];
  EXPECT_EQ(lines[2].rfind("| 1 | 89.71% | claude-3-5-sonnet-20240620 |", 0), 0u) << lines[2];
}

TEST(eval_report_cli, the_html_page_sorts_and_draws_bars_in_a_browser) {
  std::string browser = chromium_path();
  if (browser.empty()) TOOLUSE_PEER_MISSING("chromium is not installed (scripts/packages.txt)");
  temp_dir dir;
  auto page = dir.path() / "board.html";
  auto args = report_args("html");
  args.insert(args.end(), {"--out", page.string()});
  auto r = run_tooluse(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + page.string() + " (4 models)"), std::string::npos) << r.out;
  int status = 0;
  std::string dom = rendered_dom(browser, "file://" + page.string() + "#sort=Relevance%20Detection", dir.path() / "profile", status);
  ASSERT_EQ(status, 0);
  EXPECT_NE(dom.find("data-ready=\"1\""), std::string::npos) << dom.substr(0, 2000);
  EXPECT_NE(dom.find("data-sorted-by=\"Relevance Detection\""), std::string::npos);
  // Sorted by relevance: gpt-4o FC (87.92%) comes before claude (84.17%), though claude ranks first overall.
  auto gpt = dom.find("<td>gpt-4o-2024-08-06-FC</td>"), claude = dom.find("<td>claude-3-5-sonnet-20240620</td>");
  ASSERT_NE(gpt, std::string::npos);
  ASSERT_NE(claude, std::string::npos);
  EXPECT_LT(gpt, claude);
  // Six charts of four bars.
  std::size_t bars = 0;
  for (auto at = dom.find("class=\"bar\""); at != std::string::npos; at = dom.find("class=\"bar\"", at + 1)) ++bars;
  EXPECT_EQ(bars, 24u);
}

TEST(eval_report_cli, a_bad_format_or_folder_is_a_usage_error) {
  auto r = run_tooluse(report_args("pdf"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("csv, markdown or html"), std::string::npos) << r.err;
  auto missing = run_tooluse({"eval", "report", "--data", "d", "--results", "no/such"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no/such"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace tooluse::testing
