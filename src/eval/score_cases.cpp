// A team's own test cases, scored with BFCL's checker: questions over the tools of a registry
// or an MCP server (JSON Schema), possible answers in BFCL's shape (docs/eval.md, "Your own
// cases").
#include <filesystem>
#include <fstream>
#include <map>

#include "eval/checker.hpp"
#include "eval/decode_error.hpp"
#include "eval/handlers.hpp"
#include "tooluse/eval/score.hpp"

namespace tooluse::eval {
namespace fs = std::filesystem;

namespace {

/// JSON Schema type -> BFCL's type name (number is float; object is dict; none is any).
std::string bfcl_type(const json& schema) {
  if (!schema.is_object()) return "any";
  auto t = schema.find("type");
  std::string type = t != schema.end() && t->is_string() ? t->get<std::string>() : "";
  if (t != schema.end() && t->is_array())
    for (const auto& x : *t)
      if (x.is_string() && x != "null") type = x.get<std::string>();
  if (type == "string" || type == "integer" || type == "boolean" || type == "array") return type;
  if (type == "number") return "float";
  if (type == "object") return "dict";
  return "any";
}

json bfcl_property(const json& schema) {
  json p = {{"type", bfcl_type(schema)}};
  if (schema.is_object() && schema.contains("description")) p["description"] = schema["description"];
  if (p["type"] == "array") p["items"] = {{"type", bfcl_type(schema.value("items", json::object()))}};
  return p;
}

result<std::vector<json>> read_lines(const fs::path& p) {
  std::ifstream in(p);
  if (!in) return fail(errc::not_found, "cannot read " + p.string());
  std::vector<json> out;
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto j = parse_json(line);
    if (!j || !j->is_object())
      return fail(errc::parse_error, p.string() + ":" + std::to_string(n) + " is not a JSON object" +
                                         (j ? "" : " (" + j.error().message + ")"));
    out.push_back(std::move(*j));
  }
  return out;
}

}  // namespace

json bfcl_function(const json& tool) {
  json schema = tool.contains("inputSchema")    ? tool["inputSchema"]
                : tool.contains("input_schema") ? tool["input_schema"]
                                                : tool.value("parameters", json::object());
  json props = json::object();
  if (schema.is_object() && schema.contains("properties") && schema["properties"].is_object())
    for (const auto& [name, s] : schema["properties"].items()) props[name] = bfcl_property(s);
  json required = schema.is_object() && schema.contains("required") ? schema["required"] : json::array();
  return {{"name", tool.value("name", "")},
          {"description", tool.value("description", "")},
          {"parameters", {{"type", "dict"}, {"properties", props}, {"required", required}}}};
}

std::string cases_result_name(const std::string& cases_file) {
  return fs::path(cases_file).stem().string() + "_result.json";
}

result<std::vector<test_case>> load_cases(const std::string& cases_file, const std::vector<json>& tools) {
  auto lines = read_lines(cases_file);
  if (!lines) return fail(lines.error());
  std::map<std::string, const json*> by_name;
  for (const auto& t : tools) by_name[t.value("name", "")] = &t;
  std::vector<test_case> out;
  for (std::size_t i = 0; i < lines->size(); ++i) {
    const json& c = (*lines)[i];
    std::string where = cases_file + ":" + std::to_string(i + 1);
    test_case tc;
    tc.id = c.value("id", "case_" + std::to_string(i));
    if (!c.contains("question")) return fail(errc::invalid_argument, where + " has no \"question\"");
    tc.question = c["question"];
    tc.ground_truth = c.value("ground_truth", json::array());
    if (tc.ground_truth.is_object()) tc.ground_truth = json::array({tc.ground_truth});
    if (!tc.ground_truth.is_array())
      return fail(errc::invalid_argument, where + ": \"ground_truth\" must be a list of {FUNCTION: {PARAM: [VALUES]}}");
    std::vector<std::string> names;
    if (c.contains("tools") && c["tools"].is_array())
      for (const auto& n : c["tools"]) names.push_back(n.get<std::string>());
    else
      for (const auto& t : tools) names.push_back(t.value("name", ""));
    for (const auto& call : tc.ground_truth)
      for (const auto& [fn, _] : call.items())
        if (!by_name.count(fn))
          return fail(errc::invalid_argument, where + ": the answer calls \"" + fn +
                                                  "\", which is not among the tools (list them with tooluse tools list)");
    for (const auto& n : names) {
      auto it = by_name.find(n);
      if (it == by_name.end())
        return fail(errc::invalid_argument, where + ": no tool \"" + n + "\" (list them with tooluse tools list)");
      tc.tools.push_back(*it->second);
    }
    out.push_back(std::move(tc));
  }
  return out;
}

result<score_report> score_cases(const std::vector<test_case>& cases, const std::string& results_file,
                                 const score_options& o) {
  auto h = o.format.empty() ? detail::handler_for_format("native", o.model) : detail::handler_for_format(o.format, o.model);
  if (!h) return fail(errc::invalid_argument, "unknown decoder format \"" + o.format + "\" (tooluse eval formats lists them)");
  auto lines = read_lines(results_file);
  if (!lines) return fail(lines.error());
  std::map<std::string, const json*> results;
  for (const auto& r : *lines) results[r.value("id", "")] = &r;
  score_report report;
  report.model = o.model;
  report.decoder = o.format.empty() ? "native" : o.format;
  category_score calls{"cases", 0, 0}, none{"cases_irrelevance", 0, 0};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const test_case& c = cases[i];
    auto found = results.find(c.id);
    if (found == results.end()) {
      report.skipped.push_back(c.id + ": no result (tooluse eval run --cases answers it)");
      continue;
    }
    const json raw = found->second->value("result", json());
    failure f;
    f.id = i + 1;
    f.entry_id = c.id;
    f.model_result_raw = raw;
    f.possible_answer = c.ground_truth;
    py_value decoded;
    bool decoded_ok = true;
    try {
      decoded = detail::decode_ast(*h, py_value::from_json(raw), detail::language::python);
    } catch (const detail::decode_error& e) {
      decoded_ok = false;
      f.error = json::array({std::string("Invalid syntax. Failed to decode AST. ") + e.what()});
      f.error_type = "ast_decoder:decoder_failed";
    }
    bool is_list = decoded.is_list();
    if (is_list)
      for (const auto& item : decoded.items()) is_list = is_list && item.is_dict();
    if (c.ground_truth.empty()) {  // no function fits: right when nothing was called
      ++none.total_count;
      bool empty = !decoded_ok || !is_list || decoded.items().empty() ||
                   (decoded.items().size() == 1 && decoded.items()[0].size() == 0);
      if (empty) {
        ++none.correct_count;
        continue;
      }
      f.category = none.name;
      f.error = json::array({"Valid syntax. Successfully decode AST when it should not."});
      f.error_type = "relevance_error:decoder_success";
      f.model_result_decoded = decoded.to_json();
      report.failures.push_back(std::move(f));
      continue;
    }
    ++calls.total_count;
    f.category = calls.name;
    if (!decoded_ok) {
      report.failures.push_back(std::move(f));
      continue;
    }
    f.model_result_decoded = decoded.to_json();
    if (!is_list) {
      f.error = json::array({"Did not output in the specified format."});
      f.error_type = "ast_decoder:decoder_wrong_output_format";
      report.failures.push_back(std::move(f));
      continue;
    }
    json functions = json::array();
    for (const auto& t : c.tools) functions.push_back(bfcl_function(t));
    // One expected call: BFCL's simple check. Several: its order-free parallel matching, the
    // answers keyed NAME_1, NAME_2 as BFCL's own parallel answers are.
    json answer = json::object();
    std::string category = c.ground_truth.size() == 1 ? "simple" : "parallel_multiple_function";
    for (std::size_t k = 0; k < c.ground_truth.size(); ++k)
      for (const auto& [fn, params] : c.ground_truth[k].items())
        answer[c.ground_truth.size() == 1 ? fn : fn + "_" + std::to_string(k + 1)] = params;
    detail::check_result verdict = detail::checked("case", [&] {
      py_value fns = py_value::from_json(functions);
      py_value described = category == "simple" ? py_value::none() : fns;
      if (category == "simple") {
        for (const auto& fn : fns.items())
          if (fn.find("name") && fn.find("name")->str() == c.ground_truth[0].begin().key()) described = fn;
      }
      return detail::ast_check(described, decoded, py_value::from_json(answer), category,
                               {detail::language::python, o.underscore_to_dot.value_or(false)});
    });
    if (verdict.valid) {
      ++calls.correct_count;
      continue;
    }
    f.error = std::move(verdict.error);
    f.error_type = std::move(verdict.error_type);
    report.failures.push_back(std::move(f));
  }
  if (calls.total_count) report.categories.push_back(calls);
  if (none.total_count) report.categories.push_back(none);
  return report;
}

}  // namespace tooluse::eval
