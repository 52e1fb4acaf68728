// `tooluse run` against the fake model server over loopback, for both providers, streaming and
// not. Each test scripts the model's turns and asserts on the exact requests the server got.
#include <gtest/gtest.h>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

struct variant {
  bool anthropic;
  bool stream;
};

std::string variant_name(const ::testing::TestParamInfo<variant>& info) {
  return std::string(info.param.anthropic ? "anthropic" : "openai") +
         (info.param.stream ? "_stream" : "_json");
}

class agent_cli : public ::testing::TestWithParam<variant> {
 protected:
  fake_llm_server server;
  temp_dir dir;

  // The server rejects what the real API would (call ids, roles, replayed content).
  void SetUp() override {
    server.check_requests(anthropic() ? wire_format::anthropic : wire_format::openai_chat);
  }

  bool anthropic() const { return GetParam().anthropic; }
  bool stream() const { return GetParam().stream; }

  void push(const fake_turn& t) {
    server.push(anthropic() ? anthropic_response(t, stream()) : openai_response(t, stream()));
  }

  cli_outcome run(std::vector<std::string> extra, const std::string& question = "What is 2*3?") {
    std::vector<std::string> args = {"run",
                                     question,
                                     "--provider",
                                     anthropic() ? "anthropic" : "openai",
                                     "--base-url",
                                     server.url(anthropic() ? "" : "/v1"),
                                     "--model",
                                     "fake-model",
                                     "--tools",
                                     "calculator",
                                     stream() ? "--stream" : "--no-stream"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_tooluse(args, {{"OPENAI_API_KEY", "sk-test"}, {"ANTHROPIC_API_KEY", "sk-ant-test"}},
                       dir.path());
  }

  // tool_results returns, from a request body, the tool results it carries: (id, text, error).
  struct sent_result {
    std::string id;
    std::string text;
    bool is_error = false;
  };
  std::vector<sent_result> tool_results(const json& body) const {
    std::vector<sent_result> out;
    for (const auto& m : body["messages"]) {
      if (!anthropic() && m["role"] == "tool") {
        std::string text = m["content"].get<std::string>();
        out.push_back({m["tool_call_id"], text, text.rfind("Error", 0) == 0});
      }
      if (anthropic() && m["role"] == "user" && m["content"].is_array()) {
        for (const auto& b : m["content"]) {
          if (b["type"] != "tool_result") continue;
          std::string text = b["content"].is_string() ? b["content"].get<std::string>()
                                                      : b["content"][0]["text"].get<std::string>();
          out.push_back({b["tool_use_id"], text, b.value("is_error", false)});
        }
      }
    }
    return out;
  }

  std::string path() const { return anthropic() ? "/v1/messages" : "/v1/chat/completions"; }
};

TEST_P(agent_cli, parallel_calls_are_answered_with_matching_ids_in_call_order) {
  push({.calls = {{"call_a", "calculator", R"({"expression":"2*3"})"},
                  {"call_b", "calculator", R"({"expression":"4*5"})"}}});
  push({.text = "The results are 6 and 20."});
  auto r = run({});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "The results are 6 and 20.\n");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].target, path());
  json first = reqs[0].json_body();
  EXPECT_EQ(first["model"], "fake-model");
  EXPECT_EQ(first.value("stream", false), stream());
  if (anthropic()) {
    EXPECT_EQ(reqs[0].header("x-api-key"), "sk-ant-test");
    EXPECT_EQ(reqs[0].header("anthropic-version"), "2023-06-01");
    EXPECT_EQ(first["tools"][0]["name"], "calculator");
    EXPECT_TRUE(first["tools"][0].contains("input_schema"));
    EXPECT_EQ(first["messages"], json::parse(R"([{"role":"user","content":"What is 2*3?"}])"));
  } else {
    EXPECT_EQ(reqs[0].header("authorization"), "Bearer sk-test");
    EXPECT_EQ(first["tools"][0]["type"], "function");
    EXPECT_EQ(first["tools"][0]["function"]["name"], "calculator");
    EXPECT_EQ(first["messages"], json::parse(R"([{"role":"user","content":"What is 2*3?"}])"));
    if (stream()) {
      EXPECT_EQ(first["stream_options"]["include_usage"], true);
    }
  }
  json second = reqs[1].json_body();
  auto results = tool_results(second);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].id, "call_a");
  EXPECT_EQ(results[0].text, "6");
  EXPECT_EQ(results[1].id, "call_b");
  EXPECT_EQ(results[1].text, "20");
  // The assistant message with both calls is replayed before the results.
  const json& assistant = second["messages"][1];
  EXPECT_EQ(assistant["role"], "assistant");
  if (anthropic()) {
    EXPECT_EQ(assistant["content"][0]["type"], "tool_use");
    EXPECT_EQ(assistant["content"][0]["id"], "call_a");
    EXPECT_EQ(assistant["content"][1]["input"], json::parse(R"({"expression":"4*5"})"));
    EXPECT_EQ(second["messages"].size(), 3u);  // user, assistant, one user with both results
  } else {
    EXPECT_EQ(assistant["tool_calls"][1]["id"], "call_b");
    EXPECT_EQ(assistant["tool_calls"][1]["function"]["arguments"], R"({"expression":"4*5"})");
    EXPECT_EQ(second["messages"].size(), 4u);
  }
  EXPECT_NE(r.err.find("[tool] calculator"), std::string::npos);
}

TEST_P(agent_cli, forced_tool_choice_applies_to_the_first_request_only) {
  push({.calls = {{"call_1", "calculator", R"({"expression":"7*6"})"}}});
  push({.text = "42"});
  auto r = run({"--tool-choice", "calculator", "--no-parallel"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  json first = reqs[0].json_body(), second = reqs[1].json_body();
  if (anthropic()) {
    EXPECT_EQ(
        first["tool_choice"],
        json::parse(R"({"type":"tool","name":"calculator","disable_parallel_tool_use":true})"));
    EXPECT_EQ(second["tool_choice"],
              json::parse(R"({"type":"auto","disable_parallel_tool_use":true})"));
  } else {
    EXPECT_EQ(first["tool_choice"],
              json::parse(R"({"type":"function","function":{"name":"calculator"}})"));
    EXPECT_EQ(first["parallel_tool_calls"], false);
    EXPECT_FALSE(second.contains("tool_choice"));
  }
}

TEST_P(agent_cli, a_tool_error_goes_back_to_the_model_flagged) {
  push({.calls = {{"call_1", "calculator", R"({"expression":"1/0"})"}}});
  push({.text = "Division by zero is undefined."});
  auto r = run({"--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto out = json::parse(r.out);
  EXPECT_EQ(out["answer"], "Division by zero is undefined.");
  EXPECT_EQ(out["turns"], 2);
  ASSERT_EQ(out["tool_calls"].size(), 1u);
  EXPECT_EQ(out["tool_calls"][0]["name"], "calculator");
  EXPECT_EQ(out["tool_calls"][0]["is_error"], true);
  auto results = tool_results(server.requests().at(1).json_body());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].is_error);
  EXPECT_EQ(results[0].id, "call_1");
}

TEST_P(agent_cli, malformed_arguments_are_returned_with_the_schema_and_corrected) {
  push({.calls = {{"call_1", "calculator", R"({"expression":42})"}}});
  push({.calls = {{"call_2", "calculator", R"({"expression":"6*7"})"}}});
  push({.text = "It is 42."});
  auto r = run({});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "It is 42.\n");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 3u);
  auto first = tool_results(reqs[1].json_body());
  ASSERT_EQ(first.size(), 1u);
  EXPECT_TRUE(first[0].is_error);
  EXPECT_NE(first[0].text.find("expression"), std::string::npos) << first[0].text;
  auto second = tool_results(reqs[2].json_body());
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[1].id, "call_2");
  EXPECT_EQ(second[1].text, "42");
  EXPECT_FALSE(second[1].is_error);
}

TEST_P(agent_cli, max_turns_reached_fails_with_a_clear_message) {
  push({.calls = {{"c1", "calculator", R"({"expression":"1+1"})"}}});
  push({.calls = {{"c2", "calculator", R"({"expression":"2+2"})"}}});
  auto r = run({"--max-turns", "2"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("max_turns (2) reached"), std::string::npos) << r.err;
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST_P(agent_cli, rate_limit_429_is_retried_after_retry_after) {
  server.push(error_response(429, "slow down", 0));
  push({.text = "6"});
  auto r = run({});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "6\n");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].body, reqs[1].body);
}

TEST_P(agent_cli, persistent_server_error_is_reported) {
  for (int i = 0; i < 4; ++i) server.push(error_response(503, "overloaded", 0));
  auto r = run({});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("HTTP 503"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("overloaded"), std::string::npos) << r.err;
  EXPECT_EQ(server.requests().size(), 4u);  // one try and three retries
}

TEST_P(agent_cli, record_then_replay_reproduces_the_run_byte_for_byte) {
  push({.calls = {{"call_a", "calculator", R"({"expression":"2*3"})"}}});
  push({.text = "The answer is 6."});
  auto file = (dir.path() / "run.jsonl").string();
  auto recorded = run({"--record", file});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
  EXPECT_EQ(read_file(file).find("sk-"), std::string::npos);  // keys are never recorded
  auto replayed = run({"--replay", file});
  ASSERT_EQ(replayed.exit_code, 0) << replayed.err;
  EXPECT_EQ(replayed.out, recorded.out);
  EXPECT_EQ(server.requests().size(), 2u);  // the replay made no request
  auto changed = run({"--replay", file}, "a different question");
  EXPECT_EQ(changed.exit_code, 1);
  EXPECT_NE(changed.err.find("differs from the recording"), std::string::npos) << changed.err;
}

INSTANTIATE_TEST_SUITE_P(providers, agent_cli,
                         ::testing::Values(variant{false, false}, variant{false, true},
                                           variant{true, false}, variant{true, true}),
                         variant_name);

class agent_cli_stream : public agent_cli {};

TEST_P(agent_cli_stream, a_stream_cut_mid_way_is_reported_as_an_error) {
  scripted_response cut = anthropic() ? anthropic_response({.text = "The answer is six."}, true)
                                      : openai_response({.text = "The answer is six."}, true);
  cut.cut_after = 3;
  server.push(cut);
  auto r = run({});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cut"), std::string::npos) << r.err;
  EXPECT_EQ(server.requests().size(), 1u);  // nothing is retried once bytes were streamed
}

INSTANTIATE_TEST_SUITE_P(providers, agent_cli_stream,
                         ::testing::Values(variant{false, true}, variant{true, true}),
                         variant_name);

TEST(agent_cli_config, no_provider_configured_says_how_to_configure_one) {
  temp_dir dir;
  auto r = run_tooluse({"run", "hello"}, {}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no model provider is configured"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("OPENAI_API_KEY"), std::string::npos);
  EXPECT_NE(r.err.find("config.toml"), std::string::npos);
}

}  // namespace
}  // namespace tooluse::testing
