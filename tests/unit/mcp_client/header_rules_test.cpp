// The 2026-07-28 `x-mcp-header` rules the client applies to listed tools (a tool whose schema
// breaks them is dropped with a warning naming the rule) and the header value encoding with
// its Base64 sentinel for values HTTP cannot carry as they are.
#include <gtest/gtest.h>

#include "mcp_client/client_impl.hpp"

namespace header_rules_test {
namespace mcp = tooluse::mcp;
using tooluse::json;

namespace {

json tool(const std::string& name, json properties) {
  return {{"name", name},
          {"inputSchema", {{"type", "object"}, {"properties", std::move(properties)}}}};
}

json prop(const std::string& type, json header) {
  json p = {{"type", type}};
  if (!header.is_null()) p["x-mcp-header"] = std::move(header);
  return p;
}

// dropped_why runs the rules on one tool: "" when kept, else the warning.
std::string dropped_why(const json& t) {
  std::string warnings;
  auto kept = mcp::valid_header_tools({t}, &warnings);
  if (kept.size() == 1) {
    EXPECT_TRUE(warnings.empty()) << warnings;
    return "";
  }
  EXPECT_TRUE(kept.empty());
  return warnings;
}

}  // namespace

TEST(mcp_header_rules, primitive_properties_along_a_properties_chain_are_kept) {
  json nested = {
      {"type", "object"},
      {"properties", {{"city", prop("string", "City")}, {"zip", prop("integer", "Zip")}}}};
  auto t = tool("weather", {{"region", prop("string", "Region")},
                            {"metric", prop("boolean", "Metric")},
                            {"where", nested},
                            {"note", prop("string", nullptr)}});
  EXPECT_EQ(dropped_why(t), "");
  EXPECT_EQ(dropped_why(tool("plain", {{"a", prop("number", nullptr)}})), "");
}

TEST(mcp_header_rules, each_broken_rule_drops_the_tool_and_says_which) {
  struct rule_case {
    json properties;
    std::string why;
  };
  const std::vector<rule_case> cases = {
      {{{"list", {{"type", "array"}, {"items", prop("string", "Item")}}}},
       "x-mcp-header outside a properties chain"},
      {{{"a", prop("string", "")}}, "x-mcp-header must be a non-empty string"},
      {{{"a", prop("string", 7)}}, "x-mcp-header must be a non-empty string"},
      {{{"a", prop("string", "Two Words")}}, "x-mcp-header \"Two Words\" is not an HTTP token"},
      {{{"a", prop("string", "Caf\xc3\xa9")}}, "is not an HTTP token"},
      {{{"a", prop("number", "Amount")}},
       "x-mcp-header \"Amount\" is on a non-primitive or number property"},
      {{{"a", prop("object", "Obj")}}, "is on a non-primitive or number property"},
      {{{"a", prop("string", "Region")}, {"b", prop("string", "REGION")}}, "is repeated"},
  };
  for (const auto& c : cases) {
    auto why = dropped_why(tool("t", c.properties));
    EXPECT_NE(why.find("tool \"t\" dropped: "), std::string::npos) << why;
    EXPECT_NE(why.find(c.why), std::string::npos) << c.properties.dump() << " -> " << why;
  }
}

TEST(mcp_header_rules, a_header_inside_a_combinator_is_outside_the_chain) {
  json t = tool("t", {{"a", {{"anyOf", {prop("string", "A"), prop("integer", nullptr)}}}}});
  EXPECT_NE(dropped_why(t).find("outside a properties chain"), std::string::npos);
}

TEST(mcp_header_rules, a_schema_nested_too_deeply_is_refused) {
  json deep = prop("string", nullptr);
  for (int i = 0; i < 70; ++i) deep = {{"type", "object"}, {"properties", {{"n", deep}}}};
  auto why = dropped_why({{"name", "deep"}, {"inputSchema", deep}});
  EXPECT_NE(why.find("inputSchema nested too deeply"), std::string::npos) << why;
}

TEST(mcp_header_rules, only_the_broken_tools_go_and_the_rest_keep_their_order) {
  std::string warnings;
  auto kept = mcp::valid_header_tools(
      {tool("a", {{"x", prop("string", "X")}}), tool("b", {{"x", prop("number", "X")}}),
       json("not a tool object"), tool("c", {{"x", prop("integer", "X")}})},
      &warnings);
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_EQ(kept[0]["name"], "a");
  EXPECT_EQ(kept[1], "not a tool object");  // not ours to judge: the list reader decides
  EXPECT_EQ(kept[2]["name"], "c");
  EXPECT_EQ(warnings,
            "tool \"b\" dropped: x-mcp-header \"X\" is on a non-primitive or number property\n");
  EXPECT_EQ(mcp::valid_header_tools({tool("b", {{"x", prop("number", "X")}})}, nullptr).size(),
            0u);  // without a place for warnings it still drops
}

TEST(mcp_header_value, safe_text_is_sent_as_is_and_the_rest_in_the_base64_sentinel) {
  EXPECT_EQ(mcp::encode_header_value("eu-west-1"), "eu-west-1");
  EXPECT_EQ(mcp::encode_header_value(""), "");
  EXPECT_EQ(mcp::encode_header_value("a b~c"), "a b~c");  // inner space and 0x7e are fine
  EXPECT_EQ(mcp::encode_header_value(" lead"), "=?base64?IGxlYWQ=?=");
  EXPECT_EQ(mcp::encode_header_value("trail\t"), "=?base64?dHJhaWwJ?=");
  EXPECT_EQ(mcp::encode_header_value("a\nb"), "=?base64?YQpi?=");
  EXPECT_EQ(mcp::encode_header_value("x\x7f"), "=?base64?eH8=?=");
  EXPECT_EQ(mcp::encode_header_value("Z\xc3\xbcrich"), "=?base64?WsO8cmljaA==?=");
  // A value that looks like the sentinel is encoded, so the server cannot mistake it.
  EXPECT_EQ(mcp::encode_header_value("=?base64?abc?="), "=?base64?PT9iYXNlNjQ/YWJjPz0=?=");
  EXPECT_EQ(mcp::encode_header_value("=?base64?abc"), "=?base64?abc");
}
}  // namespace header_rules_test
