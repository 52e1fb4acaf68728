// Index this repository's docs and sources, then check that searches return the relevant
// files first, in this process and from the CLI in separate processes (persistence).
#include <gtest/gtest.h>

#include <cstdio>

#include "support/test_support.hpp"
#include "tooluse/builtin/document_search.hpp"
#include "tooluse/json.hpp"

namespace {
namespace fs = std::filesystem;
using tooluse::builtin::document_index;

const fs::path source_dir = TOOLUSE_SOURCE_DIR;

struct expectation {
  const char* query;
  const char* expected;  // a path fragment one of the top 3 ids must contain
};

const expectation cases[] = {
    {"path traversal symlink leads outside the root folder refused", "src/builtin/path_guard"},
    {"time zone locate_zone ambiguous nonexistent local time", "src/builtin/time_zones"},
    {"bubblewrap sandbox unshare network writable work folder", "src/sandbox/"},
    {"FTS5 bm25 snippet sqlite index", "document_"},
    {"registry listener replace unregister tool name", "tools/registry"},
};

bool top3_contains(const std::vector<std::string>& ids, const std::string& fragment) {
  for (std::size_t i = 0; i < ids.size() && i < 3; ++i)
    if (ids[i].find(fragment) != std::string::npos) return true;
  return false;
}

void index_repository(document_index& index) {
  for (const char* dir : {"docs", "design", "src", "include"}) {
    auto ids = tooluse::builtin::add_files(index, source_dir / dir);
    ASSERT_TRUE(ids) << ids.error().message;
  }
}

TEST(document_search_relevance, repository_sources_rank_relevant_files_first) {
  auto index = document_index::open(":memory:");
  ASSERT_TRUE(index);
  index_repository(**index);
  ASSERT_GT(*(*index)->size(), 20u);
  for (const auto& c : cases) {
    auto hits = (*index)->search(c.query, 5);
    ASSERT_TRUE(hits) << hits.error().message;
    std::vector<std::string> ids;
    for (const auto& h : *hits) ids.push_back(h.id);
    EXPECT_TRUE(top3_contains(ids, c.expected))
        << "query \"" << c.query << "\" expected " << c.expected << " in the top 3, got "
        << tooluse::json(ids).dump(1);
  }
}

std::string run(const std::string& command, int& status) {
  return tooluse::testing::run_shell(command, status);
}

TEST(document_search_relevance, cli_index_persists_across_processes) {
  tooluse::testing::temp_dir dir;
  std::string cli = TOOLUSE_CLI_PATH;
  std::string index = (dir.path() / "ix.sqlite").string();
  int status = -1;
  std::string added = run(cli + " index --index " + index + " add " + (source_dir / "src").string() +
                              " " + (source_dir / "docs").string() + " 2>&1",
                          status);
  ASSERT_EQ(status, 0) << added;
  EXPECT_NE(added.find("indexed"), std::string::npos) << added;
  std::string out = run(cli + " index --index " + index +
                            " search 'bubblewrap sandbox unshare network' --json -n 3 2>&1",
                        status);
  ASSERT_EQ(status, 0) << out;
  auto hits = tooluse::parse_json(out);
  ASSERT_TRUE(hits) << out;
  ASSERT_FALSE(hits->empty());
  EXPECT_NE((*hits)[0]["id"].get<std::string>().find("src/sandbox/"), std::string::npos) << out;
  EXPECT_NE((*hits)[0]["snippet"].get<std::string>().find("["), std::string::npos);
  // A third process removes a document; a fourth no longer finds it.
  std::string id = (*hits)[0]["id"];
  run(cli + " index --index " + index + " remove '" + id + "'", status);
  EXPECT_EQ(status, 0);
  out = run(cli + " index --index " + index + " search 'bubblewrap sandbox' --json -n 10", status);
  EXPECT_EQ(out.find(id), std::string::npos);
}

}  // namespace
