// durable_run: an agent run journaled in a SQLite store. The first attempt stops when the model
// becomes unreachable after a tool call; a second agent (it could be another process, after a
// crash) resumes the run from the store: the completed tool call is not run again, and the run
// ends with the answer. With "postgresql://..." instead of the file, the same works on PostgreSQL.
#include <filesystem>
#include <iostream>

#include "tooluse/agent/agent.hpp"
#include "tooluse/agent/journal.hpp"
#include "tooluse/store/store.hpp"

using namespace tooluse;

// scripted_model asks for one `send_email` call, then answers; `down` makes the second request
// fail as a network outage would.
class scripted_model final : public llm::provider {
 public:
  bool down = false;
  result<llm::chat_response> complete(const llm::chat_request& req, const llm::stream_callbacks&,
                                      std::stop_token) override {
    llm::chat_response r;
    r.reply.role = llm::role::assistant;
    if (req.messages.back().role == llm::role::user) {
      r.reply.tool_calls.push_back(
          tool_call::from_text("call_1", "send_email", R"({"to":"ada@example.com"})"));
      r.finish = llm::finish_reason::tool_calls;
      return r;
    }
    if (down) return fail(errc::network_error, "the model is unreachable");
    r.reply.content.push_back(llm::content_part::text_part("Sent: " + req.messages.back().text()));
    return r;
  }
  std::string name() const override { return "scripted"; }
};

int main() {
  auto path = std::filesystem::temp_directory_path() / "tooluse_durable_example.db";
  std::filesystem::remove(path);
  auto store = store::open_store(path.string());
  if (!store) return std::cerr << store.error().message << "\n", 1;

  int emails_sent = 0;
  tool_registry tools;
  tools.add({.name = "send_email", .description = "Send an email"},
            [&](const json& args, call_context& ctx) {
              ++emails_sent;  // a real tool would pass ctx.idempotency_key to its email API
              std::cout << "send_email ran with idempotency key " << ctx.idempotency_key << "\n";
              return tool_result::text("email to " + args.value("to", "") + " queued");
            });

  scripted_model model;
  model.down = true;
  auto journal = (*store)->create_run({.id = "example-run", .settings = {{"model", "scripted"}}});
  agent first(model, tools, {.journal = *journal});
  auto r = first.run("Email Ada.");
  std::cout << "first attempt: " << (r ? r->answer : r.error().message) << "\n";

  model.down = false;  // later, maybe in another process:
  auto reopened = (*store)->open_run("example-run");
  if (!reopened) return std::cerr << reopened.error().message << "\n", 1;
  auto snapshot = (*store)->snapshot("example-run");
  agent second(model, tools, {.journal = *reopened});
  auto resumed = second.resume(*snapshot);
  std::cout << "resumed: " << (resumed ? resumed->answer : resumed.error().message) << "\n";
  std::cout << "send_email ran " << emails_sent << " time(s)\n";
  std::cout << "status: " << to_string((*store)->run("example-run")->status) << "\n";
  std::filesystem::remove(path);
  return 0;
}
