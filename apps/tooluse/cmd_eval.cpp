// tooluse eval score | formats: scoring recorded tool calls as the Berkeley Function Calling
// Leaderboard does (docs/eval.md).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli.hpp"
#include "conventions.hpp"
#include "tooluse/eval/score.hpp"
#include "tooluse/json.hpp"

namespace tooluse::cli {
void add_eval_run(CLI::App& eval, app_state& state);  // cmd_eval_run.cpp

namespace {

struct eval_options {
  std::string cases;
  registry_flags registry;
  std::string data_dir;
  std::string results_dir;
  std::string model;
  std::string format;
  std::vector<std::string> categories;
  bool json_output = false;
  std::size_t show_failures = 0;
  double fail_under = -1;
};

std::string percent(double a) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f%%", a * 100);
  return b;
}

std::string first_message(const json& error) {
  for (const auto& e : error)
    if (e.is_string()) return e.get<std::string>();
  return error.empty() ? "" : dump_json(error.front());
}

result<eval::score_report> score_own_cases(const eval_options& o) {
  auto reg = make_registry(o.registry);
  if (!reg) return fail(reg.error());
  std::vector<json> tools;
  for (const auto& t : (*reg)->list())
    tools.push_back({{"name", t->definition.name}, {"description", t->definition.description},
                     {"inputSchema", t->definition.input_schema}});
  auto cases = eval::load_cases(o.cases, tools);
  if (!cases) return fail(cases.error());
  eval::score_options so{"", o.results_dir, o.model, o.format};
  auto file = (std::filesystem::path(o.results_dir) / eval::cases_result_name(o.cases)).string();
  return eval::score_cases(*cases, file, so);
}

int eval_score(const eval_options& o) {
  if (o.cases.empty() && o.data_dir.empty())
    return usage_error("eval score needs --data (BFCL's data folder) or --cases (your own cases file)");
  eval::score_options so{o.data_dir, o.results_dir, o.model, o.format, std::nullopt, o.categories};
  auto report = o.cases.empty() ? eval::score(so) : score_own_cases(o);
  if (!report) return usage_error(report.error().message);
  std::size_t correct = 0, total = 0;
  for (const auto& c : report->categories) {
    correct += c.correct_count;
    total += c.total_count;
  }
  if (o.json_output) {
    std::cout << dump_json(eval::to_json(*report), 2) << "\n";
  } else {
    std::cout << "model " << report->model << " (decoder: " << report->decoder << ")\n";
    std::printf("%-28s %8s %6s %9s\n", "category", "correct", "total", "accuracy");
    for (const auto& c : report->categories)
      std::printf("%-28s %8zu %6zu %9s\n", c.name.c_str(), c.correct_count, c.total_count, percent(c.accuracy()).c_str());
    std::printf("%-28s %8zu %6zu %9s\n", "all entries", correct, total,
                percent(total ? static_cast<double>(correct) / total : 0).c_str());
    std::fflush(stdout);
    std::size_t shown = 0;
    for (const auto& f : report->failures) {
      if (shown++ >= o.show_failures) break;
      std::cout << "\n" << f.category << " #" << f.id << (f.entry_id.empty() ? "" : " (" + f.entry_id + ")") << ": "
                << f.error_type << "\n  " << first_message(f.error) << "\n";
    }
    if (report->failures.size() > o.show_failures)
      std::cout << "\n" << report->failures.size() << (report->failures.size() == 1 ? " entry" : " entries")
                << " wrong; --show-failures N prints their reasons, --json all of them\n";
    for (const auto& s : report->skipped) std::cout << "note: " << s << "\n";
    std::printf("scored %zu %s in %.3f s\n", total, total == 1 ? "entry" : "entries", report->seconds);
  }
  if (report->categories.empty())
    return report_error(exit_status::usage, "no AST or relevance results to score in " + o.results_dir,
                        "BFCL names its result files *_test_CATEGORY_result.json; eval run --cases writes STEM_result.json");
  if (o.fail_under >= 0 && total && static_cast<double>(correct) / total * 100 < o.fail_under) {
    char under[32];
    std::snprintf(under, sizeof under, "%g", o.fail_under);
    return report_error(exit_status::failed,
                        "accuracy " + percent(static_cast<double>(correct) / total) + " is under --fail-under " + under + "%",
                        "--show-failures N prints the reasons of the wrong entries");
  }
  return 0;
}

struct report_options {
  std::string data_dir;
  std::string results_root;
  std::vector<std::string> models;
  std::string decoder;
  std::string format = "csv";
  std::string out;
};

int eval_report(const report_options& o) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(o.results_root, ec))
    return usage_error("the results folder " + o.results_root + " does not exist or is not a folder");
  std::vector<std::string> models = o.models;
  if (models.empty()) {
    for (const auto& e : fs::directory_iterator(o.results_root, ec))
      if (e.is_directory()) models.push_back(e.path().filename().string());
    std::sort(models.begin(), models.end());
  }
  if (models.empty()) return usage_error("no model folders in " + o.results_root + " (one folder of *_result.json per model)");
  eval::report_format f;
  if (o.format == "csv") f = eval::report_format::csv;
  else if (o.format == "markdown" || o.format == "md") f = eval::report_format::markdown;
  else if (o.format == "html") f = eval::report_format::html;
  else return usage_error("--format must be csv, markdown or html, not \"" + o.format + "\"");
  std::vector<eval::score_report> reports;
  const bool progress = stderr_is_terminal();
  for (std::size_t i = 0; i < models.size(); ++i) {
    if (progress) std::fprintf(stderr, "\rscoring %zu/%zu %s\033[K", i + 1, models.size(), models[i].c_str());
    eval::score_options so{o.data_dir, (fs::path(o.results_root) / models[i]).string(), models[i]};
    if (!eval::known_models().empty() && !o.decoder.empty()) {
      bool known = false;
      std::string escaped = models[i];
      for (char& c : escaped)
        if (c == '_') c = '/';
      for (const auto& m : eval::known_models()) known |= m == escaped;
      if (!known) so.format = o.decoder;
    }
    auto r = eval::score(so);
    if (!r) {
      if (progress) std::fprintf(stderr, "\n");
      return usage_error(models[i] + ": " + r.error().message);
    }
    reports.push_back(std::move(*r));
  }
  if (progress) std::fprintf(stderr, "\r\033[K");
  std::string text = eval::leaderboard(reports, f);
  if (o.out.empty() || o.out == "-") {
    std::cout << text;
    return 0;
  }
  std::ofstream out(o.out, std::ios::trunc);
  if (!(out << text)) return usage_error("cannot write " + o.out);
  std::cout << "wrote " << o.out << " (" << reports.size() << (reports.size() == 1 ? " model" : " models") << ")\n";
  return 0;
}

int eval_formats() {
  std::cout << "decoder formats (--format):\n";
  for (const auto& f : eval::known_formats()) std::cout << "  " << f << "\n";
  std::cout << "models BFCL's 2024-08 handler map knows (--model, `_` for `/`):\n";
  for (auto m : eval::known_models()) {
    for (char& c : m)
      if (c == '/') c = '_';
    std::cout << "  " << m << "\n";
  }
  return 0;
}

void setup_eval(CLI::App& app, app_state& state) {
  auto o = std::make_shared<eval_options>();
  auto* ev = app.add_subcommand("eval", "Score tool calling as the Berkeley Function Calling Leaderboard does");
  ev->require_subcommand(1);
  ev->footer("See docs/eval.md.");

  auto* score = ev->add_subcommand("score", "Score one model's recorded BFCL outputs (AST and relevance categories)");
  score->add_option("--data", o->data_dir, "BFCL's data/ folder of the version the results answer (questions, possible_answer/)");
  score->add_option("--cases", o->cases, "Your own cases (JSONL) over the tools the registry flags give, instead of --data");
  add_registry_flags(*score, o->registry);
  score->add_option("--results", o->results_dir, "The model's folder of *_result.json files")->required();
  score->add_option("--model", o->model, "The model's name as BFCL writes its folder (`_` for `/`)")->required();
  score->add_option("--format", o->format,
                    "Decoder for the outputs when BFCL does not know the model: native, pythonic or a BFCL handler "
                    "family (`tooluse eval formats`)");
  score->add_option("--categories", o->categories, "Only these categories (BFCL's names, e.g. simple,java)")
      ->delimiter(',');
  score->add_flag("--json", o->json_output, "Print the scores and every failure as JSON");
  score->add_option("--show-failures", o->show_failures, "Print the reasons of the first N wrong entries");
  score->add_option("--fail-under", o->fail_under, "Exit 1 when the accuracy over all entries is under PERCENT");
  score->callback([o, &state] { state.action = [o] { return eval_score(*o); }; });

  add_eval_run(*ev, state);

  auto ro = std::make_shared<report_options>();
  auto* report = ev->add_subcommand("report", "A leaderboard of several models' results: CSV in BFCL's data.csv shape, Markdown or HTML");
  report->add_option("--data", ro->data_dir, "BFCL's data/ folder")->required();
  report->add_option("--results", ro->results_root, "A folder with one folder of *_result.json per model")->required();
  report->add_option("--models", ro->models, "Only these model folders")->delimiter(',');
  report->add_option("--decoder", ro->decoder, "Decoder for models BFCL does not know (native, pythonic, hermes, ...)");
  complete_with(report->add_option("--format", ro->format, "csv (default), markdown or html (one page, sortable, with bar charts)"),
                {"csv", "markdown", "html"});
  report->add_option("--out", ro->out, "Write to FILE instead of standard output");
  report->callback([ro, &state] { state.action = [ro] { return eval_report(*ro); }; });

  auto* formats = ev->add_subcommand("formats", "List the decoder formats and the models BFCL knows");
  formats->callback([&state] { state.action = [] { return eval_formats(); }; });
}

const command_registrar eval_registrar(75, &setup_eval);

}  // namespace
}  // namespace tooluse::cli
