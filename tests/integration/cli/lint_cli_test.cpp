// `tooluse tools lint` on a JSON file of flawed definitions (each flaw reported with its rule and,
// for provider limits, the provider's name; exit 1 on errors), on a clean definition (nothing),
// and on the built-in tools (no errors).
#include <gtest/gtest.h>

#include <fstream>

#include "support/cli_process.hpp"
#include "tooluse/json.hpp"

namespace tooluse::testing {
namespace {

const char* flawed = R"([
 {"name": "get.weather", "description": "Gets the current weather for a city. Use when the user asks about weather. Returns temperature and conditions.",
  "inputSchema": {"type": "object", "properties": {
     "city": {"type": "string", "description": "City name, e.g. Paris"},
     "units": {"type": "string", "description": "One of 'celsius', 'fahrenheit' or 'kelvin'"},
     "timeout": {"type": "integer", "description": "How long to wait"}}}},
 {"name": "empty_tool", "description": "", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}},
 {"name": "search_web", "description": "Search the web for pages matching a query. Use when you need current information. Returns titles and links.",
  "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "Search terms"}}}},
 {"type": "function", "function": {"name": "web_lookup", "description": "Search the web for pages matching a query. Use when you need current information. Returns titles and links of pages.",
  "parameters": {"anyOf": [{"type": "object"}], "type": "object", "properties": {"query": {"type": "string", "description": "Search terms"}}}}}
])";

bool reported(const json& findings, const std::string& tool, const std::string& rule,
              const std::string& parameter = "") {
  for (const auto& f : findings)
    if (f["tool"] == tool && f["rule"] == rule &&
        (parameter.empty() || f["parameter"] == parameter))
      return true;
  return false;
}

TEST(lint_cli, reports_each_flaw_and_exits_1_on_errors) {
  temp_dir dir;
  std::ofstream(dir.path() / "tools.json") << flawed;
  auto r = run_tooluse({"tools", "lint", "--file", "tools.json", "--json"}, {}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = parse_json(r.out);
  ASSERT_TRUE(j.has_value()) << r.out;
  const json& f = (*j)["findings"];
  EXPECT_TRUE(reported(f, "get.weather", "provider-name")) << f.dump(1);
  EXPECT_TRUE(reported(f, "get.weather", "param-closed-set", "units")) << f.dump(1);
  EXPECT_TRUE(reported(f, "get.weather", "param-unit", "timeout")) << f.dump(1);
  EXPECT_FALSE(reported(f, "get.weather", "param-unit", "city"));
  EXPECT_TRUE(reported(f, "empty_tool", "description-missing")) << f.dump(1);
  EXPECT_TRUE(reported(f, "empty_tool", "param-description", "x")) << f.dump(1);
  EXPECT_TRUE(reported(f, "search_web", "overlap")) << f.dump(1);
  EXPECT_TRUE(reported(f, "web_lookup", "provider-schema-root")) << f.dump(1);
  EXPECT_NE(r.out.find("OpenAI"), std::string::npos);
  auto text = run_tooluse({"tools", "lint", "--file", "tools.json"}, {}, dir.path());
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("error: get.weather: name \"get.weather\" is rejected by OpenAI"),
            std::string::npos)
      << text.out;
}

TEST(lint_cli, a_clean_definition_has_no_findings) {
  temp_dir dir;
  std::ofstream(dir.path() / "good.json") << R"({"tools": [{"name": "convert_temperature",
    "description": "Converts a temperature between units. Use when the user gives a temperature in one unit and wants another. Returns the converted value as a number.",
    "inputSchema": {"type": "object", "properties": {
      "value": {"type": "number", "description": "The temperature to convert, in the from unit"},
      "from": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Unit of value"}},
      "required": ["value", "from"]}}]})";
  auto r = run_tooluse({"tools", "lint", "--file", "good.json", "--json"}, {}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = parse_json(r.out);
  ASSERT_TRUE(j.has_value());
  EXPECT_EQ((*j)["findings"].size(), 0u) << r.out;
}

TEST(lint_cli, builtin_tools_have_no_errors) {
  auto r = run_tooluse({"tools", "lint", "--network", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  auto j = parse_json(r.out);
  ASSERT_TRUE(j.has_value());
  EXPECT_EQ((*j)["errors"], 0) << r.out;
  EXPECT_GE((*j)["tools"].get<int>(), 10);
}

// A clean install passes its own strictest check: every built-in tool, gated ones included.
TEST(lint_cli, builtin_tools_pass_strict) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"tools", "lint", "--strict"}, {"tools", "lint", "--strict", "--network", "--shell"}}) {
    auto r = run_tooluse(args);
    EXPECT_EQ(r.exit_code, 0) << args.size() << "\n" << r.out;
    EXPECT_EQ(r.out, "") << r.out;
    EXPECT_NE(r.err.find(" tools: 0 errors, 0 warnings\n"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace tooluse::testing
