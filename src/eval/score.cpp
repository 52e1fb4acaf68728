// BFCL's eval_runner.py (single_ast_file_runner, single_relevance_file_runner) over files:
// entries are paired by line number, each output decoded by the model's handler, checked, and
// every failure kept with BFCL's error type and message.
#include "tooluse/eval/score.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>

#include "eval/checker.hpp"
#include "eval/decode_error.hpp"
#include "eval/handlers.hpp"

namespace tooluse::eval {
namespace fs = std::filesystem;
using detail::decode_error;
using detail::language;

namespace {

/// extract_after_test: "gorilla_openfunctions_v1_test_simple_result.json" -> "simple";
/// later data names files "BFCL_v3_simple_result.json" / "BFCL_v4_simple_python.json".
std::optional<std::string> category_of(const std::string& file) {
  std::string rest;
  if (auto p = file.find("_test_"); p != std::string::npos) rest = file.substr(p + 6);
  else if (file.rfind("BFCL_v", 0) == 0 && file.find('_', 6) != std::string::npos) rest = file.substr(file.find('_', 6) + 1);
  else return std::nullopt;
  if (auto p = rest.find("_result"); p != std::string::npos) rest = rest.substr(0, p);
  if (auto p = rest.find(".json"); p != std::string::npos) rest = rest.substr(0, p);
  return rest;
}

result<std::vector<json>> load_jsonl(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return fail(errc::io_error, "cannot read " + path.string() + ": " + std::strerror(errno));
  std::vector<json> out;
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto parsed = parse_json(line);
    if (!parsed)
      return fail(errc::parse_error, path.string() + ":" + std::to_string(n) + " is not JSON (" +
                                         parsed.error().message + "); BFCL files hold one JSON object a line");
    out.push_back(std::move(*parsed));
  }
  return out;
}

/// find_file_with_suffix: the data file whose category is `category`.
std::optional<fs::path> find_category_file(const fs::path& dir, const std::string& category) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".json") continue;
    if (category_of(e.path().filename().string()) == category) return e.path();
  }
  return std::nullopt;
}

language language_of(const std::string& category) {
  if (category.find("javascript") != std::string::npos) return language::javascript;
  if (category.find("java") != std::string::npos) return language::java;
  return language::python;
}

const json& result_field(const json& entry) {
  static const json null_value;
  auto it = entry.find("result");
  return it == entry.end() ? null_value : *it;
}

/// is_function_calling_format_output: a list whose items are all dicts.
bool is_call_list(const py_value& v) {
  if (!v.is_list()) return false;
  return std::all_of(v.items().begin(), v.items().end(), [](const py_value& i) { return i.is_dict(); });
}

/// is_empty_output: not a call list, [], or [{}].
bool is_empty_output(const py_value& v) {
  if (!is_call_list(v)) return true;
  if (v.items().empty()) return true;
  return v.items().size() == 1 && v.items()[0].size() == 0;
}

category_score score_relevance(const detail::handler& h, const std::string& category,
                               const std::vector<json>& results, std::vector<failure>& failures) {
  category_score s{category, 0, results.size()};
  for (std::size_t i = 0; i < results.size(); ++i) {
    const json& raw = result_field(results[i]);
    bool ok = false;
    std::optional<py_value> decoded;
    try {
      decoded = detail::decode_ast(h, py_value::from_json(raw), language::python);
      ok = is_empty_output(*decoded);
    } catch (const decode_error&) {
      ok = true;
    }
    if (ok) {
      ++s.correct_count;
      continue;
    }
    failure f;
    f.category = category;
    f.id = i + 1;
    f.entry_id = results[i].value("id", "");
    f.error = json::array({"Valid syntax. Successfully decode AST when it should not."});
    f.error_type = "relevance_error:decoder_success";
    f.model_result_raw = raw;
    f.model_result_decoded = decoded->to_json();
    failures.push_back(std::move(f));
  }
  return s;
}

result<category_score> score_ast(const detail::handler& h, const std::string& category,
                                 const std::vector<json>& results, const std::vector<json>& prompts,
                                 const std::vector<json>& answers, std::vector<failure>& failures,
                                 bool underscore_to_dot, std::vector<std::string>& notes) {
  if (prompts.size() != answers.size())
    return fail(errc::invalid_argument, "category " + category + ": " + std::to_string(prompts.size()) +
                                            " questions but " + std::to_string(answers.size()) + " possible answers");
  // BFCL pairs a complete result file with the questions line by line. A partial one (an
  // interrupted or --limit run) is paired by id, when every result names a question.
  std::vector<std::size_t> index(results.size());
  if (results.size() == prompts.size()) {
    for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
  } else {
    std::map<std::string, std::size_t> by_id;
    for (std::size_t i = 0; i < prompts.size(); ++i) by_id[prompts[i].value("id", "")] = i;
    for (std::size_t i = 0; i < results.size(); ++i) {
      auto it = by_id.find(results[i].is_object() ? results[i].value("id", "") : "");
      if (it == by_id.end())
        return fail(errc::invalid_argument,
                    "category " + category + ": " + std::to_string(results.size()) + " results for " +
                        std::to_string(prompts.size()) + " questions, and result line " + std::to_string(i + 1) +
                        " has no id of a question, so they cannot be paired; score a complete result file");
      index[i] = it->second;
    }
    notes.push_back(category + ": " + std::to_string(results.size()) + " of " + std::to_string(prompts.size()) +
                    " questions answered; scored those (BFCL scores complete files only)");
  }
  category_score s{category, 0, results.size()};
  language lang = language_of(category);
  detail::check_options opts{lang, underscore_to_dot};
  for (std::size_t r = 0; r < results.size(); ++r) {
    const std::size_t i = index[r];
    const json& raw = result_field(results[r]);
    failure f;
    f.category = category;
    f.id = i + 1;
    f.entry_id = prompts[i].value("id", "");
    f.model_result_raw = raw;
    f.possible_answer = answers[i].value("ground_truth", json());
    py_value decoded;
    try {
      decoded = detail::decode_ast(h, py_value::from_json(raw), lang);
    } catch (const decode_error& e) {
      f.error = json::array({std::string("Invalid syntax. Failed to decode AST. ") + e.what()});
      f.error_type = "ast_decoder:decoder_failed";
      failures.push_back(std::move(f));
      continue;
    }
    f.model_result_decoded = decoded.to_json();
    if (!is_call_list(decoded)) {
      f.error = json::array({"Did not output in the specified format. Note: the model_result is wrapped in a string "
                             "to ensure json serializability."});
      f.error_type = "ast_decoder:decoder_wrong_output_format";
      failures.push_back(std::move(f));
      continue;
    }
    detail::check_result verdict = detail::checked("entry", [&] {
      return detail::ast_check(py_value::from_json(prompts[i].value("function", json())), decoded,
                               py_value::from_json(f.possible_answer), category, opts);
    });
    if (verdict.valid) {
      ++s.correct_count;
      continue;
    }
    f.error = std::move(verdict.error);
    f.error_type = std::move(verdict.error_type);
    failures.push_back(std::move(f));
  }
  return s;
}

}  // namespace

std::vector<std::string> known_models() { return detail::known_models(); }
std::vector<std::string> known_formats() { return detail::known_formats(); }

result<score_report> score(const score_options& o) {
  auto start = std::chrono::steady_clock::now();
  std::optional<detail::handler> h;
  if (!o.format.empty()) {
    h = detail::handler_for_format(o.format, o.model);
    if (!h) {
      std::string list;
      for (const auto& f : detail::known_formats()) list += (list.empty() ? "" : ", ") + f;
      return fail(errc::invalid_argument, "unknown decoder format \"" + o.format + "\"; the formats are: " + list);
    }
  } else {
    h = detail::handler_for_model(o.model);
    if (!h) {
      std::string list;
      for (const auto& m : detail::known_models()) {
        std::string folder = m;
        std::replace(folder.begin(), folder.end(), '/', '_');
        list += (list.empty() ? "" : ", ") + folder;
      }
      return fail(errc::invalid_argument,
                  "BFCL's leaderboard does not know the model \"" + o.model + "\", so which decoder reads its outputs "
                  "is not known; pick one with --format FAMILY (native for recorded tool calls, pythonic for "
                  "[f(a=1)] text, hermes, gorilla, ...; `tooluse eval formats` lists them). Known models: " + list);
    }
  }
  bool underscore = o.underscore_to_dot.value_or(h->underscore_to_dot);

  std::error_code ec;
  if (!fs::is_directory(o.results_dir, ec))
    return fail(errc::not_found, "the results folder " + o.results_dir + " does not exist or is not a folder");
  if (!fs::is_directory(o.data_dir, ec))
    return fail(errc::not_found, "the data folder " + o.data_dir + " does not exist or is not a folder; give BFCL's data/ folder");

  score_report report;
  report.model = o.model;
  report.decoder = o.format.empty() ? "handler of " + h->model : o.format;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(o.results_dir, ec))
    if (e.path().extension() == ".json" && e.path().filename() != "result.json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    auto category = category_of(file.filename().string());
    if (!category) {
      report.skipped.push_back(file.filename().string() + ": not a BFCL result file name");
      continue;
    }
    if (!o.categories.empty() && std::find(o.categories.begin(), o.categories.end(), *category) == o.categories.end())
      continue;
    const std::string& c = *category;
    if (file.filename().string().rfind("BFCL_v", 0) == 0) {
      report.skipped.push_back(c + ": BFCL v3/v4 results are not scored yet (their checker differs from the "
                                   "2024-08 one this scorer reproduces)");
      continue;
    }
    if (c.find("executable") != std::string::npos || c.find("rest") != std::string::npos ||
        c.find("chatable") != std::string::npos || c.find("sql") != std::string::npos || c.find("multi_turn") != std::string::npos) {
      report.skipped.push_back(c + ": needs BFCL's live execution, not scored (AST and relevance categories only)");
      continue;
    }
    auto results = load_jsonl(file);
    if (!results) return fail(results.error());
    for (const auto& r : *results) {
      if (!r.is_object()) continue;
      if (auto l = r.find("latency"); l != r.end() && l->is_number()) report.latencies.push_back(l->get<double>());
      if (auto t = r.find("input_token_count"); t != r.end() && t->is_number_integer()) report.input_tokens += t->get<std::int64_t>();
      if (auto t = r.find("output_token_count"); t != r.end() && t->is_number_integer()) report.output_tokens += t->get<std::int64_t>();
    }
    if (c.find("relevance") != std::string::npos || c.find("irrelevance") != std::string::npos) {
      report.categories.push_back(score_relevance(*h, c, *results, report.failures));
      continue;
    }
    auto prompt_file = find_category_file(o.data_dir, c);
    auto answer_file = find_category_file(fs::path(o.data_dir) / "possible_answer", c);
    if (!prompt_file || !answer_file)
      return fail(errc::not_found, "no questions or possible answers for category " + c + " in " + o.data_dir +
                                       " (expected a *_" + c + ".json file there and in possible_answer/)");
    auto prompts = load_jsonl(*prompt_file);
    if (!prompts) return fail(prompts.error());
    auto answers = load_jsonl(*answer_file);
    if (!answers) return fail(answers.error());
    auto s = score_ast(*h, c, *results, *prompts, *answers, report.failures, underscore, report.skipped);
    if (!s) return fail(s.error());
    report.categories.push_back(std::move(*s));
  }
  std::sort(report.categories.begin(), report.categories.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

json to_json(const score_report& r, bool with_failures) {
  json out = {{"model", r.model}, {"decoder", r.decoder}, {"categories", json::object()}};
  for (const auto& c : r.categories)
    out["categories"][c.name] = {{"accuracy", c.accuracy()}, {"correct_count", c.correct_count}, {"total_count", c.total_count}};
  if (with_failures) {
    json fails = json::array();
    for (const auto& f : r.failures) {
      json j = {{"id", f.id}, {"test_category", f.category}, {"valid", false}, {"error", f.error},
                {"error_type", f.error_type}, {"model_result_raw", f.model_result_raw}};
      if (!f.entry_id.empty()) j["entry_id"] = f.entry_id;
      if (f.model_result_decoded) j["model_result_decoded"] = *f.model_result_decoded;
      if (!f.possible_answer.is_null()) j["possible_answer"] = f.possible_answer;
      fails.push_back(std::move(j));
    }
    out["failures"] = std::move(fails);
  }
  out["skipped"] = r.skipped;
  return out;
}

}  // namespace tooluse::eval
