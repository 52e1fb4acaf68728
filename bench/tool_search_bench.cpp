// Tool search over many tools: building the BM25 index and answering a query, for 1,000 and
// 10,000 generated tools (names, descriptions and parameters over a business vocabulary).
#include <benchmark/benchmark.h>

#include "tooluse/agent/tool_search.hpp"

namespace {

std::vector<tooluse::tool> make_tools(int n) {
  static const char* verbs[] = {"get",    "list",   "create", "update",
                                "delete", "search", "export", "archive"};
  static const char* nouns[] = {"invoice",  "customer", "ticket",  "order",     "shipment",
                                "employee", "event",    "email",   "document",  "repository",
                                "payment",  "refund",   "product", "warehouse", "supplier",
                                "contract", "forecast", "report"};
  std::vector<tooluse::tool> tools;
  for (int i = 0; i < n; ++i) {
    std::string verb = verbs[i % 8], noun = nouns[(i / 8) % 18];
    std::string name =
        "server" + std::to_string(i / 144) + "__" + verb + "_" + noun + "_" + std::to_string(i);
    tools.push_back(
        {.name = name,
         .description = "Use this to " + verb + " " + noun + " records in system " +
                        std::to_string(i % 97) + ", with filters and paging.",
         .input_schema = {
             {"type", "object"},
             {"properties",
              {{noun + "_id", {{"type", "string"}}},
               {"limit", {{"type", "integer"}}},
               {"filter",
                {{"type", "object"}, {"properties", {{"status", {{"type", "string"}}}}}}}}}}});
  }
  return tools;
}

void BM_tool_index_build(benchmark::State& state) {
  auto tools = make_tools(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    tooluse::tool_index index(tools);
    benchmark::DoNotOptimize(index.size());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_tool_index_build)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_tool_index_search(benchmark::State& state) {
  tooluse::tool_index index(make_tools(static_cast<int>(state.range(0))));
  for (auto _ : state) {
    auto hits = index.search("export the refund report for a customer", 5);
    benchmark::DoNotOptimize(hits.data());
  }
}
BENCHMARK(BM_tool_index_search)->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
