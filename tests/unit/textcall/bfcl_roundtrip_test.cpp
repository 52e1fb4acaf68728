// BFCL ground truths rendered by each format's renderer (as a model would write the calls) and
// parsed back, by the format and by auto, whole and streamed: they must round-trip exactly
// wherever the format can express them. Prints the counts per format.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "support/test_support.hpp"
#include "textcall_test_util.hpp"

namespace tooluse::textcall {
namespace {

struct bfcl_case {
  std::string id;
  std::vector<tool_call> calls;
  tool_schemas schemas;
};

// first_acceptable picks the first acceptable value that is not "" (BFCL's "omitted"); in a
// dict, each key holds its own list of acceptable values. nullopt: omit the parameter.
std::optional<json> first_acceptable(const json& options) {
  for (const auto& v : options) {
    if (v.is_string() && v.get<std::string>().empty()) continue;
    if (!v.is_object()) return v;
    json out = json::object();
    for (const auto& [k, inner] : v.items()) {
      if (!inner.is_array()) {
        out[k] = inner;
      } else if (auto x = first_acceptable(inner)) {
        out[k] = *x;
      }
    }
    return out;
  }
  return std::nullopt;
}

std::vector<bfcl_case> load_cases() {
  namespace fs = std::filesystem;
  fs::path dir = tooluse::testing::data_dir() / "bfcl";
  std::vector<bfcl_case> out;
  for (const auto& entry : fs::directory_iterator(dir / "possible_answer")) {
    std::map<std::string, tool_schemas> functions;
    std::ifstream questions(dir / entry.path().filename());
    for (std::string line; std::getline(questions, line);) {
      json q = json::parse(line);
      for (const auto& fn : q["function"]) functions[q["id"]][fn["name"]] = fn["parameters"];
    }
    std::ifstream answers(entry.path());
    for (std::string line; std::getline(answers, line);) {
      json a = json::parse(line);
      bfcl_case c{.id = a["id"], .schemas = functions[a["id"]]};
      for (const auto& gt : a["ground_truth"]) {
        for (const auto& [name, params] : gt.items()) {
          tool_call call;
          call.name = name;
          for (const auto& [k, options] : params.items()) {
            if (auto v = first_acceptable(options)) call.arguments[k] = *v;
          }
          c.calls.push_back(std::move(call));
        }
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

std::string type_of(const bfcl_case& c, const std::string& tool, const std::string& param) {
  auto it = c.schemas.find(tool);
  if (it == c.schemas.end() || !it->second.contains("properties")) return "";
  const json& props = it->second["properties"];
  if (!props.contains(param) || !props[param].contains("type")) return "";
  std::string t = props[param]["type"];
  if (t == "dict") return "object";
  if (t == "float") return "number";
  if (t == "tuple") return "array";
  if (t == "any") return "";
  return t;
}

bool matches_type(const json& v, const std::string& t) {
  if (t == "integer") return v.is_number_integer();
  if (t == "number") return v.is_number();
  if (t == "boolean") return v.is_boolean();
  if (t == "array") return v.is_array();
  if (t == "object") return v.is_object();
  return false;
}

// expressible tells whether `f` can carry the calls exactly: formats whose argument values
// are strings typed by the schema (XML, Python literals typed on the way back) cannot carry a
// value whose type the schema does not give.
bool expressible(format f, const bfcl_case& c) {
  bool xml = f == format::qwen3_coder;
  bool typed_strings = xml || f == format::pythonic;
  if (!typed_strings) return true;
  for (const auto& call : c.calls) {
    for (const auto& [k, v] : call.arguments.items()) {
      std::string t = type_of(c, call.name, k);
      if (v.is_string()) {
        if (!t.empty() && t != "string") return false;
        if (xml && v.get<std::string>().find("</") != std::string::npos) return false;
      } else if (xml && !matches_type(v, t)) {
        return false;
      }
    }
  }
  return true;
}

std::string mistral_v2(const std::vector<tool_call>& calls) {
  std::string out;
  for (const auto& c : calls) out += "[TOOL_CALLS]" + c.name + "[ARGS]" + dump_json(c.arguments);
  return out;
}

bool same_calls(const parsed_text& got, const std::vector<tool_call>& want) {
  if (got.calls.size() != want.size() || !got.diagnostics.empty()) return false;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got.calls[i].name != want[i].name || got.calls[i].arguments != want[i].arguments) return false;
  }
  return true;
}

TEST(bfcl_roundtrip, every_expressible_ground_truth_round_trips_in_every_format) {
  auto cases = load_cases();
  ASSERT_GT(cases.size(), 2000u);
  std::vector<std::pair<std::string, format>> formats;
  for (format f : all_formats()) formats.emplace_back(std::string(to_string(f)), f);
  formats.emplace_back("mistral-v2", format::mistral);
  std::cout << "format             expressible  round-trip  auto(1/4)  streamed(1/4)  not expressible\n";
  for (const auto& [label, f] : formats) {
    int ok = 0, ok_auto = 0, ok_stream = 0, skipped = 0, total = 0, sampled = 0;
    for (const auto& c : cases) {
      if (!expressible(f, c)) {
        ++skipped;
        continue;
      }
      ++total;
      std::string text = label == "mistral-v2" ? mistral_v2(c.calls) : render_calls(f, c.calls);
      parse_options opts{.schemas = c.schemas};
      bool whole = same_calls(parse(f, text, opts), c.calls);
      ok += whole;
      if (total % 4 == 0) {  // a quarter is enough for auto and streaming; keeps CI fast
        ok_auto += same_calls(parse(format::auto_detect, text, opts), c.calls);
        ok_stream += same_calls(testing::parse_chunked(f, text, 7, opts), c.calls);
        ++sampled;
      }
      EXPECT_TRUE(whole) << label << " " << c.id << ": " << text;
    }
    std::printf("%-18s %11d %11d %10d %14d %16d\n", label.c_str(), total, ok, ok_auto, ok_stream, skipped);
    EXPECT_EQ(ok, total) << label;
    EXPECT_EQ(ok_auto, sampled) << label;
    EXPECT_EQ(ok_stream, sampled) << label;
    EXPECT_GT(total, 1500) << label;
  }
}

}  // namespace
}  // namespace tooluse::textcall
