// `tooluse schema export` through the real binary: output shapes, name mapping, exit codes.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/cli_process.hpp"
#include "tooluse/json.hpp"

namespace {

using tooluse::json;

using run_result = tooluse::testing::cli_outcome;

run_result run(const std::vector<std::string>& args) { return tooluse::testing::run_tooluse(args); }

class schema_export_cli : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    auto path = (dir_.path() / name).string();
    std::ofstream(path) << text;
    return path;
  }
  tooluse::testing::temp_dir dir_;
};

const char* factorial_mcp = R"({"name":"math.factorial","description":"Calculate n!",
  "inputSchema":{"type":"object","properties":{"number":{"type":"integer"},
  "round":{"type":"boolean"}},"required":["number"]}})";

TEST_F(schema_export_cli, strict_export_maps_the_name_and_makes_optionals_nullable) {
  auto r = run({"schema", "export", "--to", "openai-strict", write("t.json", factorial_mcp)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json out = json::parse(r.out);
  EXPECT_EQ(out["function"]["name"], "math_factorial");
  EXPECT_EQ(out["function"]["strict"], true);
  EXPECT_EQ(out["function"]["parameters"]["properties"]["round"]["type"],
            json({"boolean", "null"}));
  EXPECT_EQ(out["function"]["parameters"]["required"], json({"number", "round"}));
  EXPECT_NE(r.err.find("\"math_factorial\""), std::string::npos);
}

TEST_F(schema_export_cli, every_target_accepts_a_bfcl_array) {
  std::string bfcl = R"([{"name":"calc.area","description":"Area","parameters":{"type":"dict",
    "properties":{"base":{"type":"float"},"unit":{"type":"string","default":"m"}},
    "required":["base"]}},{"name":"noop","description":"Nothing","parameters":{"type":"dict",
    "properties":{}}}])";
  auto path = write("bfcl.json", bfcl);
  for (const char* target : {"openai", "openai-strict", "responses", "anthropic", "mcp"}) {
    auto r = run({"schema", "export", "--to", target, path});
    ASSERT_EQ(r.exit_code, 0) << target << ": " << r.err;
    json out = json::parse(r.out);
    ASSERT_TRUE(out.is_array()) << target;
    EXPECT_EQ(out.size(), 2u) << target;
  }
  auto g = run({"schema", "export", "--to", "gemini", path});
  ASSERT_EQ(g.exit_code, 0) << g.err;
  json decls = json::parse(g.out)[0]["functionDeclarations"];
  EXPECT_EQ(decls[0]["name"], "calc.area");
  EXPECT_EQ(decls[0]["parameters"]["properties"]["base"]["type"], "number");
  EXPECT_FALSE(decls[0]["parameters"].contains("additionalProperties"));
}

TEST_F(schema_export_cli, unsupported_keyword_exits_2_naming_it) {
  auto path = write("t.json", R"({"type":"function","function":{"name":"filter",
    "parameters":{"type":"object","properties":{"tags":{"type":"object",
    "patternProperties":{"^x":{"type":"string"}}}}}}})");
  auto r = run({"schema", "export", "--to", "openai-strict", path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("arguments.tags: \"patternProperties\" is not supported"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(run({"schema", "export", "--to", "openai", path}).exit_code, 0);
}

TEST_F(schema_export_cli, bad_input_and_target_exit_2) {
  auto r = run({"schema", "export", "--to", "claude", write("t.json", factorial_mcp)});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("openai-strict"), std::string::npos) << r.err;
  r = run({"schema", "export", "--to", "mcp", write("bad.json", R"({"hello":1})")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a tool definition"), std::string::npos) << r.err;
  EXPECT_EQ(run({"schema", "export", "--to", "mcp", "/nonexistent.json"}).exit_code, 2);
  EXPECT_EQ(run({"schema", "export", "--to", "mcp", write("x.json", "{")}).exit_code, 2);
  auto help = run({"schema", "export", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--to"), std::string::npos);
}

}  // namespace
