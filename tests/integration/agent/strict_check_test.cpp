// The strict fake server's checks fail where the real APIs fail: these feed check_request
// requests that break one rule each and expect it named.
#include <gtest/gtest.h>

#include "support/fake_llm_server.hpp"

namespace tooluse::testing {
namespace {

recorded_request post(std::string target, const json& body,
                      std::vector<std::pair<std::string, std::string>> headers) {
  return {.method = "POST",
          .target = std::move(target),
          .headers = std::move(headers),
          .body = dump_json(body)};
}

recorded_request responses(const json& input) {
  return post("/v1/responses", {{"model", "m"}, {"input", input}}, {{"Authorization", "Bearer k"}});
}

recorded_request gemini(const json& contents, const json& extra = json::object()) {
  json body = {{"contents", contents}};
  for (auto& [k, v] : extra.items()) body[k] = v;
  return post("/v1beta/models/m:generateContent", body, {{"x-goog-api-key", "k"}});
}

TEST(strict_check, responses_requires_reasoning_items_and_matched_call_ids) {
  json earlier =
      responses_response({.calls = {{"c1", "f", "{}"}}, .reasoning = "r"}, false).turn_output;
  json reasoning = earlier[0], call = earlier[1];
  json user = {{"role", "user"}, {"content", "q"}};
  json output = {{"type", "function_call_output"}, {"call_id", "c1"}, {"output", "ok"}};
  EXPECT_EQ(check_request(wire_format::openai_responses,
                          responses(json::array({user, reasoning, call, output})), {earlier}),
            "");
  EXPECT_NE(check_request(wire_format::openai_responses,
                          responses(json::array({user, call, output})), {earlier})
                .find("reasoning items must be passed back"),
            std::string::npos);
  EXPECT_NE(check_request(wire_format::openai_responses,
                          responses(json::array({user, reasoning, call})), {earlier})
                .find("no function_call_output for call_id c1"),
            std::string::npos);
  json wrong = output;
  wrong["call_id"] = "c2";
  EXPECT_NE(check_request(wire_format::openai_responses,
                          responses(json::array({user, reasoning, call, wrong})), {earlier})
                .find("unknown call_id c2"),
            std::string::npos);
}

TEST(strict_check, gemini_requires_signatures_order_roles_and_mode_rules) {
  json parts = gemini_response({.calls = {{"a", "f", "{}"}, {"b", "g", "{}"}}}, false).turn_output;
  json user = {{"role", "user"}, {"parts", json::array({{{"text", "q"}}})}};
  auto response = [](const char* id, const char* name) {
    return json{
        {"functionResponse", {{"id", id}, {"name", name}, {"response", {{"result", "x"}}}}}};
  };
  json answers = {{"role", "user"},
                  {"parts", json::array({response("a", "f"), response("b", "g")})}};
  json model = {{"role", "model"}, {"parts", parts}};
  EXPECT_EQ(
      check_request(wire_format::gemini, gemini(json::array({user, model, answers})), {parts}), "");
  json unsigned_model = model;
  unsigned_model["parts"][0].erase("thoughtSignature");
  EXPECT_NE(check_request(wire_format::gemini, gemini(json::array({user, unsigned_model, answers})),
                          {parts})
                .find("thought_signature"),
            std::string::npos);
  json swapped = {{"role", "user"},
                  {"parts", json::array({response("b", "g"), response("a", "f")})}};
  EXPECT_NE(check_request(wire_format::gemini, gemini(json::array({user, model, swapped})), {parts})
                .find("order must match"),
            std::string::npos);
  json function_role = answers;
  function_role["role"] = "function";
  EXPECT_NE(
      check_request(wire_format::gemini, gemini(json::array({user, model, function_role})), {parts})
          .find("role must be user or model"),
      std::string::npos);
  json config = {
      {"tools", json::array({{{"functionDeclarations", json::array({{{"name", "f"}}})}}})},
      {"toolConfig",
       {{"functionCallingConfig", {{"mode", "AUTO"}, {"allowedFunctionNames", {"f"}}}}}}};
  EXPECT_NE(check_request(wire_format::gemini, gemini(json::array({user}), config), {})
                .find("needs mode ANY or VALIDATED"),
            std::string::npos);
}

TEST(strict_check, chat_and_anthropic_require_every_call_answered_in_order) {
  json calls = openai_response({.calls = {{"x", "f", "{}"}, {"y", "f", "{}"}}}, false).turn_output;
  json msgs = json::array({{{"role", "user"}, {"content", "q"}},
                           calls,
                           {{"role", "tool"}, {"tool_call_id", "y"}, {"content", "1"}},
                           {{"role", "tool"}, {"tool_call_id", "x"}, {"content", "2"}}});
  auto r = post("/v1/chat/completions", {{"model", "m"}, {"messages", msgs}},
                {{"Authorization", "Bearer k"}});
  EXPECT_NE(check_request(wire_format::openai_chat, r, {calls}).find("answering tool_call_id x"),
            std::string::npos);
  json content =
      anthropic_response({.calls = {{"t1", "f", "{}"}}, .reasoning = "r"}, false).turn_output;
  json no_thinking = json::array({content[1]});
  json amsgs = json::array(
      {{{"role", "user"}, {"content", "q"}},
       {{"role", "assistant"}, {"content", no_thinking}},
       {{"role", "user"},
        {"content",
         json::array({{{"type", "tool_result"}, {"tool_use_id", "t1"}, {"content", "ok"}}})}}});
  auto a = post("/v1/messages", {{"model", "m"}, {"max_tokens", 10}, {"messages", amsgs}},
                {{"x-api-key", "k"}, {"anthropic-version", "2023-06-01"}});
  EXPECT_NE(check_request(wire_format::anthropic, a, {content}).find("replayed unchanged"),
            std::string::npos);
}

}  // namespace
}  // namespace tooluse::testing
