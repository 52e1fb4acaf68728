// Parsing throughput of the raw tool-call formats: a reply of prose with calls every few
// hundred bytes, parsed whole and streamed in token-sized chunks (8 bytes). Reports MB/s.
#include <benchmark/benchmark.h>

#include "tooluse/textcall/text_format.hpp"

using namespace tooluse;
using namespace tooluse::textcall;

namespace {

const tool_schemas& schemas() {
  static const tool_schemas s = {
      {"get_weather", json::parse(R"({"type":"object","properties":{"city":{"type":"string"},
          "days":{"type":"integer"},"units":{"type":"string"},"detail":{"type":"object"}}})")}};
  return s;
}

// reply builds about 64 KiB of model output in format `f`.
std::string reply(format f) {
  tool_call c;
  c.name = "get_weather";
  c.arguments = json::parse(
      R"({"city":"São Paulo","days":3,"units":"metric","detail":{"hours":[6,12,18],"wind":true}})");
  std::string prose =
      "Let me look that up for you. The forecast depends on the region, so I will check the "
      "city you named and report the temperature, the wind and the chance of rain. ";
  std::string out;
  while (out.size() < 64 * 1024) out += prose + render_calls(f, {c, c}) + "\n";
  return out;
}

void parse_whole(benchmark::State& state, format f) {
  std::string text = reply(f);
  parse_options opts{.schemas = schemas()};
  std::size_t calls = 0;
  for (auto _ : state) {
    auto r = parse(f, text, opts);
    calls = r.calls.size();
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["calls"] = static_cast<double>(calls);
}

void parse_streamed(benchmark::State& state, format f) {
  std::string text = reply(f);
  parse_options opts{.schemas = schemas()};
  std::string_view view(text);
  for (auto _ : state) {
    stream_parser p(f, opts);
    std::size_t calls = 0;
    for (std::size_t i = 0; i < view.size(); i += 8) calls += p.feed(view.substr(i, 8)).calls.size();
    calls += p.finish().calls.size();
    benchmark::DoNotOptimize(calls);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

void register_all() {
  for (format f : all_formats()) {
    std::string n(to_string(f));
    benchmark::RegisterBenchmark(("whole/" + n).c_str(), parse_whole, f)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("streamed/" + n).c_str(), parse_streamed, f)->Unit(benchmark::kMicrosecond);
  }
  // auto has to consider every format's markers; measure it on a hermes and a pythonic reply.
  benchmark::RegisterBenchmark("whole/auto(hermes)", [](benchmark::State& s) {
    std::string text = reply(format::hermes);
    for (auto _ : s) benchmark::DoNotOptimize(parse(format::auto_detect, text));
    s.SetBytesProcessed(static_cast<int64_t>(s.iterations() * text.size()));
  })->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("whole/auto(pythonic)", [](benchmark::State& s) {
    std::string text = reply(format::pythonic);
    for (auto _ : s) benchmark::DoNotOptimize(parse(format::auto_detect, text));
    s.SetBytesProcessed(static_cast<int64_t>(s.iterations() * text.size()));
  })->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
