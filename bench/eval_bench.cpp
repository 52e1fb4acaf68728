// Scoring throughput of `tooluse eval score`: one model's whole 2024-08 AST + relevance set
// (1,390 entries: simple, multiple, parallel, parallel multiple, Java, JavaScript, relevance),
// read from disk, decoded by the model's BFCL handler and checked, per iteration. Reports
// entries per second for each of the four models kept in tests/data (docs/eval.md has figures).
//   cmake --preset bench && cmake --build --preset bench --target bench_eval
//   build/bench/bench/bench_eval --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include "tooluse/eval/score.hpp"

namespace {

void score_model(benchmark::State& state, const char* model) {
  const std::string data = TOOLUSE_SOURCE_DIR "/tests/data/bfcl-2024-08";
  const std::string results = std::string(TOOLUSE_SOURCE_DIR "/tests/data/bfcl-result-2024-08-11/result/") + model;
  std::size_t entries = 0;
  for (auto _ : state) {
    auto report = tooluse::eval::score({data, results, model});
    if (!report) {
      state.SkipWithError(report.error().message.c_str());
      return;
    }
    for (const auto& c : report->categories) entries += c.total_count;
    benchmark::DoNotOptimize(report->failures.data());
  }
  state.counters["entries/s"] = benchmark::Counter(static_cast<double>(entries), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(score_model, gpt_4o_fc, "gpt-4o-2024-08-06-FC")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(score_model, claude_prompt, "claude-3-5-sonnet-20240620")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(score_model, hermes, "NousResearch_Hermes-2-Pro-Llama-3-8B")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(score_model, gorilla, "gorilla-openfunctions-v2")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
