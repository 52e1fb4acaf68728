// The agent loop. One run: ask the model, run the calls it makes, feed the results back.
#include "tooluse/agent/agent.hpp"

#include <algorithm>
#include <stdexcept>

#include "agent/journal_hooks.hpp"
#include "tool_offer.hpp"
#include "tooluse/agent/journal.hpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/telemetry/trace.hpp"

namespace tooluse {
namespace {

std::string call_key(const tool_call& c) { return c.name + "\n" + canonical_json(c.arguments); }

}  // namespace

agent::agent(llm::provider& model, const tool_registry& tools, agent_options options)
    : model_(model), tools_(tools), options_(std::move(options)) {
  if (options_.max_turns < 1) throw std::invalid_argument("agent: max_turns must be >= 1");
  if (options_.loop_limit < 1) throw std::invalid_argument("agent: loop_limit must be >= 1");
  if (!options_.runner && !options_.executor)
    own_executor_ = std::make_unique<exec::executor>(tools_, exec::executor_options{.max_threads = 4});
  offer_ = std::make_unique<agent_detail::tool_offer>(tools_, options_.tool_search,
                                                      model_.name() == "anthropic");
  reset();
}

agent::~agent() = default;

void agent::reset() {
  history_.clear();
  seen_calls_.clear();
  if (offer_) offer_->reset();
  previous_usage_.reset();
  if (!options_.system.empty()) history_.push_back(llm::message::system(options_.system));
}

void agent::emit(agent_event e) const {
  if (options_.on_event) options_.on_event(e);
}

status agent::check_budget() const {
  if (options_.max_cost > 0 && last_.usage.cost > options_.max_cost)
    return fail(errc::budget_exceeded,
                "agent: the run has spent " + agent_detail::usd(last_.usage.cost) +
                    ", over its budget of " + agent_detail::usd(options_.max_cost) +
                    " (max_cost); raise the budget to continue");
  if (options_.max_total_tokens > 0 && last_.usage.total_tokens() > options_.max_total_tokens)
    return fail(errc::budget_exceeded,
                "agent: the run used " + std::to_string(last_.usage.total_tokens()) +
                    " tokens, over max_total_tokens " + std::to_string(options_.max_total_tokens) +
                    "; raise the budget to continue");
  return {};
}

result<llm::chat_response> agent::ask(int turn, std::stop_token stop) {
  llm::chat_request req{.messages = history_,
                        .choice = turn == 1 ? options_.choice : llm::tool_choice{},
                        .parallel_tool_calls = options_.parallel_tool_calls,
                        .strict = options_.strict,
                        .max_tokens = options_.max_tokens,
                        .temperature = options_.temperature,
                        .stream = options_.stream};
  offer_->prepare(
      req, options_.allowed_tools_for ? options_.allowed_tools_for(turn) : options_.allowed_tools);
  if (options_.max_cost > 0 && options_.price) {
    // Stop before a request that would take the run past its budget.
    double next =
        agent_detail::estimate_cost(req, previous_usage_, previous_history_, *options_.price);
    if (last_.usage.cost + next > options_.max_cost)
      return fail(errc::budget_exceeded,
                  "agent: stopped before request " + std::to_string(turn) + ": the run has spent " +
                      agent_detail::usd(last_.usage.cost) + " of its " +
                      agent_detail::usd(options_.max_cost) +
                      " budget (max_cost) and the next request would cost about " +
                      agent_detail::usd(next) + "; raise the budget to continue");
  }
  previous_history_ = history_.size();
  emit({.what = agent_event::kind::model_request, .turn = turn, .messages = history_.size()});
  llm::stream_callbacks cb;
  if (options_.on_event) {
    cb.on_text = [&](std::string_view s) {
      emit({.what = agent_event::kind::text_delta, .turn = turn, .text = std::string(s)});
    };
    cb.on_reasoning = [&](std::string_view s) {
      emit({.what = agent_event::kind::reasoning_delta, .turn = turn, .text = std::string(s)});
    };
  }
  return model_.complete(req, cb, stop);
}

namespace {

std::size_t block_bytes(const content_block& b) {
  if (auto* t = std::get_if<text_content>(&b)) return t->text.size();
  if (auto* i = std::get_if<image_content>(&b)) return i->data.size();
  if (auto* a = std::get_if<audio_content>(&b)) return a->data.size();
  if (auto* e = std::get_if<embedded_resource>(&b))
    return e->text.value_or("").size() + e->blob.value_or("").size();
  return 256;
}

// cap_result keeps at most `max` bytes of a result's content: text is cut, blocks past the
// budget are dropped, and a note tells the model (and the user's trace) which limit applied.
void cap_result(tool_result& r, std::size_t max) {
  std::size_t total = 0;
  for (const auto& b : r.content) total += block_bytes(b);
  if (r.structured_content) total += r.structured_content->dump().size() / 2;
  if (total <= max) return;
  std::vector<content_block> kept;
  std::size_t used = 0;
  for (auto& b : r.content) {
    std::size_t n = block_bytes(b);
    if (used + n <= max) {
      used += n;
      kept.push_back(std::move(b));
    } else if (auto* t = std::get_if<text_content>(&b); t && used < max) {
      t->text.resize(max - used);
      used = max;
      kept.push_back(std::move(b));
    }
  }
  kept.push_back(text_content{"[result cut: " +
                              limit_error("the tool result of " + std::to_string(total) + " bytes",
                                          "agent_options::max_tool_result_bytes", max, "bytes")
                                  .message +
                              "]"});
  r.content = std::move(kept);
  r.structured_content.reset();
  r.meta["truncated"] = {{"limit", "agent_options::max_tool_result_bytes"}, {"bytes", total}};
}

}  // namespace

std::vector<tool_result> agent::run_calls(int turn, const std::vector<tool_call>& calls,
                                          std::stop_token stop,
                                          const std::map<std::string, tool_result>* done) {
  std::vector<tool_result> results(calls.size());
  std::vector<tool_call> to_run;
  std::vector<size_t> slots;
  std::vector<char> replayed(calls.size(), 0);
  for (size_t i = 0; i < calls.size(); ++i) {
    const tool_call& c = calls[i];
    if (done && done->count(c.id)) {  // journaled before a crash: never run again
      results[i] = done->at(c.id);
      replayed[i] = 1;
      continue;
    }
    emit({.what = agent_event::kind::tool_call, .turn = turn, .call = c});
    if (offer_->is_search_call(c)) {  // tooluse's own tool search runs here, not as a tool
      results[i] = offer_->run_search(c);
      continue;
    }
    auto entry = tools_.find(c.name);
    if (c.arguments.is_null()) {
      // Unparsable arguments go back with the schema, so the model can correct itself.
      std::string msg = "the arguments of \"" + c.name +
                        "\" are not valid JSON: " + c.raw_arguments.substr(0, 200) +
                        ". Call it again with a JSON object";
      if (entry) msg += " matching this input schema: " + dump_json(entry->definition.input_schema);
      results[i] = tool_result::error(msg);
      continue;
    }
    if (static_cast<int>(i) >= std::max(0, options_.max_tool_calls_per_turn)) {
      results[i] = tool_result::error(
          "not run: " +
          limit_error("this reply's " + std::to_string(calls.size()) + " tool calls",
                      "agent_options::max_tool_calls_per_turn",
                      static_cast<unsigned long long>(options_.max_tool_calls_per_turn))
              .message +
          ". Ask for fewer calls at a time.");
      continue;
    }
    auto& seen = seen_calls_[call_key(c)];
    if (seen.count >= options_.loop_limit) {
      results[i] = tool_result::error(
          "you already called \"" + c.name + "\" with exactly these arguments " +
          std::to_string(seen.count) + " times; it was not run again. Its last result was: " +
          seen.last_text + ". Use that result or call it with different arguments.");
      continue;
    }
    to_run.push_back(c);
    slots.push_back(i);
  }
  journal_hooks hooks(options_.journal.get(), turn, to_run.size(),
                      [max = options_.max_tool_result_bytes](tool_result& r) { cap_result(r, max); });
  if (!to_run.empty()) {
    std::vector<tool_result> ran;
    if (options_.runner) {
      for (const auto& c : to_run) hooks.started(c);
      ran = options_.runner(to_run, stop);
    } else {
      exec::executor& ex = options_.executor ? *options_.executor : *own_executor_;
      exec::run_options ro{.stop = stop};
      if (options_.journal) {
        ro.idempotency_scope = options_.journal->run_id();
        ro.on_event = [&hooks](const exec::call_event& e) { hooks.on_event(e); };
      }
      ran = ex.run_all(to_run, ro);
    }
    for (size_t k = 0; k < slots.size() && k < ran.size(); ++k) {
      hooks.finished(k, to_run[k], ran[k]);
      results[slots[k]] = std::move(ran[k]);
    }
  }
  for (auto& r : results) cap_result(r, options_.max_tool_result_bytes);
  for (size_t i = 0; i < calls.size(); ++i) {
    if (replayed[i]) continue;
    if (options_.journal && exec::pending_from_result(results[i])) continue;  // see finish_calls
    if (!std::count(slots.begin(), slots.end(), i)) hooks.finished_here(calls[i], results[i]);
    auto& seen = seen_calls_[call_key(calls[i])];
    if (!calls[i].arguments.is_null()) {
      ++seen.count;
      seen.last_text = results[i].all_text().substr(0, 500);
    }
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(results[i].duration);
    emit({.what = agent_event::kind::tool_result,
          .turn = turn,
          .call = calls[i],
          .result = results[i],
          .duration = ms});
    last_.tool_calls.push_back({calls[i], results[i], ms, turn});
  }
  journal_error_ = hooks.error();
  return results;
}

// finish_calls appends the results to the conversation, or, in a journaled run where some
// calls wait for approval, records the wait and stops the run.
status agent::finish_calls(int turn, const std::vector<tool_call>& calls,
                           std::vector<tool_result>& results) {
  if (journal_error_) return fail(*journal_error_);
  if (options_.journal) {
    last_.waiting.clear();
    for (size_t i = 0; i < calls.size(); ++i) {
      auto pending = exec::pending_from_result(results[i]);
      if (!pending) continue;
      if (auto s = options_.journal->approval_waiting(turn, calls[i], pending->reason); !s) return s;
      last_.waiting.push_back(calls[i]);
    }
    if (!last_.waiting.empty())
      return fail(errc::permission_denied,
                  "agent: the run waits for approval of \"" + last_.waiting[0].name + "\" (call " +
                      last_.waiting[0].id + "); approve or deny it, then resume the run");
  }
  for (size_t i = 0; i < results.size(); ++i)
    history_.push_back(llm::message::tool_result(calls[i], results[i]));
  return {};
}

result<run_result> agent::fail_run(error e) {
  emit({.what = agent_event::kind::error, .turn = last_.turns, .text = e.message});
  if (options_.journal && last_.waiting.empty()) (void)options_.journal->failed(e);
  return fail(std::move(e));
}

result<run_result> agent::run(std::string user_text, std::stop_token stop) {
  last_ = {};
  journal_error_.reset();
  history_.push_back(llm::message::user(std::move(user_text)));
  if (options_.journal)
    if (auto s = options_.journal->started(history_); !s) return fail_run(s.error());
  return loop(1, stop);
}

result<run_result> agent::loop(int first_turn, std::stop_token stop) {
  run_journal* journal = options_.journal.get();
  // GenAI semantic conventions: the run is an invoke_agent span; model requests and tool calls
  // are its children.
  auto span = telemetry::start_span("invoke_agent tooluse");
  if (span.recording()) {
    span.set("gen_ai.operation.name", "invoke_agent");
    span.set("gen_ai.agent.name", "tooluse");
    span.set("gen_ai.provider.name", model_.name());
  }
  auto record_usage = [&] {
    if (!span.recording()) return;
    span.set("gen_ai.usage.input_tokens", static_cast<std::int64_t>(last_.usage.input_tokens));
    span.set("gen_ai.usage.output_tokens", static_cast<std::int64_t>(last_.usage.output_tokens));
  };
  auto failed = [&](error e) -> result<run_result> {
    record_usage();
    span.set_error(e.message, std::string(to_string(e.code)));
    emit({.what = agent_event::kind::error, .turn = last_.turns, .text = e.message});
    if (journal && last_.waiting.empty()) (void)journal->failed(e);
    return fail(std::move(e));
  };
  for (int turn = first_turn;; ++turn) {
    if (stop.stop_requested()) return failed({errc::cancelled, "agent: the run was cancelled"});
    if (turn > options_.max_turns)
      return failed(
          {errc::budget_exceeded,
           "agent: max_turns (" + std::to_string(options_.max_turns) +
               ") reached without a final answer; raise --max-turns or simplify the task"});
    last_.turns = turn;
    auto asked = std::chrono::steady_clock::now();
    auto chat = telemetry::start_span("chat", telemetry::span_kind::client);
    chat.set("gen_ai.operation.name", "chat");
    chat.set("gen_ai.provider.name", model_.name());
    if (journal)
      if (auto s = journal->model_request(turn); !s) return failed(s.error());
    auto reply = ask(turn, stop);
    if (!reply) {
      chat.set_error(reply.error().message, std::string(to_string(reply.error().code)));
      chat.end();
      return failed(reply.error());
    }
    if (chat.recording()) {
      if (!reply->model.empty()) {
        chat.set_name("chat " + reply->model);
        chat.set("gen_ai.request.model", reply->model);
        chat.set("gen_ai.response.model", reply->model);
      }
      if (!reply->id.empty()) chat.set("gen_ai.response.id", reply->id);
      chat.set("gen_ai.usage.input_tokens", static_cast<std::int64_t>(reply->usage.input_tokens));
      chat.set("gen_ai.usage.output_tokens", static_cast<std::int64_t>(reply->usage.output_tokens));
      chat.set("gen_ai.response.finish_reasons", std::string(llm::to_string(reply->finish)));
    }
    chat.end();
    reply->usage.requests = 1;
    if (journal)
      if (auto s = journal->model_response(turn, *reply); !s) return failed(s.error());
    previous_usage_ = reply->usage;
    last_.usage += reply->usage;
    last_.finish = reply->finish;
    emit({.what = agent_event::kind::model_response,
          .turn = turn,
          .text = std::string(llm::to_string(reply->finish)),
          .duration = std::chrono::duration_cast<std::chrono::milliseconds>(
              std::chrono::steady_clock::now() - asked),
          .usage = reply->usage,
          .reply = reply->reply,
          .model = reply->model});
    if (reply->finish == llm::finish_reason::length && !reply->reply.tool_calls.empty())
      return failed({errc::protocol_error,
                     "agent: the model hit its output token limit while writing tool-call "
                     "arguments, so they are truncated; raise max_tokens"});
    history_.push_back(reply->reply);
    if (auto budget = check_budget(); !budget) return failed(budget.error());
    if (reply->reply.tool_calls.empty()) {
      if (reply->finish == llm::finish_reason::pause) continue;  // Anthropic pause_turn
      last_.answer = reply->reply.text();
      if (journal)
        if (auto s = journal->answered(turn, last_.answer, last_.usage); !s) return failed(s.error());
      emit({.what = agent_event::kind::answer,
            .turn = turn,
            .text = last_.answer,
            .usage = last_.usage});
      record_usage();
      return last_;
    }
    auto results = run_calls(turn, reply->reply.tool_calls, stop);
    if (auto s = finish_calls(turn, reply->reply.tool_calls, results); !s) return failed(s.error());
  }
}

}  // namespace tooluse
