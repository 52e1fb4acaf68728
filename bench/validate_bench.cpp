// Validation of BFCL-style tool arguments against compiled schemas: tooluse's draft 2020-12
// engine versus valijson (Debian libvalijson-dev, draft 7) on the same schemas and instances,
// in one run. Data: every function of BFCL_v4_simple_python with its first ground-truth call.
// Prints the ratio of the medians (valijson / tooluse) at the end.
//   build/bench/bench/bench_validate (cmake --preset bench) --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/schema/validator.hpp"

namespace {

using tooluse::json;

// BFCL's Python-flavoured types mapped to JSON Schema (kept local so the benchmark does not
// depend on the importer): dict -> object, float -> number, tuple -> array, any -> {}.
json to_json_schema(const json& bfcl) {
  if (!bfcl.is_object()) return bfcl;
  json out = json::object();
  for (auto it = bfcl.begin(); it != bfcl.end(); ++it) {
    const std::string& k = it.key();
    if (k == "type" && it->is_string()) {
      std::string t = it->get<std::string>();
      if (t == "any") continue;
      out["type"] = t == "dict" ? "object" : t == "float" ? "number" : t == "tuple" ? "array" : t;
    } else if (k == "properties" && it->is_object()) {
      json props = json::object();
      for (auto p = it->begin(); p != it->end(); ++p) props[p.key()] = to_json_schema(p.value());
      out[k] = props;
    } else if (k == "items" || k == "additionalProperties") {
      out[k] = to_json_schema(*it);
    } else if (k == "required" || k == "enum" || k == "minimum" || k == "maximum") {
      out[k] = *it;
    }
  }
  return out;
}

struct sample {
  json schema;
  json instance;
  nlohmann::json schema_plain;  // valijson's adapter takes nlohmann::json
  nlohmann::json instance_plain;
};

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

const std::vector<sample>& samples() {
  static const std::vector<sample> k_samples = [] {
    std::vector<sample> out;
    std::string dir = std::string(TOOLUSE_SHARED_DIR) + "/data/bfcl/";
    auto functions = lines_of(dir + "BFCL_v4_simple_python.json");
    auto answers = lines_of(dir + "possible_answer/BFCL_v4_simple_python.json");
    for (std::size_t i = 0; i < functions.size() && i < answers.size(); ++i) {
      json f = json::parse(functions[i])["function"][0];
      json truth = json::parse(answers[i])["ground_truth"][0];
      json args = json::object();
      for (auto it = truth.begin().value().begin(); it != truth.begin().value().end(); ++it)
        if (!it->empty() && it->at(0) != "") args[it.key()] = it->at(0);
      sample s{to_json_schema(f["parameters"]), args, {}, {}};
      s.schema_plain = nlohmann::json::parse(s.schema.dump());
      s.instance_plain = nlohmann::json::parse(s.instance.dump());
      out.push_back(std::move(s));
    }
    return out;
  }();
  return k_samples;
}

void bm_tooluse_is_valid(benchmark::State& state) {
  std::vector<tooluse::schema::validator> validators;
  for (const auto& s : samples()) validators.push_back(*tooluse::schema::validator::compile(s.schema));
  std::size_t i = 0, valid = 0;
  for (auto _ : state) {
    valid += validators[i].is_valid(samples()[i].instance);
    i = (i + 1) % validators.size();
  }
  state.counters["valid_fraction"] = static_cast<double>(valid) / state.iterations();
}
BENCHMARK(bm_tooluse_is_valid);

void bm_tooluse_validate_with_errors(benchmark::State& state) {
  std::vector<tooluse::schema::validator> validators;
  for (const auto& s : samples()) validators.push_back(*tooluse::schema::validator::compile(s.schema));
  std::size_t i = 0;
  for (auto _ : state) {
    auto errors = validators[i].validate(samples()[i].instance);
    benchmark::DoNotOptimize(errors);
    i = (i + 1) % validators.size();
  }
}
BENCHMARK(bm_tooluse_validate_with_errors);

void bm_valijson_validate(benchmark::State& state) {
  std::vector<std::unique_ptr<valijson::Schema>> schemas;
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  for (const auto& s : samples()) {
    auto schema = std::make_unique<valijson::Schema>();
    valijson::adapters::NlohmannJsonAdapter adapter(s.schema_plain);
    parser.populateSchema(adapter, *schema);
    schemas.push_back(std::move(schema));
  }
  valijson::Validator validator;
  std::size_t i = 0, valid = 0;
  for (auto _ : state) {
    valijson::adapters::NlohmannJsonAdapter target(samples()[i].instance_plain);
    valid += validator.validate(*schemas[i], target, nullptr);
    i = (i + 1) % schemas.size();
  }
  state.counters["valid_fraction"] = static_cast<double>(valid) / state.iterations();
}
BENCHMARK(bm_valijson_validate);

void bm_tooluse_compile(benchmark::State& state) {
  std::size_t i = 0;
  for (auto _ : state) {
    auto v = tooluse::schema::validator::compile(samples()[i].schema);
    benchmark::DoNotOptimize(v);
    i = (i + 1) % samples().size();
  }
}
BENCHMARK(bm_tooluse_compile);

// Keeps the median (or, without repetitions, the only) time per benchmark for the ratio.
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> times;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      std::string name = r.run_name.function_name;
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name != "median") continue;
      if (r.run_type == Run::RT_Iteration && times.count(name) && r.repetitions > 1) continue;
      times[name] = r.GetAdjustedCPUTime();  // CPU time: robust on a shared, loaded machine
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::printf("samples: %zu BFCL simple_python functions with their ground-truth arguments\n",
              samples().size());
  ratio_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  auto ours = reporter.times.find("bm_tooluse_is_valid");
  auto theirs = reporter.times.find("bm_valijson_validate");
  if (ours != reporter.times.end() && theirs != reporter.times.end() && ours->second > 0)
    std::printf("median CPU time per call: tooluse %.1f ns, valijson %.1f ns; "
                "valijson/tooluse = %.2f\n",
                ours->second, theirs->second, theirs->second / ours->second);
  benchmark::Shutdown();
  return 0;
}
