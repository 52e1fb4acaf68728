// Agent loop benchmarks.
//  BM_agent_turn_in_process: the loop's own overhead per turn (a fake provider that answers
//    instantly, in process: no HTTP), one tool call per turn through the execution engine.
//  BM_agent_turn_loopback: the same over real HTTP to the fake OpenAI server on 127.0.0.1.
//  BM_agent_1000_concurrent: 1,000 runs at once in one process against the fake server
//    answering after 50 ms (two model requests and one calculator call per run); reports the
//    completion time and the process's peak RSS.
//  BM_agent_run_async_concurrent/N: N runs at once with agent::run_async (no thread per run),
//    over the process's HTTP pool, against a one-thread fake model answering after 50 ms
//    (support/async_model_server.hpp): what examples/many_agents measures, as a benchmark.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <latch>
#include <thread>

// The fake server lives in tests/support, which bench targets do not link; compile it here.
#include "support/fake_llm_server.cpp"
#include "support/fake_llm_check.cpp"
#include "support/fake_llm_wire.cpp"
#include "support/fake_model.cpp"
#include "support/async_model_server.hpp"
#include "tooluse/agent/agent.hpp"
#include "tooluse/builtin/calculator.hpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/llm/openai_chat.hpp"

namespace {

using namespace tooluse;

// instant_model calls the calculator on odd requests and answers on even ones.
class instant_model final : public llm::provider {
 public:
  result<llm::chat_response> complete(const llm::chat_request& req, const llm::stream_callbacks&,
                                      std::stop_token) override {
    llm::chat_response r;
    r.reply.role = llm::role::assistant;
    if (req.messages.back().role == llm::role::user) {
      r.reply.tool_calls.push_back(tool_call::from_text("call_1", "calculator", R"({"expression":"6*7"})"));
      r.finish = llm::finish_reason::tool_calls;
    } else {
      r.reply.content.push_back(llm::content_part::text_part("42"));
    }
    r.usage = {.input_tokens = 10, .output_tokens = 5};
    return r;
  }
  std::string name() const override { return "instant"; }
};

void BM_agent_turn_in_process(benchmark::State& state) {
  tool_registry tools;
  builtin::register_calculator(tools);
  exec::executor ex(tools, {.max_threads = 2});
  instant_model model;
  for (auto _ : state) {
    agent a(model, tools, {.executor = &ex});
    auto r = a.run("What is 6*7?");
    if (!r || r->answer != "42") state.SkipWithError("run failed");
  }
  state.counters["turns/s"] = benchmark::Counter(2.0 * static_cast<double>(state.iterations()),
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_agent_turn_in_process)->Unit(benchmark::kMicrosecond);

testing::scripted_response answer_for(const testing::recorded_request& req) {
  bool has_result = req.body.find("\"role\":\"tool\"") != std::string::npos;
  if (has_result) return testing::openai_response({.text = "42"}, false);
  return testing::openai_response({.calls = {{"call_1", "calculator", R"({"expression":"6*7"})"}}},
                                  false);
}

void BM_agent_turn_loopback(benchmark::State& state) {
  testing::fake_llm_server server;
  server.record_requests(false);
  server.set_responder(answer_for);
  tool_registry tools;
  builtin::register_calculator(tools);
  exec::executor ex(tools, {.max_threads = 2});
  llm::openai_chat model({.base_url = server.url("/v1"), .model = "fake"});
  for (auto _ : state) {
    agent a(model, tools, {.executor = &ex});
    auto r = a.run("What is 6*7?");
    if (!r || r->answer != "42") state.SkipWithError("run failed");
  }
  state.counters["turns/s"] = benchmark::Counter(2.0 * static_cast<double>(state.iterations()),
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_agent_turn_loopback)->Unit(benchmark::kMicrosecond);

void BM_agent_1000_concurrent(benchmark::State& state) {
  const int runs = static_cast<int>(state.range(0));
  testing::fake_llm_server server;
  server.record_requests(false);
  server.set_responder([](const testing::recorded_request& req) {
    auto r = answer_for(req);
    r.delay = std::chrono::milliseconds(50);  // the simulated model's latency
    return r;
  });
  tool_registry tools;
  builtin::register_calculator(tools);
  exec::executor ex(tools, {.max_threads = 8});
  llm::openai_chat model({.base_url = server.url("/v1"), .model = "fake",
                          .retry = {.max_retries = 0}});
  for (auto _ : state) {
    std::atomic<int> ok{0};
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(runs));
    for (int i = 0; i < runs; ++i)
      threads.emplace_back([&] {
        agent a(model, tools, {.executor = &ex});
        auto r = a.run("What is 6*7?");
        if (r && r->answer == "42") ++ok;
      });
    for (auto& t : threads) t.join();
    if (ok != runs) state.SkipWithError(("only " + std::to_string(ok.load()) + " runs answered").c_str());
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_MiB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  state.counters["runs"] = runs;
}
BENCHMARK(BM_agent_1000_concurrent)->Arg(1000)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_agent_run_async_concurrent(benchmark::State& state) {
  const long runs = state.range(0);
  std::atomic<long> requests{0};
  testing::async_model_server server(
      testing::calculator_model(std::chrono::milliseconds(50), &requests));
  tool_registry tools;
  builtin::register_calculator(tools);
  exec::executor ex(tools, {.max_threads = 2});
  llm::openai_chat model({.base_url = server.url("/v1"), .model = "fake",
                          .retry = {.max_retries = 0}});
  for (auto _ : state) {
    std::vector<std::unique_ptr<agent>> agents;
    agents.reserve(static_cast<std::size_t>(runs));
    for (long i = 0; i < runs; ++i)
      agents.push_back(std::make_unique<agent>(model, tools,
                                               agent_options{.max_turns = 4, .executor = &ex}));
    std::atomic<long> ok{0};
    std::latch finished(runs);
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < runs; ++i)
      agents[static_cast<std::size_t>(i)]->run_async(
          "What is " + std::to_string(i) + " * 7? Use the calculator.",
          [&](result<run_result> r) {
            if (r && !r->answer.empty()) ok.fetch_add(1, std::memory_order_relaxed);
            finished.count_down();
          });
    finished.wait();
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (ok.load() != runs)
      state.SkipWithError(("only " + std::to_string(ok.load()) + " runs answered").c_str());
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_MiB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  state.counters["runs"] = static_cast<double>(runs);
  state.counters["connections"] = static_cast<double>(server.connections());
}
BENCHMARK(BM_agent_run_async_concurrent)
    ->Arg(1000)
    ->Arg(10000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();

}  // namespace

BENCHMARK_MAIN();
