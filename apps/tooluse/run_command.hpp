#pragma once
// `tooluse run`'s engine, shared with `tooluse runs resume`.
#include <chrono>
#include <string>

#include "agent_setup.hpp"
#include "durable.hpp"

namespace tooluse::cli {

struct run_request {
  registry_flags tools;
  model_flags model;
  durable_flags durable;
  std::string question;
  std::string trace;
  bool json_output = false;
  std::chrono::milliseconds timeout{0};  ///< --timeout: deadline for the whole run (0: none)
};

/// run_agent runs (or, with durable.resume, resumes) one agent run and returns the exit status.
int run_agent(run_request& o);

}  // namespace tooluse::cli
