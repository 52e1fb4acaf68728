#pragma once
// fake_model: a responder for fake_llm_server that plays a model using the calculator: the
// first request of a conversation gets a calculator call, a request whose last message is the
// tool's result gets the answer quoting it. Any number of conversations may run at once; the
// many_agents test and bench/many_agents.sh use it.
#include <atomic>
#include <chrono>

#include "support/fake_llm_server.hpp"

namespace tooluse::testing {

/// calculator_model returns the responder; each answer waits `latency` first (the model's
/// thinking time); `requests`, when set, counts the requests answered.
std::function<scripted_response(const recorded_request&)> calculator_model(
    std::chrono::milliseconds latency, std::atomic<long>* requests = nullptr);

}  // namespace tooluse::testing
