// `tooluse index add|search|list|remove` through the real binary, on an index file in the test's
// folder: what each prints, the --json shape of a search, where the index lives by default
// ($TOOLUSE_INDEX, then ~/.local/share), and the exit status and message of each error.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "support/cli_process.hpp"
#include "tooluse/json.hpp"

namespace tooluse::testing {
namespace {

class index_cli : public ::testing::Test {
 protected:
  std::filesystem::path write(const std::string& name, const std::string& text) {
    auto p = dir.path() / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  // tooluse runs the CLI with --index on the test's own index file (unless `own_index` is false).
  cli_outcome tooluse(std::vector<std::string> args, bool own_index = true,
                      const std::map<std::string, std::string>& env = {}) {
    if (own_index) args.insert(args.begin() + 1, {"--index", index().string()});
    return run_tooluse(args, env, dir.path());
  }
  std::filesystem::path index() const { return dir.path() / "idx" / "docs.sqlite"; }
  temp_dir dir;
};

TEST_F(index_cli, add_a_folder_then_search_list_and_remove) {
  auto a = write("docs/raft.md", "Raft elects a leader with randomized election timeouts.\n");
  auto b = write("docs/paxos.txt", "Paxos reaches consensus through prepare and accept phases.\n");
  write("docs/.hidden/secret.txt", "leader of the hidden folder\n");
  write("docs/node_modules/pkg/readme.md", "leader in node_modules\n");
  write("docs/blob.bin", std::string("\0\1\2leader\0", 10));

  auto add = tooluse({"index", "add", (dir.path() / "docs").string()});
  ASSERT_EQ(add.exit_code, 0) << add.err;
  EXPECT_EQ(add.out, "indexed 2 file(s); the index holds 2 document(s)\n");
  EXPECT_TRUE(std::filesystem::exists(index()));  // the parent folder is made

  auto list = tooluse({"index", "list"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(list.out, b.string() + "  " + std::to_string(std::filesystem::file_size(b)) +
                          " bytes\n" + a.string() + "  " +
                          std::to_string(std::filesystem::file_size(a)) + " bytes\n");
  auto first = tooluse({"index", "list", "-n", "1"});
  EXPECT_EQ(std::count(first.out.begin(), first.out.end(), '\n'), 1) << first.out;

  auto search = tooluse({"index", "search", "leader election"});
  ASSERT_EQ(search.exit_code, 0) << search.err;
  EXPECT_EQ(search.out.rfind("1. " + a.string() + "  (score ", 0), 0u) << search.out;
  EXPECT_NE(search.out.find("[leader]"), std::string::npos) << search.out;
  EXPECT_EQ(search.out.find("paxos"), std::string::npos) << search.out;

  auto removed = tooluse({"index", "remove", a.string()});
  ASSERT_EQ(removed.exit_code, 0) << removed.err;
  EXPECT_EQ(removed.out, "removed " + a.string() + "\n");
  auto none = tooluse({"index", "search", "leader"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out, "no matches\n");
}

TEST_F(index_cli, search_json_gives_id_title_score_and_snippet_best_first) {
  auto strong = write("strong.md", "quorum quorum quorum: a quorum is a majority of the nodes\n");
  auto weak = write("weak.md", "one mention of a quorum among many other words about disks, "
                               "caches, schedulers, file systems and network cards\n");
  ASSERT_EQ(tooluse({"index", "add", strong.string(), weak.string()}).exit_code, 0);
  auto r = tooluse({"index", "search", "quorum", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json hits = json::parse(r.out);
  ASSERT_EQ(hits.size(), 2u) << r.out;
  EXPECT_EQ(hits[0]["id"], strong.string());
  EXPECT_EQ(hits[0]["title"], "strong.md");
  EXPECT_EQ(hits[1]["id"], weak.string());
  EXPECT_GE(hits[0]["score"].get<double>(), hits[1]["score"].get<double>());
  EXPECT_NE(hits[1]["snippet"].get<std::string>().find("[quorum]"), std::string::npos) << r.out;
  auto limited = tooluse({"index", "search", "quorum", "--json", "--limit", "1"});
  EXPECT_EQ(json::parse(limited.out).size(), 1u);
  // A limit below one still returns the best hit.
  auto zero = tooluse({"index", "search", "quorum", "--json", "-n", "0"});
  EXPECT_EQ(json::parse(zero.out).size(), 1u) << zero.out;
  auto empty = tooluse({"index", "search", "absent", "--json"});
  EXPECT_EQ(json::parse(empty.out), json::array());
}

TEST_F(index_cli, adding_a_file_again_replaces_it) {
  auto f = write("note.txt", "apples\n");
  ASSERT_EQ(tooluse({"index", "add", f.string()}).exit_code, 0);
  write("note.txt", "oranges\n");
  auto again = tooluse({"index", "add", f.string()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, "indexed 1 file(s); the index holds 1 document(s)\n");
  EXPECT_EQ(tooluse({"index", "search", "apples"}).out, "no matches\n");
  EXPECT_NE(tooluse({"index", "search", "oranges"}).out.find(f.string()), std::string::npos);
}

TEST_F(index_cli, the_default_index_is_tooluse_index_then_under_home) {
  auto f = write("doc.txt", "lighthouse keeper\n");
  auto env_index = dir.path() / "env.sqlite";
  auto by_env = tooluse({"index", "add", f.string()}, false, {{"TOOLUSE_INDEX", env_index.string()}});
  ASSERT_EQ(by_env.exit_code, 0) << by_env.err;
  EXPECT_TRUE(std::filesystem::exists(env_index));
  auto by_home = tooluse({"index", "add", f.string()}, false);
  ASSERT_EQ(by_home.exit_code, 0) << by_home.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / ".local/share/tooluse/index.sqlite"));
  // --index wins over $TOOLUSE_INDEX: the test's own index was never made, and reading it
  // says so instead of creating it empty.
  auto own = tooluse({"index", "list"}, true, {{"TOOLUSE_INDEX", env_index.string()}});
  EXPECT_EQ(own.exit_code, 2) << own.err;
  EXPECT_EQ(own.out, "");
  EXPECT_EQ(own.err, "tooluse: no index \"" + index().string() +
                         "\"; create it by adding documents: tooluse index add PATH --index " +
                         index().string() + "\n");
  EXPECT_FALSE(std::filesystem::exists(index()));
}

TEST_F(index_cli, the_group_flag_may_follow_the_subcommand) {
  auto f = write("doc.txt", "lighthouse keeper\n");
  ASSERT_EQ(tooluse({"index", "add", f.string()}).exit_code, 0);
  auto r =
      run_tooluse({"index", "search", "lighthouse", "--index", index().string()}, {}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(f.string()), std::string::npos) << r.out;
}

TEST_F(index_cli, errors_say_what_is_wrong_with_their_exit_status) {
  auto missing = tooluse({"index", "add", (dir.path() / "nope.txt").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "tooluse: \"" + (dir.path() / "nope.txt").string() + "\" does not exist\n");
  auto binary = write("image.bin", std::string("\x89PNG\0\0\0\r", 8));
  auto bin = tooluse({"index", "add", binary.string()});
  EXPECT_EQ(bin.exit_code, 1);
  EXPECT_NE(bin.err.find("is binary; only text can be indexed"), std::string::npos) << bin.err;

  ASSERT_EQ(tooluse({"index", "add", write("doc.txt", "text\n").string()}).exit_code, 0);
  auto unknown = tooluse({"index", "remove", "/no/such/doc"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_EQ(unknown.err,
            "tooluse: no document with id \"/no/such/doc\"\n`tooluse index list` "
            "shows the ids (a file's absolute path).\n");
  auto empty_query = tooluse({"index", "search", "  ... "});
  EXPECT_EQ(empty_query.exit_code, 2);
  EXPECT_EQ(empty_query.err, "tooluse: the query has no words to search for\n");

  // An index path that cannot be a database (a folder) is a usage error.
  std::filesystem::create_directories(dir.path() / "a_folder");
  auto folder = run_tooluse({"index", "--index", (dir.path() / "a_folder").string(), "list"}, {},
                            dir.path());
  EXPECT_EQ(folder.exit_code, 2);
  EXPECT_NE(folder.err.find("document index"), std::string::npos) << folder.err;
}

}  // namespace
}  // namespace tooluse::testing
