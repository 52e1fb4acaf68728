// A recording's lines are decoded through a wire type (record_replay.cpp): a hand-edited line
// of the wrong shape is refused when loaded, naming the line and the path of the field; fields
// a later version adds are ignored.
#include <gtest/gtest.h>

#include <fstream>

#include "support/test_support.hpp"
#include "tooluse/llm/record_replay.hpp"

namespace tooluse::llm {
namespace {

std::string load_error(const tooluse::testing::temp_dir& dir, const std::string& line) {
  std::string file = (dir.path() / "r.jsonl").string();
  std::ofstream(file, std::ios::trunc) << line << "\n";
  auto rep = replay_transport(file);
  if (rep) return "";
  EXPECT_EQ(rep.error().code, errc::parse_error);
  auto at = rep.error().message.find("line 1 is not an exchange: ");
  return at == std::string::npos ? rep.error().message
                                 : rep.error().message.substr(at + 27);
}

TEST(replay_wire, a_bad_line_names_the_field_path) {
  tooluse::testing::temp_dir dir;
  EXPECT_EQ(load_error(dir, R"({"request":{"method":"GET","url":"u","body":""},)"
                            R"("response":{"status":200,"headers":[["a","b"],["only"]],"chunks":[]}})"),
            "exchange.response.headers[1]: expected exactly 2 items, got 1");
  EXPECT_EQ(load_error(dir, R"({"request":{"method":"GET","body":""},)"
                            R"("response":{"status":200,"headers":[],"chunks":[]}})"),
            "exchange.request: missing required property \"url\"");
  EXPECT_EQ(load_error(dir, R"({"request":{"method":"GET","url":"u","body":""},)"
                            R"("response":{"status":200,"headers":[],"chunks":["a",1]},"error":{"code":3}})"),
            "exchange.response.chunks[1]: expected string, got integer 1");
}

TEST(replay_wire, unknown_fields_are_ignored_and_the_exchange_replays) {
  tooluse::testing::temp_dir dir;
  std::string file = (dir.path() / "r.jsonl").string();
  std::ofstream(file) << R"({"version":2,"request":{"method":"POST","url":"u","body":"q","at":1},)"
                      << R"("response":{"status":201,"headers":[["X","y"]],"chunks":["a","b"],)"
                      << R"("ms":5}})" << "\n";
  auto rep = replay_transport(file);
  ASSERT_TRUE(rep) << rep.error().message;
  auto res = (*rep)({.method = "POST", .url = "u", .body = "q"}, {});
  ASSERT_TRUE(res) << res.error().message;
  EXPECT_EQ(res->status, 201);
  EXPECT_EQ(res->body, "ab");
  ASSERT_EQ(res->headers.size(), 1u);
  EXPECT_EQ(res->headers[0].value, "y");
}

}  // namespace
}  // namespace tooluse::llm
