// `tooluse chat` with stdin from a file: history is kept across lines, /reset clears it,
// /tools lists the tools, /cost sums the session's usage, /exit ends the session.
#include <gtest/gtest.h>

#include <fstream>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

TEST(chat_cli, keeps_history_until_reset_and_lists_tools) {
  fake_llm_server server;
  temp_dir dir;
  server.push(openai_response({.text = "Hello Ada."}, true));
  server.push(openai_response({.text = "Your name is Ada."}, true));
  server.push(openai_response({.text = "I do not know."}, true));
  auto input = dir.path() / "input.txt";
  std::ofstream(input) << "My name is Ada.\nWhat is my name?\n/tools\n/reset\nWhat is my name?\n"
                          "/exit\nnever sent\n";
  auto r = run_tooluse({"chat", "--provider", "openai", "--base-url", server.url("/v1"),
                        "--model", "m", "--tools", "calculator"},
                       {}, dir.path(), input.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "Hello Ada.\nYour name is Ada.\ncalculator\nI do not know.\n");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_EQ(reqs[1].json_body()["messages"].size(), 3u);  // user, assistant, user
  EXPECT_EQ(reqs[2].json_body()["messages"].size(), 1u);  // after /reset
}

// /cost sums the session's requests, tokens and cost, as `run` prints them for one run.
TEST(chat_cli, cost_sums_the_session) {
  fake_llm_server server;
  temp_dir dir;
  server.push(openai_response({.text = "Hello."}, true));
  server.push(openai_response({.text = "Again."}, true));
  auto input = dir.path() / "input.txt";
  std::ofstream(input) << "/cost\nhi\n/cost\nhi again\n/cost\n/cots\n";
  auto r =
      run_tooluse({"chat", "--provider", "openai", "--base-url", server.url("/v1"), "--model", "m"},
                  {}, dir.path(), input.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string unpriced =
      "cost unknown (the model is not in the price catalog; see --prices)\n";
  EXPECT_EQ(r.out, "[usage] 0 requests, 0 input tokens, 0 output tokens, " + unpriced +
                       "Hello.\n[usage] 1 request, 10 input tokens, 5 output tokens, " + unpriced +
                       "Again.\n[usage] 2 requests, 20 input tokens, 10 output tokens, " +
                       unpriced);
  EXPECT_NE(r.err.find("unknown command /cots; did you mean /cost?"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tooluse::testing
