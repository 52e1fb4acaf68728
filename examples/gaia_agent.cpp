// A GAIA question answered by the agent loop (seed 000): how many thousand hours would Eliud
// Kipchoge need to run to the Moon at its closest approach at his marathon record pace?
//
// The program runs offline, so two things are stand-ins, clearly marked below:
//  - the model: `scripted_model` implements the public tooluse::llm::provider interface and
//    plays back the tool calls a real model made for this question in the seed (search, then
//    calculate), then answers with the calculator's last result. Swap it for
//    tooluse::llm::openai_chat or anthropic_messages to ask a real model.
//  - the web: `search_web`, `search_wikipedia` and `get_wikipedia_page` return the facts the
//    seed's searches found (a 2:01:09 record; a minimum perigee of 356,400 km).
// The calculator is the real built-in tool, and tooluse::agent is the real loop: it sends the
// tools, runs the calls the model asks for, feeds every result back with its id, and stops
// when the model answers.
#include <iostream>
#include <tooluse/agent/agent.hpp>
#include <tooluse/builtin/calculator.hpp>
#include <tooluse/tooluse.hpp>

using namespace tooluse;

// scripted_model: a "model" that replays a fixed list of tool-call turns, one per request.
class scripted_model : public llm::provider {
 public:
  explicit scripted_model(std::vector<std::vector<tool_call>> turns) : turns_(std::move(turns)) {}

  result<llm::chat_response> complete(const llm::chat_request& req, const llm::stream_callbacks&,
                                       std::stop_token) override {
    llm::chat_response out;
    if (next_ < turns_.size()) {
      out.reply = llm::message::assistant("");
      out.reply.tool_calls = turns_[next_++];
      out.finish = llm::finish_reason::tool_calls;
    } else {  // done calling tools: answer with the last tool result the loop sent back
      out.reply = llm::message::assistant(req.messages.back().text());
    }
    return out;
  }
  std::string name() const override { return "scripted"; }

 private:
  std::vector<std::vector<tool_call>> turns_;
  size_t next_ = 0;
};

tool_call call(std::string id, std::string name, std::string arguments) {
  return tool_call::from_text(std::move(id), std::move(name), std::move(arguments));
}

// Offline stand-ins for web search, returning what the seed's searches returned.
void add_offline_search_tools(tool_registry& tools) {
  json query = json::parse(R"({"type":"object","properties":{"query":{"type":"string"}},
                               "required":["query"]})");
  tools.add({.name = "search_web", .description = "Search the web (offline stand-in)",
             .input_schema = query},
            [](const json&, call_context&) {
              return tool_result::text("Eliud Kipchoge - Wikipedia: Kipchoge set the marathon "
                                       "world record of 2:01:09 in Berlin on 25 September 2022.");
            });
  tools.add({.name = "search_wikipedia", .description = "Find Wikipedia page titles (offline "
             "stand-in)", .input_schema = query},
            [](const json&, call_context&) {
              return tool_result::text(R"(["Moon", "Lunar distance", "Orbit of the Moon"])");
            });
  tools.add({.name = "get_wikipedia_page", .description = "Read a Wikipedia page (offline "
             "stand-in)", .input_schema = json::parse(R"({"type":"object","properties":{
               "title":{"type":"string"}},"required":["title"]})")},
            [](const json& args, call_context&) {
              if (args["title"] != "Moon") return tool_result::error("no page with that title");
              return tool_result::text("Moon. Perigee: 356,400 km (356,400-370,400 km); the "
                                       "distance varies from 356,400 km to 406,700 km (apogee).");
            });
}

int main() {
  tool_registry tools;
  builtin::register_calculator(tools);  // the real calculator
  add_offline_search_tools(tools);

  scripted_model model({
      {call("call_1", "search_web", R"({"query":"Eliud Kipchoge marathon world record"})")},
      {call("call_2", "calculator", R"({"expression":"(2*3600 + 1*60 + 9) / 42.195"})")},
      {call("call_3", "search_wikipedia", R"({"query":"Moon"})"),
       call("call_4", "get_wikipedia_page", R"({"title":"Moon"})")},
      {call("call_5", "calculator", R"({"expression":"356400 * 7269 / 42.195 / 3600"})")},
      {call("call_6", "calculator", R"j({"expression":"round(356400 * 7269 / 42.195 / 3600 / 1000)"})j")},
  });

  agent_options options{.system = "Use the tools; use the calculator for all arithmetic.",
                        .max_turns = 8};
  options.on_event = [](const agent_event& e) {
    if (e.what == agent_event::kind::tool_call)
      std::cout << "turn " << e.turn << ": " << e.call->name << " " << e.call->raw_arguments << "\n";
    if (e.what == agent_event::kind::tool_result)
      std::cout << "    " << e.call->name << " -> " << e.result->all_text() << "\n";
  };
  agent gaia(model, tools, options);
  auto answer = gaia.run(
      "If Eliud Kipchoge could maintain his record-making marathon pace indefinitely, how many "
      "thousand hours would it take him to run the distance between the Earth and the Moon at "
      "its closest approach? Use the minimum perigee value on the Wikipedia page for the Moon. "
      "Round your result to the nearest 1000 hours.");
  if (!answer) {
    std::cerr << answer.error().message << "\n";
    return 1;
  }
  std::cout << "answer: " << answer->answer << " (thousand hours, after " << answer->turns
            << " turns)\n";
}
