// tooluse eval score | formats: scoring recorded tool calls as the Berkeley Function Calling
// Leaderboard does (docs/eval.md).
#include <cstdio>
#include <iostream>

#include "cli.hpp"
#include "tooluse/eval/score.hpp"
#include "tooluse/json.hpp"

namespace tooluse::cli {
void add_eval_run(CLI::App& eval, app_state& state);  // cmd_eval_run.cpp

namespace {

struct eval_options {
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

int eval_score(const eval_options& o) {
  eval::score_options so{o.data_dir, o.results_dir, o.model, o.format, std::nullopt, o.categories};
  auto report = eval::score(so);
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
  if (report->categories.empty()) {
    std::cerr << "tooluse: no AST or relevance result files in " << o.results_dir
              << " (BFCL names them *_test_CATEGORY_result.json)\n";
    return 2;
  }
  if (o.fail_under >= 0 && total && static_cast<double>(correct) / total * 100 < o.fail_under) {
    std::cerr << "tooluse: accuracy " << percent(static_cast<double>(correct) / total) << " is under --fail-under "
              << o.fail_under << "%\n";
    return 1;
  }
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

void setup(CLI::App& app, app_state& state) {
  auto o = std::make_shared<eval_options>();
  auto* ev = app.add_subcommand("eval", "Score tool calling as the Berkeley Function Calling Leaderboard does");
  ev->require_subcommand(1);
  ev->footer("See docs/eval.md.");

  auto* score = ev->add_subcommand("score", "Score one model's recorded BFCL outputs (AST and relevance categories)");
  score->add_option("--data", o->data_dir, "BFCL's data/ folder of the version the results answer (questions, possible_answer/)")
      ->required();
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

  auto* formats = ev->add_subcommand("formats", "List the decoder formats and the models BFCL knows");
  formats->callback([&state] { state.action = [] { return eval_formats(); }; });
}

const command_registrar reg(75, &setup);

}  // namespace
}  // namespace tooluse::cli
