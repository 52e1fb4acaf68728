// The calculator-using fake model (fake_model.hpp).
#include "fake_model.hpp"

namespace tooluse::testing {

std::function<scripted_response(const recorded_request&)> calculator_model(
    std::chrono::milliseconds latency, std::atomic<long>* requests) {
  return [latency, requests](const recorded_request& req) {
    if (requests) requests->fetch_add(1, std::memory_order_relaxed);
    json body = req.json_body();
    const bool stream = body.value("stream", false);
    const json& messages = body.contains("messages") ? body["messages"] : json::array();
    fake_turn turn;
    if (!messages.empty() && messages.back().value("role", "") == "tool") {
      const json& content = messages.back()["content"];
      turn.text = "The answer is " + (content.is_string() ? content.get<std::string>() : content.dump());
    } else {
      turn.calls = {{"call_1", "calculator", R"({"expression":"6*7"})"}};
    }
    scripted_response r = openai_response(turn, stream);
    r.delay = latency;
    return r;
  };
}

}  // namespace tooluse::testing
