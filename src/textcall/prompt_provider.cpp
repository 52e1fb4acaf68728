#include "tooluse/textcall/prompt_provider.hpp"

#include <atomic>
#include <stdexcept>

namespace tooluse::textcall {
namespace {

std::string choice_note(const llm::tool_choice& choice) {
  switch (choice.what) {
    case llm::tool_choice::mode::required: return "\nYou must call at least one function now.";
    case llm::tool_choice::mode::named: return "\nYou must call the function " + choice.name + " now.";
    default: return {};
  }
}

// call_counter makes call ids unique across replies ("t3_call_0"), since text formats carry none.
std::atomic<std::uint64_t> call_counter{0};

void take(llm::chat_response& out, std::string& content, stream_delta d,
          const llm::stream_callbacks& cb) {
  if (!d.content.empty() && cb.on_text) cb.on_text(d.content);
  if (!d.reasoning.empty() && cb.on_reasoning) cb.on_reasoning(d.reasoning);
  content += d.content;
  out.reply.reasoning += d.reasoning;
  for (auto& c : d.calls) {
    if (cb.on_tool_call_start) cb.on_tool_call_start(c.id, c.name);
    out.reply.tool_calls.push_back(std::move(c));
  }
}

}  // namespace

prompt_provider::prompt_provider(std::shared_ptr<llm::provider> inner,
                                 prompt_provider_options options)
    : inner_(std::move(inner)), options_(options) {
  if (!inner_) throw std::invalid_argument("prompt_provider: the inner provider is null");
}

std::string prompt_provider::name() const {
  return inner_->name() + "+" + std::string(to_string(options_.text_format));
}

llm::chat_request prompt_provider::to_text_request(const llm::chat_request& req) const {
  llm::chat_request out = req;
  out.tools.clear();
  out.choice = {};
  out.parallel_tool_calls.reset();
  out.strict = false;
  out.messages.clear();
  std::string block;
  if (!req.tools.empty() && req.choice.what != llm::tool_choice::mode::none) {
    block = render_tools(options_.text_format, req.tools,
                         {.parallel = req.parallel_tool_calls.value_or(true)}) +
            choice_note(req.choice);
  }
  bool system_done = block.empty();
  if (!system_done && (req.messages.empty() || req.messages.front().role != llm::role::system)) {
    out.messages.push_back(llm::message::system(block));
    system_done = true;
  }
  for (const auto& m : req.messages) {
    if (m.role == llm::role::system && !system_done) {
      out.messages.push_back(llm::message::system(m.text() + "\n\n" + block));
      system_done = true;
    } else if (m.role == llm::role::assistant && !m.tool_calls.empty()) {
      std::string text = m.text();
      if (!text.empty()) text += "\n";
      llm::message a = llm::message::assistant(text + render_calls(options_.text_format, m.tool_calls));
      a.reasoning = m.reasoning;
      out.messages.push_back(std::move(a));
    } else if (m.role == llm::role::tool) {
      std::string body = (m.is_error ? "Error: " : "") + m.text();
      std::string turn = render_result(options_.text_format, m.tool_name, body);
      // Consecutive results (parallel calls) go back together in one user turn.
      if (!out.messages.empty() && out.messages.back().role == llm::role::user &&
          out.messages.back().extras.contains("tooluse_tool_results")) {
        out.messages.back().content.front().text += "\n" + turn;
      } else {
        llm::message u = llm::message::user(turn);
        u.extras["tooluse_tool_results"] = true;
        out.messages.push_back(std::move(u));
      }
    } else {
      out.messages.push_back(m);
    }
  }
  for (auto& m : out.messages) m.extras.erase("tooluse_tool_results");
  return out;
}

result<llm::chat_response> prompt_provider::complete(const llm::chat_request& req,
                                                     const llm::stream_callbacks& callbacks,
                                                     std::stop_token stop) {
  llm::chat_request text_req = to_text_request(req);
  parse_options opts{.schemas = schemas_of(req.tools),
                     .id_prefix = "t" + std::to_string(call_counter++) + "_call_",
                     .in_reasoning = options_.in_reasoning};
  stream_parser parser(options_.parse_format, opts);
  llm::chat_response parsed_out;
  std::string content;
  llm::stream_callbacks inner_cb;
  if (req.stream) {
    inner_cb.on_text = [&](std::string_view s) { take(parsed_out, content, parser.feed(s), callbacks); };
    inner_cb.on_reasoning = callbacks.on_reasoning;
  }
  auto r = inner_->complete(text_req, inner_cb, std::move(stop));
  if (!r) return r;
  if (!req.stream) take(parsed_out, content, parser.feed(r->reply.text()), {});
  take(parsed_out, content, parser.finish(), req.stream ? callbacks : llm::stream_callbacks{});
  llm::chat_response out = std::move(*r);
  std::string native_reasoning = out.reply.reasoning;
  out.reply.content.clear();
  if (!content.empty()) out.reply.content.push_back(llm::content_part::text_part(content));
  out.reply.reasoning = native_reasoning + parsed_out.reply.reasoning;
  out.reply.tool_calls = std::move(parsed_out.reply.tool_calls);
  if (!out.reply.tool_calls.empty() && out.finish == llm::finish_reason::stop)
    out.finish = llm::finish_reason::tool_calls;
  return out;
}

}  // namespace tooluse::textcall
