// many_agents: N agent runs at once in one process, none holding a thread while the model
// thinks. Each run asks an OpenAI-compatible model a question it answers with the calculator
// (a tool call, then the answer); the runs share one provider, one executor and the process's
// HTTP connection pool, so their requests share kept-alive (or HTTP/2) connections.
//
//   many_agents --runs 10000 --base-url http://127.0.0.1:8080/v1 --model fake
//
// The last line is JSON: {"runs": N, "ok": K, "wall_s": S, "peak_rss_mb": M}. Options:
// --max-connections C bounds the connections (and requests in flight) per host (default 512:
// enough for 10,000 runs at 50 ms a turn, and each request's search of libcurl's connection
// cache grows with the connections open, docs/scale.md);
// --stream asks for streamed answers; OPENAI_API_KEY, when set, is sent.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <latch>
#include <memory>
#include <string>
#include <tooluse/agent/agent.hpp>
#include <tooluse/builtin/calculator.hpp>
#include <tooluse/exec/executor.hpp>
#include <tooluse/http/pool.hpp>
#include <tooluse/llm/openai_chat.hpp>
#include <vector>

using namespace tooluse;

namespace {

struct arguments {
  long runs = 100;
  std::string base_url;
  std::string model;
  long max_connections = 512;
  bool stream = false;
};

// peak_rss_mb reads the process's peak resident set (VmHWM) from /proc.
double peak_rss_mb() {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == "VmHWM:") {
      double kb = 0;
      in >> kb;
      return kb / 1024.0;
    }
    std::string rest;
    std::getline(in, rest);
  }
  return -1;
}

int usage(const std::string& why) {
  std::cerr << "many_agents: " << why
            << "\nusage: many_agents --runs N --base-url URL --model NAME [--max-connections C] "
               "[--stream]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  arguments a;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (flag == "--runs") a.runs = std::atol(value().c_str());
    else if (flag == "--base-url") a.base_url = value();
    else if (flag == "--model") a.model = value();
    else if (flag == "--max-connections") a.max_connections = std::atol(value().c_str());
    else if (flag == "--stream") a.stream = true;
    else return usage("unknown option \"" + flag + "\"");
  }
  if (a.runs < 1) return usage("--runs must be at least 1");
  if (a.base_url.empty() || a.model.empty()) return usage("--base-url and --model are required");
  if (auto s = http::configure_pool({.max_requests_per_host = a.max_connections,
                                     .max_connections_per_host = a.max_connections,
                                     .max_idle_connections = a.max_connections});
      !s)
    return usage(s.error().message);

  tool_registry tools;
  builtin::register_calculator(tools);
  const char* key = std::getenv("OPENAI_API_KEY");
  llm::openai_chat model({.base_url = a.base_url, .api_key = key ? key : "", .model = a.model});
  exec::executor engine(tools, {.max_threads = 2});
  std::vector<std::unique_ptr<agent>> agents;
  agents.reserve(static_cast<std::size_t>(a.runs));
  for (long i = 0; i < a.runs; ++i)
    agents.push_back(std::make_unique<agent>(
        model, tools, agent_options{.max_turns = 4, .stream = a.stream, .executor = &engine}));

  std::atomic<long> ok{0};
  std::atomic<bool> reported{false};
  std::latch finished(a.runs);
  const auto started = std::chrono::steady_clock::now();
  for (long i = 0; i < a.runs; ++i) {
    std::string question = "What is " + std::to_string(i) + " * 7? Use the calculator.";
    agents[static_cast<std::size_t>(i)]->run_async(std::move(question), [&](result<run_result> r) {
      if (r && !r->answer.empty())
        ok.fetch_add(1, std::memory_order_relaxed);
      else if (!r && !reported.exchange(true))  // one failure says what went wrong
        std::cerr << "many_agents: a run failed: " << r.error().message << "\n";
      finished.count_down();
    });
  }
  finished.wait();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  auto pool = http::pool_statistics();
  std::cout << "requests " << pool.requests << ", connections opened " << pool.connections_opened
            << ", reused " << pool.connections_reused << ", most queued " << pool.peak_queued << "\n";
  char line[256];
  std::snprintf(line, sizeof line,
                "{\"runs\": %ld, \"ok\": %ld, \"wall_s\": %.3f, \"peak_rss_mb\": %.1f}", a.runs,
                ok.load(), wall, peak_rss_mb());
  std::cout << line << std::endl;
  return ok.load() == a.runs ? 0 : 1;
}
