// The calculator-using fake model (fake_model.hpp).
#include "fake_model.hpp"

#include <string>

namespace tooluse::testing {
namespace {

// last_message reads what the model decides on without building the request's document: the
// "stream" flag and the last message's role and content (a string). The model stands in for a
// remote one, so it should cost the machine little; a body it cannot read this way (content
// that is not a string, not JSON) is read whole instead.
struct last_message : nlohmann::json_sax<json> {
  bool stream = false;
  std::string role;
  std::string content;  ///< the last message's content as the whole document would give it
  bool plain = true;    ///< the last message's content is a string, null or absent
  bool ok = true;       ///< JSON, and "stream" (if any) is a boolean

  int depth = 0;             // objects and arrays open
  bool in_messages = false;  // inside the top-level "messages" array
  std::string at_key;        // the last key at the level being read

  bool at_message() const { return in_messages && depth == 3; }
  bool other() {  // a number, a boolean, an object or an array
    if (at_message() && at_key == "content") plain = false;
    if (depth == 1 && at_key == "stream") ok = false;
    return true;
  }
  bool null() override {
    if (at_message() && at_key == "content") content = "null";
    return other_than_content();
  }
  bool other_than_content() {
    if (depth == 1 && at_key == "stream") ok = false;
    return true;
  }
  bool boolean(bool b) override {
    if (depth == 1 && at_key == "stream") {
      stream = b;
      return true;
    }
    return other();
  }
  bool number_integer(number_integer_t) override { return other(); }
  bool number_unsigned(number_unsigned_t) override { return other(); }
  bool number_float(number_float_t, const string_t&) override { return other(); }
  bool binary(binary_t&) override { return other(); }
  bool string(string_t& s) override {
    if (at_message() && at_key == "role") role = s;
    if (at_message() && at_key == "content") content = s;
    return other_than_content();
  }
  bool start_object(std::size_t) override {
    other();
    ++depth;
    if (at_message()) role.clear(), content = "null", plain = true;  // a new message
    if (depth == 1 || at_message()) at_key.clear();
    return true;
  }
  bool end_object() override {
    --depth;
    return true;
  }
  bool start_array(std::size_t) override {
    if (depth == 1 && at_key == "messages") in_messages = true;
    else other();
    ++depth;
    return true;
  }
  bool end_array() override {
    --depth;
    if (depth == 1) in_messages = false;
    return true;
  }
  bool key(string_t& k) override {
    if (depth == 1 || at_message()) at_key = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    ok = false;
    return false;
  }
};

}  // namespace

std::function<scripted_response(const recorded_request&)> calculator_model(
    std::chrono::milliseconds latency, std::atomic<long>* requests) {
  return [latency, requests](const recorded_request& req) {
    if (requests) requests->fetch_add(1, std::memory_order_relaxed);
    last_message last;
    json::sax_parse(req.body, &last);
    bool stream = last.stream;
    std::string role = std::move(last.role), content = std::move(last.content);
    if (!last.ok || !last.plain) {  // read the whole document
      json body = req.json_body();
      if (!body.is_object()) body = json::object();
      stream = body.value("stream", false);
      const json& messages = body.contains("messages") ? body["messages"] : json::array();
      role.clear();
      if (!messages.empty() && messages.back().is_object()) {
        role = messages.back().value("role", "");
        const json& c = messages.back().value("content", json());
        content = c.is_string() ? c.get<std::string>() : c.dump();
      }
    }
    fake_turn turn;
    if (role == "tool")
      turn.text = "The answer is " + content;
    else
      turn.calls = {{"call_1", "calculator", R"({"expression":"6*7"})"}};
    scripted_response r = openai_response(turn, stream);
    r.delay = latency;
    return r;
  };
}

}  // namespace tooluse::testing
