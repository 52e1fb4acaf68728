// The built-in tools declare their arguments as described structs (tooluse::add_tool), and the
// schemas inferred from them say what the hand-written schemas said before:
// fixtures/schemas_before_typed.json is `tooluse tools list --json --network --shell` from the
// commit before the change (input schemas only). Compared field by field: property names, types,
// required, enums, bounds, items and additionalProperties must be equal; descriptions must keep
// their text; the only new keyword allowed is "default", which must be a valid value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "support/test_support.hpp"
#include "tooluse/builtin/builtins.hpp"
#include "tooluse/schema/validator.hpp"

namespace {
using tooluse::json;
namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

json schemas_now(const fs::path& root) {
  tooluse::tool_registry registry;
  tooluse::builtin::register_builtins(
      registry,
      {.root = root, .network = true, .shell = true, .index_path = root / "index.sqlite"});
  json out = json::object();
  for (const auto& entry : registry.list())
    out[entry->definition.name] = entry->definition.input_schema;
  return out;
}

std::set<std::string> keys_of(const json& o) {
  std::set<std::string> k;
  for (const auto& [key, v] : o.items()) k.insert(key);
  return k;
}

std::set<std::string> strings_of(const json& a) {
  std::set<std::string> s;
  if (a.is_array())
    for (const auto& v : a) s.insert(v.get<std::string>());
  return s;
}

void compare_property(const std::string& where, const json& before, const json& after) {
  for (const auto& [keyword, value] : before.items()) {
    ASSERT_TRUE(after.contains(keyword)) << where << " lost \"" << keyword << "\"";
    if (keyword == "description") {
      EXPECT_NE(after[keyword].get<std::string>().find(value.get<std::string>()), std::string::npos)
          << where << ": the description lost text: was \"" << value.get<std::string>()
          << "\", now \"" << after[keyword].get<std::string>() << "\"";
    } else {
      EXPECT_EQ(after[keyword], value) << where << " \"" << keyword << "\" changed";
    }
  }
  for (const auto& [keyword, value] : after.items()) {
    if (before.contains(keyword)) continue;
    EXPECT_EQ(keyword, "default") << where << " gained \"" << keyword << "\": " << value.dump();
    if (keyword != "default") continue;
    json without_default = after;
    without_default.erase("default");
    auto v = tooluse::schema::validator::compile(without_default);
    ASSERT_TRUE(v.has_value()) << where;
    EXPECT_TRUE(v->validate(value).empty())
        << where << ": default " << value.dump() << " is not a valid value";
  }
}

TEST(builtin_schemas, inferred_schemas_say_what_the_hand_written_ones_said) {
  tooluse::testing::temp_dir dir;
  auto before = tooluse::parse_json(slurp(fs::path(TOOLUSE_SOURCE_DIR) /
                                          "tests/unit/builtin/fixtures/schemas_before_typed.json"));
  ASSERT_TRUE(before.has_value());
  json after = schemas_now(dir.path());
  EXPECT_EQ(keys_of(*before), keys_of(after)) << "the set of built-in tools changed";
  for (const auto& [name, b] : before->items()) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(after.contains(name));
    const json& a = after[name];
    EXPECT_EQ(a["type"], b["type"]);
    EXPECT_EQ(a.value("additionalProperties", json(true)),
              b.value("additionalProperties", json(true)));
    EXPECT_EQ(strings_of(a.value("required", json::array())),
              strings_of(b.value("required", json::array())));
    EXPECT_EQ(keys_of(a["properties"]), keys_of(b["properties"]));
    for (const auto& [prop, bp] : b["properties"].items()) {
      if (!a["properties"].contains(prop)) continue;
      compare_property(name + "." + prop, bp, a["properties"][prop]);
    }
  }
}

// A default the schema announces is the value the tool uses when the argument is absent, so the
// descriptions' "Default X" and the schema's "default" agree where both are given.
TEST(builtin_schemas, announced_defaults_match_the_descriptions) {
  tooluse::testing::temp_dir dir;
  json after = schemas_now(dir.path());
  int checked = 0;
  for (const auto& [name, s] : after.items()) {
    for (const auto& [prop, p] : s["properties"].items()) {
      if (!p.contains("default") || !p.contains("description")) continue;
      std::string d = p["description"].get<std::string>();
      auto at = d.find("Default ");
      if (at == std::string::npos) continue;
      std::string said = d.substr(at + 8);
      std::string value = p["default"].is_string() ? "\"" + p["default"].get<std::string>() + "\""
                                                   : p["default"].dump();
      EXPECT_EQ(said.rfind(value, 0), 0u) << name << "." << prop << ": description says \"Default "
                                          << said << "\", schema default " << value;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

// No built-in tool writes a JSON Schema by hand: arguments are described structs.
TEST(builtin_schemas, no_hand_written_schema_literal_in_src_builtin) {
  fs::path dir = fs::path(TOOLUSE_SOURCE_DIR) / "src/builtin";
  int files = 0;
  const std::regex forbidden(R"(json::parse\s*\(\s*R"|\.input_schema\s*=|"type"\s*:\s*"object")");
  for (const auto& entry : fs::directory_iterator(dir)) {
    auto ext = entry.path().extension();
    if (ext != ".cpp" && ext != ".hpp") continue;
    ++files;
    std::string text = slurp(entry.path());
    std::smatch m;
    EXPECT_FALSE(std::regex_search(text, m, forbidden))
        << entry.path().filename() << " writes a schema by hand (\"" << m.str()
        << "\"); declare the arguments as a struct with TOOLUSE_DESCRIBE and register with "
           "tooluse::add_tool";
  }
  EXPECT_GT(files, 20);
}

}  // namespace
