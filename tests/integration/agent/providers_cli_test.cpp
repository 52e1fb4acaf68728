// `tooluse run --provider openai-responses|gemini` against the strict fake model server, which
// rejects what the real APIs reject (call ids, reasoning items and thought signatures replayed,
// function results in the right role and order). Streaming and not, parallel calls, tool choice
// and allowed tools, usage and cost, --max-cost, record/replay.
#include <gtest/gtest.h>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"

namespace tooluse::testing::providers_cli_test {
namespace {

struct variant {
  bool gemini;
  bool stream;
};

std::string variant_name(const ::testing::TestParamInfo<variant>& info) {
  return std::string(info.param.gemini ? "gemini" : "responses") +
         (info.param.stream ? "_stream" : "_json");
}

class providers_cli : public ::testing::TestWithParam<variant> {
 protected:
  void SetUp() override {
    server.check_requests(gemini() ? wire_format::gemini : wire_format::openai_responses);
  }
  bool gemini() const { return GetParam().gemini; }
  bool stream() const { return GetParam().stream; }

  void push(const fake_turn& t) {
    server.push(gemini() ? gemini_response(t, stream()) : responses_response(t, stream()));
  }

  std::vector<std::string> base_args(const std::string& question, const std::string& model) {
    return {"run",
            question,
            "--provider",
            gemini() ? "gemini" : "openai-responses",
            "--base-url",
            server.url(gemini() ? "" : "/v1"),
            "--model",
            model,
            stream() ? "--stream" : "--no-stream"};
  }

  cli_outcome run(std::vector<std::string> extra, const std::string& model = "fake-model",
                  const std::string& question = "What is 2*3 and 4*5?") {
    auto args = base_args(question, model);
    args.insert(args.end(), extra.begin(), extra.end());
    return run_tooluse(args, {{"OPENAI_API_KEY", "sk-test"}, {"GEMINI_API_KEY", "g-test"}},
                       dir.path());
  }

  // results returns the tool results a request body carries, in order: (id, name, text).
  struct sent_result {
    std::string id, name, text;
  };
  std::vector<sent_result> results(const json& body) const {
    std::vector<sent_result> out;
    if (gemini()) {
      for (const auto& c : body["contents"])
        for (const auto& p : c["parts"])
          if (p.contains("functionResponse")) {
            const json& fr = p["functionResponse"];
            const json& r = fr["response"];
            out.push_back({fr.value("id", ""), fr["name"],
                           r.contains("result") ? r["result"].get<std::string>()
                                                : "ERROR " + r["error"].get<std::string>()});
          }
    } else {
      for (const auto& it : body["input"])
        if (it.value("type", "") == "function_call_output")
          out.push_back({it["call_id"], "", it["output"]});
    }
    return out;
  }

  std::vector<std::string> tool_names(const json& body) const {
    std::vector<std::string> out;
    if (gemini()) {
      for (const auto& t : body.value("tools", json::array()))
        for (const auto& d : t["functionDeclarations"]) out.push_back(d["name"]);
    } else {
      for (const auto& t : body.value("tools", json::array())) out.push_back(t["name"]);
    }
    return out;
  }

  fake_llm_server server;
  temp_dir dir;
};

TEST_P(providers_cli, parallel_calls_are_answered_in_order_with_reasoning_and_signatures_replayed) {
  push({.calls = {{"call_a", "calculator", R"({"expression":"2*3"})"},
                  {"call_b", "calculator", R"({"expression":"4*5"})"}},
        .reasoning = "Two products; call the calculator twice."});
  push({.text = "The results are 6 and 20."});
  auto r = run({"--tools", "calculator"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "The results are 6 and 20.\n");
  EXPECT_TRUE(server.failures().empty()) << server.failures().front();
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  json first = reqs[0].json_body(), second = reqs[1].json_body();
  EXPECT_EQ(tool_names(first), std::vector<std::string>{"calculator"});
  if (gemini()) {
    EXPECT_EQ(reqs[0].target, stream() ? "/v1beta/models/fake-model:streamGenerateContent?alt=sse"
                                       : "/v1beta/models/fake-model:generateContent");
    EXPECT_EQ(reqs[0].header("x-goog-api-key"), "g-test");
    EXPECT_EQ(first["contents"],
              json::parse(R"([{"role":"user","parts":[{"text":"What is 2*3 and 4*5?"}]}])"));
    // The model turn comes back as sent: thought part, both calls, the signature on the first.
    const json& model_turn = second["contents"][1];
    EXPECT_EQ(model_turn["role"], "model");
    EXPECT_EQ(model_turn["parts"][1]["thoughtSignature"], "sig-call_a");
    EXPECT_EQ(second["contents"][2]["role"], "user");
    EXPECT_EQ(second["contents"].size(), 3u);
  } else {
    EXPECT_EQ(reqs[0].target, "/v1/responses");
    EXPECT_EQ(reqs[0].header("authorization"), "Bearer sk-test");
    EXPECT_EQ(first["tools"][0]["type"], "function");
    EXPECT_EQ(first["tools"][0].value("strict", true), false);
    EXPECT_EQ(first.value("stream", false), stream());
    const json& input = second["input"];
    ASSERT_EQ(input.size(), 6u) << input.dump();  // user, reasoning, 2 calls, 2 outputs
    EXPECT_EQ(input[1]["type"], "reasoning");
    EXPECT_EQ(input[1]["encrypted_content"], "enc-40");
    EXPECT_EQ(input[2]["call_id"], "call_a");
    EXPECT_EQ(input[3]["call_id"], "call_b");
  }
  auto sent = results(second);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].id, "call_a");
  EXPECT_EQ(sent[0].text, "6");
  EXPECT_EQ(sent[1].id, "call_b");
  EXPECT_EQ(sent[1].text, "20");
  if (gemini()) {
    EXPECT_EQ(sent[1].name, "calculator");
  }
}

TEST_P(providers_cli, tool_choice_and_allowed_tools_use_the_providers_modes) {
  push({.calls = {{"call_1", "calculator", R"({"expression":"7*6"})"}}});
  push({.text = "42"});
  auto r = run({"--tools", "calculator,datetime", "--allowed-tools", "calculator", "--tool-choice",
                "required"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(server.failures().empty()) << server.failures().front();
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  json first = reqs[0].json_body(), second = reqs[1].json_body();
  // The tool list stays whole (prompt cache); the allowed-tools mode narrows it.
  EXPECT_EQ(tool_names(first), (std::vector<std::string>{"calculator", "datetime"}));
  EXPECT_EQ(tool_names(second), tool_names(first));
  if (gemini()) {
    EXPECT_EQ(first["toolConfig"], json::parse(R"({"functionCallingConfig":{"mode":"ANY",
              "allowedFunctionNames":["calculator"]}})"));
    EXPECT_EQ(second["toolConfig"], json::parse(R"({"functionCallingConfig":{"mode":"VALIDATED",
              "allowedFunctionNames":["calculator"]}})"));
  } else {
    EXPECT_EQ(first["tool_choice"], json::parse(R"({"type":"allowed_tools","mode":"required",
              "tools":[{"type":"function","name":"calculator"}]})"));
    EXPECT_EQ(second["tool_choice"]["mode"], "auto");
  }
}

TEST_P(providers_cli, json_reports_usage_and_cost_from_the_price_catalog) {
  push({.calls = {{"call_1", "calculator", R"({"expression":"2*3"})"}},
        .input_tokens = 1000,
        .output_tokens = 100,
        .cached_tokens = 400});
  push({.text = "6", .input_tokens = 2000, .output_tokens = 50});
  std::string model = gemini() ? "gemini-2.5-flash" : "gpt-4.1";
  auto r = run({"--tools", "calculator", "--json"}, model);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto out = json::parse(r.out);
  EXPECT_EQ(out["usage"]["input_tokens"], 3000);
  EXPECT_EQ(out["usage"]["output_tokens"], 150);
  EXPECT_EQ(out["usage"]["cache_read_tokens"], 400);
  EXPECT_EQ(out["usage"]["requests"], 2);
  // gpt-4.1: 2600*2 + 400*0.5 + 150*8 per million; gemini-2.5-flash: 2600*0.3 + 400*0.03 + 150*2.5.
  double want = gemini() ? (2600 * 0.3 + 400 * 0.03 + 150 * 2.5) / 1e6
                         : (2600 * 2.0 + 400 * 0.5 + 150 * 8.0) / 1e6;
  EXPECT_NEAR(out["cost"].get<double>(), want, 1e-12);
  EXPECT_NEAR(out["usage"]["cost"].get<double>(), want, 1e-12);
}

TEST_P(providers_cli, max_cost_stops_before_the_request_that_would_pass_the_budget) {
  push({.calls = {{"call_1", "calculator", R"({"expression":"2*3"})"}},
        .input_tokens = 300,
        .output_tokens = 20});
  push({.text = "6"});
  // gpt-4.1: 300*2 + 20*8 = $0.00076 spent; the next request (~330 tokens in) would pass $0.001.
  // gemini-2.5-pro: 300*1.25 + 20*10 = $0.000575; the next ~$0.0006 would pass it too.
  std::string model = gemini() ? "gemini-2.5-pro" : "gpt-4.1";
  auto r = run({"--tools", "calculator", "--max-cost", "0.001"}, model);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::string spent = gemini() ? "$0.000575" : "$0.000760";
  EXPECT_NE(r.err.find("spent " + spent), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("$0.001000 budget"), std::string::npos) << r.err;
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST_P(providers_cli, max_cost_needs_a_catalogued_price) {
  auto r = run({"--tools", "calculator", "--max-cost", "0.001"}, "no-such-model");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not in the price catalog"), std::string::npos) << r.err;
  EXPECT_TRUE(server.requests().empty());
}

TEST_P(providers_cli, a_recorded_run_replays_without_the_server) {
  push({.calls = {{"call_a", "calculator", R"({"expression":"2*3"})"},
                  {"call_b", "calculator", R"({"expression":"4*5"})"}},
        .reasoning = "think"});
  push({.text = "6 and 20"});
  auto rec = (dir.path() / "run.jsonl").string();
  auto r = run({"--tools", "calculator", "--record", rec});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto again = run({"--tools", "calculator", "--replay", rec});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, "6 and 20\n");
  EXPECT_EQ(server.requests().size(), 2u);  // the replay sent nothing
}

INSTANTIATE_TEST_SUITE_P(all, providers_cli,
                         ::testing::Values(variant{false, false}, variant{false, true},
                                           variant{true, false}, variant{true, true}),
                         variant_name);

}  // namespace
}  // namespace tooluse::testing
