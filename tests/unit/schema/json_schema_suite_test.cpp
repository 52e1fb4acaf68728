// The official JSON-Schema-Test-Suite (draft 2020-12) through the engine: one test per file.
// Required files must pass entirely (except the documented exceptions in k_known_failures);
// optional files, including optional/format (run with format assertion on), are counted and
// printed but do not fail the build. remotes/ is served from disk for http://localhost:1234/.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tooluse/schema/validator.hpp"

namespace {

namespace fs = std::filesystem;
using tooluse::json;
using tooluse::schema::compile_options;
using tooluse::schema::validator;

fs::path suite_dir() { return tooluse::testing::data_dir() / "json-schema-test-suite"; }

// Required tests that are allowed to fail, as "file: group: test" (documented in
// design/schema.md, "Test suite").
const std::vector<std::string> k_known_failures = {};

struct totals {
  int passed = 0;
  int failed = 0;
};
std::map<std::string, totals>& counters() {
  static std::map<std::string, totals> c;
  return c;
}

class totals_printer : public ::testing::Environment {
 public:
  void TearDown() override {
    for (const auto& [category, t] : counters())
      std::printf("[json-schema-test-suite] %-9s %d/%d passed\n", category.c_str(), t.passed,
                  t.passed + t.failed);
  }
};
const auto* const k_printer = ::testing::AddGlobalTestEnvironment(new totals_printer);

std::optional<json> load_remote(const std::string& uri) {
  const std::string prefix = "http://localhost:1234/";
  if (uri.rfind(prefix, 0) != 0) return std::nullopt;
  fs::path file = suite_dir() / "remotes" / uri.substr(prefix.size());
  std::string text = tooluse::testing::read_file(file);
  if (text.empty()) return std::nullopt;
  auto doc = tooluse::parse_json(text);
  if (!doc) return std::nullopt;
  return *doc;
}

std::vector<std::string> suite_files() {
  std::vector<std::string> files;
  fs::path root = suite_dir() / "tests" / "draft2020-12";
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it); ++it)
    if (it->path().extension() == ".json")
      files.push_back(fs::relative(it->path(), root).generic_string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string category_of(const std::string& file) {
  if (file.rfind("optional/format/", 0) == 0) return "format";
  if (file.rfind("optional/", 0) == 0) return "optional";
  return "required";
}

class json_schema_suite : public ::testing::TestWithParam<std::string> {};

TEST_P(json_schema_suite, file_passes) {
  const std::string file = GetParam();
  const std::string category = category_of(file);
  std::string text = tooluse::testing::read_file(suite_dir() / "tests" / "draft2020-12" / file);
  auto groups = tooluse::parse_json(text);
  ASSERT_TRUE(groups.has_value()) << file;
  compile_options options{.format_assertion = category == "format", .resolve = load_remote};
  totals& t = counters()[category];
  for (const auto& group : *groups) {
    const std::string group_name = group["description"].get<std::string>();
    auto v = validator::compile(group["schema"], options);
    for (const auto& test : group["tests"]) {
      const std::string name = file + ": " + group_name + ": " + test["description"].get<std::string>();
      bool expected = test["valid"].get<bool>();
      bool ok = false;
      std::string detail;
      if (!v) {
        detail = "compile failed: " + v.error().message;
      } else {
        bool verdict = v->is_valid(test["data"]);
        auto errors = v->validate(test["data"]);
        ok = verdict == expected && errors.empty() == verdict;
        if (!ok)
          detail = std::string("is_valid=") + (verdict ? "true" : "false") +
                   " errors=" + tooluse::schema::format_errors(errors);
      }
      (ok ? t.passed : t.failed)++;
      bool excused = std::find(k_known_failures.begin(), k_known_failures.end(), name) !=
                     k_known_failures.end();
      if (category == "required" && !excused) {
        EXPECT_TRUE(ok) << name << "\n  " << detail;
      } else if (!ok) {
        std::printf("[not passed, %s] %s\n  %s\n", category.c_str(), name.c_str(), detail.c_str());
      }
    }
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string out;
  for (char c : info.param.substr(0, info.param.size() - 5))
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

INSTANTIATE_TEST_SUITE_P(draft2020_12, json_schema_suite, ::testing::ValuesIn(suite_files()),
                         test_name);

TEST(json_schema_suite_data, is_present) {
  EXPECT_GT(suite_files().size(), 40u) << "JSON-Schema-Test-Suite not found in " << suite_dir();
}

}  // namespace
