#pragma once
/// \file score.hpp
/// Scoring recorded model outputs as the Berkeley Function Calling Leaderboard (BFCL) does.
///
/// BFCL publishes questions (one JSON object a line: `id`, `question`, `function`), their
/// possible answers (`possible_answer/`, `ground_truth`) and, per model, the model's outputs
/// (`*_result.json`, one object a line with `result`). score() decodes each output with the
/// decoder BFCL's handler for that model uses and checks it with BFCL's AST checker, so its
/// `correct_count` per category is BFCL's own (docs/eval.md; the 2024-08-11 leaderboard is
/// reproduced to the entry by tests/unit/eval). Executable and REST categories need BFCL's live
/// APIs and are not scored; they are listed in `skipped`.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"

namespace tooluse::eval {

struct score_options {
  std::string data_dir;     ///< BFCL's data/ folder (questions; possible_answer/ inside)
  std::string results_dir;  ///< one model's folder of *_result.json files
  std::string model;        ///< the model's folder name as BFCL writes it (`_` for `/`)
  /// The decoder: a BFCL handler family (`gorilla`, `hermes`, `claude_prompt`, `openai`, ...),
  /// `native` (tool calls recorded as [{name: arguments-JSON}]) or `pythonic`. Empty: the
  /// handler BFCL's handler map gives the model (an unknown model is an error).
  std::string format;
  /// Treat dots in function names as underscores (BFCL does for models whose API forbids dots);
  /// nullopt: as BFCL's list says for the model.
  std::optional<bool> underscore_to_dot;
  std::vector<std::string> categories;  ///< only these (BFCL's names); empty: all found
};

struct category_score {
  std::string name;  ///< as BFCL names its score file: `simple`, `parallel_multiple_function`, ...
  std::size_t correct_count = 0;
  std::size_t total_count = 0;
  double accuracy() const { return total_count ? static_cast<double>(correct_count) / total_count : 0.0; }
};

/// One entry BFCL counts as wrong, with BFCL's error type and messages.
struct failure {
  std::string category;
  std::size_t id = 0;          ///< 1-based line number, as BFCL's score files number entries
  std::string entry_id;        ///< the question's own id when the data has one (`simple_12`)
  json error = json::array();  ///< messages, as BFCL writes them
  std::string error_type;      ///< e.g. `value_error:string`, `ast_decoder:decoder_failed`
  json model_result_raw;
  std::optional<json> model_result_decoded;
  json possible_answer;
};

struct score_report {
  std::string model;
  std::string decoder;                    ///< the decoder family used
  std::vector<category_score> categories; ///< sorted by name
  std::vector<failure> failures;
  std::vector<std::string> skipped;       ///< result files not scored, with the reason
  double seconds = 0;                     ///< time spent decoding and checking
  std::vector<double> latencies;          ///< the results' `latency` fields (seconds), when given
  std::int64_t input_tokens = 0;          ///< sums of the results' token counts, when given
  std::int64_t output_tokens = 0;
};

/// score reads the data and results and scores every AST and relevance category found.
/// Errors (errc::invalid_argument / io_error): a folder that cannot be read, an unknown model
/// without `format` (the message lists the known ones), a result file whose entry count does
/// not match its questions, a line that is not JSON (named by file and line).
result<score_report> score(const score_options& options);

/// The report as JSON: {"model", "categories": {NAME: {"accuracy", "correct_count",
/// "total_count"}}, "failures": [...], "skipped": [...]}.
json to_json(const score_report& report, bool with_failures = true);

/// A team's own test case (docs/eval.md, "Your own cases"): one JSON object a line with `id`,
/// `question` (a string or BFCL's list of {role, content}), optional `tools` (names; default all)
/// and `ground_truth`: the expected calls as [{FUNCTION: {PARAM: [ACCEPTED VALUES]}}] in BFCL's
/// shape ("" among the values marks a parameter that may be left out); [] when no tool fits.
struct test_case {
  std::string id;
  json question;
  json ground_truth = json::array();
  std::vector<json> tools;  ///< the tools offered, as MCP/JSON Schema definitions
};

/// load_cases reads a cases file against the available tools (each {name, description,
/// inputSchema}). Errors name the file and line: not JSON, no question, an unknown tool.
result<std::vector<test_case>> load_cases(const std::string& cases_file, const std::vector<json>& tools);

/// The result file `eval run --cases FILE` writes for FILE: STEM_result.json.
std::string cases_result_name(const std::string& cases_file);

/// score_cases checks each case's result (by id) with BFCL's checker: one expected call as its
/// simple category, several as its order-free parallel matching, none as its relevance check.
/// `options.format` picks the decoder (default native), `options.model` names the report.
result<score_report> score_cases(const std::vector<test_case>& cases, const std::string& results_file,
                                 const score_options& options);

/// A JSON Schema tool definition as BFCL's function doc (number is float, object is dict).
json bfcl_function(const json& tool);

/// A leaderboard over several scored models, in the shape of BFCL's data.csv (its columns, its
/// weighted and unweighted averages). Executable and REST columns are "N/A" (not scored here),
/// so "Overall Acc" averages the AST categories and relevance only; cost is "N/A".
enum class report_format { csv, markdown, html };
std::string leaderboard(const std::vector<score_report>& reports, report_format format);

/// Model names BFCL's 2024-08 handler map knows, and the decoder families.
std::vector<std::string> known_models();
std::vector<std::string> known_formats();

}  // namespace tooluse::eval
