// `tooluse run --tool-format`: prompt-based tool calling over a plain chat endpoint. The fake
// model writes its call as Hermes text; tooluse must describe the tools in the system prompt,
// send no `tools` field, parse the call out of the text, run it, and feed the result back.
#include <gtest/gtest.h>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

TEST(tool_format_cli, hermes_text_calls_run_through_the_agent_loop) {
  fake_llm_server server;
  temp_dir dir;
  server.push(openai_response(
      {.text = "Let me compute.\n<tool_call>\n{\"name\": \"calculator\", \"arguments\": "
               "{\"expression\": \"13!\"}}\n</tool_call>"},
      false));
  server.push(openai_response({.text = "13! is 6227020800."}, false));
  auto r = run_tooluse({"run", "What is 13!?", "--provider", "openai", "--base-url",
                        server.url("/v1"), "--model", "local", "--tools", "calculator",
                        "--no-stream", "--tool-format", "hermes"},
                       {}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("6227020800"), std::string::npos) << r.out;
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  json first = reqs[0].json_body();
  EXPECT_FALSE(first.contains("tools")) << first.dump();
  EXPECT_NE(first["messages"][0]["content"].get<std::string>().find("<tools>"),
            std::string::npos);
  // The tool's answer went back to the model as text in the second request.
  EXPECT_NE(reqs[1].json_body()["messages"].dump().find("6227020800"), std::string::npos);
}

TEST(tool_format_cli, auto_reads_a_call_in_another_format_while_streaming) {
  // --tool-format auto announces the tools in the Hermes syntax but reads any format: this model
  // answers with a Python call list, streamed in small chunks.
  fake_llm_server server;
  temp_dir dir;
  server.push(openai_response({.text = "Computing. [calculator(expression='6*7')]"}, true));
  server.push(openai_response({.text = "It is 42."}, true));
  auto r = run_tooluse({"run", "What is 6*7?", "--provider", "openai", "--base-url",
                        server.url("/v1"), "--model", "local", "--tools", "calculator",
                        "--stream", "--tool-format", "auto"},
                       {}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "Computing. \nIt is 42.\n");
  EXPECT_NE(r.err.find("[tool] calculator {\"expression\":\"6*7\"}"), std::string::npos) << r.err;
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  json first = reqs[0].json_body();
  EXPECT_FALSE(first.contains("tools")) << first.dump();
  EXPECT_EQ(first["stream"], true);
  EXPECT_NE(first["messages"][0]["content"].get<std::string>().find("<tool_call>"),
            std::string::npos);
  EXPECT_NE(reqs[1].json_body()["messages"].dump().find("42"), std::string::npos);
}

TEST(tool_format_cli, unknown_format_is_a_usage_error_listing_the_names) {
  temp_dir dir;
  auto r = run_tooluse({"run", "hi", "--provider", "openai", "--base-url",
                        "http://127.0.0.1:9/v1", "--tool-format", "klingon"},
                       {}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("hermes"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tooluse::testing
