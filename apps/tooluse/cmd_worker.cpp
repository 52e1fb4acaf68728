// tooluse worker: run the tool calls of a PostgreSQL queue (docs/durable-runs.md, "Workers").
#include <signal.h>

#include <iostream>
#include <thread>

#include "agent_setup.hpp"
#include "conventions.hpp"
#include "durable.hpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/store/queue.hpp"

namespace tooluse::cli {
namespace {

struct worker_flags {
  registry_flags tools;
  std::string store;
  std::string queue;
  std::string id;
  std::chrono::milliseconds lease{10000};
  int batch = 16;
  int threads = 16;
  bool yes = false;
};

int run_worker(worker_flags& f) {
  std::string url = store_location(f.store);
  if (!store::is_postgres(url))
    return usage_error("tooluse worker needs --store postgresql://... (or TOOLUSE_STORE)");
  // Stop cleanly on SIGINT/SIGTERM: a signal thread requests stop; calls in flight finish.
  // Blocked before any thread starts (MCP servers' readers), so every thread inherits it.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  auto registry = make_registry(f.tools);
  if (!registry) return usage_error(registry.error().message);
  std::stop_source stop;
  std::thread([set, stop]() mutable {
    int sig = 0;
    sigwait(&set, &sig);
    stop.request_stop();
  }).detach();
  bool yes = f.yes;
  exec::executor executor(
      **registry, {.max_threads = f.threads, .approval = [yes](const exec::approval_request& r) {
                     if (yes) return exec::approval_decision::approve();
                     return exec::approval_decision::reject(
                         "the worker runs dangerous tools such as \"" + r.definition.name +
                         "\" only when started with --yes");
                   }});
  store::queue_worker worker(
      url, f.queue, executor,
      {.worker_id = f.id,
       .lease = f.lease,
       .batch = f.batch,
       .log = [](const std::string& s) { std::cerr << "tooluse worker: " << s << "\n"; },
       .tools = registry->get()});
  if (auto s = worker.run(stop.get_token()); !s)
    return report_error(exit_status::failed, s.error().message);
  std::cerr << "tooluse worker: stopped after " << worker.completed() << " calls\n";
  return 0;
}

void setup_worker(CLI::App& app, app_state& state) {
  auto f = std::make_shared<worker_flags>();
  auto* cmd =
      app.add_subcommand("worker", "Run tool calls from a PostgreSQL queue (tooluse run --queue)");
  add_registry_flags(*cmd, f->tools);
  cmd->add_option("--store", f->store,
                  "The PostgreSQL store, postgresql://... (default $TOOLUSE_STORE)");
  cmd->add_option("--queue", f->queue, "The queue's name")->required();
  cmd->add_option("--id", f->id, "This worker's name (default HOST-PID)");
  add_duration_option(*cmd, "--lease", f->lease,
                      "A call this worker took is taken over by another worker this long after "
                      "its last heartbeat (e.g. 30s)");
  // Deprecated: milliseconds without a unit. Hidden from help, completion and the man page.
  cmd->add_option_function<long long>(
         "--lease-ms",
         [f](long long ms) {
           if (ms <= 0) throw CLI::ValidationError("--lease-ms", "must be a positive number");
           std::cerr << "tooluse worker: --lease-ms is deprecated; use --lease " +
                            format_duration(std::chrono::milliseconds(ms)) + "\n";
           f->lease = std::chrono::milliseconds(ms);
         },
         "Deprecated: --lease in milliseconds")
      ->group("");
  cmd->add_option("--batch", f->batch, "Calls claimed at once and run in parallel (default 16)");
  cmd->add_option("--threads", f->threads, "Worker threads (default 16)");
  cmd->add_flag("--yes,-y", f->yes, "Run dangerous tools (otherwise they are refused)");
  cmd->footer(
      "Runs until SIGINT or SIGTERM. Example:\n"
      "  tooluse worker --store postgresql://localhost/app --queue tools --mcp servers.json\n"
      "Exit status: 0 stopped, 1 the database failed, 2 bad usage.");
  cmd->callback([f, &state] { state.action = [f] { return run_worker(*f); }; });
}

const command_registrar worker_registrar(33, &setup_worker);

}  // namespace
}  // namespace tooluse::cli
