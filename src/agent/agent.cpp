// The agent loop. One run: ask the model, run the calls it makes, feed the results back. The
// loop is a sequence of steps joined by completion handlers (design/llm-agent.md, "Runs that
// do not hold a thread"): a blocking run() completes every step before returning to the next,
// on the caller's thread; run_async() lets the model request and slow tool calls complete
// later, on the HTTP pool's completion thread, and the next turn goes on from there.
#include "tooluse/agent/agent.hpp"

#include <algorithm>
#include <stdexcept>

#include "agent/journal_hooks.hpp"
#include "tool_offer.hpp"
#include "tooluse/agent/journal.hpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/telemetry/trace.hpp"

namespace tooluse {

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

result<llm::chat_request> agent::make_request(int turn) {
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
  return req;
}

llm::stream_callbacks agent::stream_to_events(int turn) const {
  llm::stream_callbacks cb;
  if (options_.on_event) {
    cb.on_text = [this, turn](std::string_view s) {
      emit({.what = agent_event::kind::text_delta, .turn = turn, .text = std::string(s)});
    };
    cb.on_reasoning = [this, turn](std::string_view s) {
      emit({.what = agent_event::kind::reasoning_delta, .turn = turn, .text = std::string(s)});
    };
  }
  return cb;
}

result<run_result> agent::fail_run(error e) {
  emit({.what = agent_event::kind::error, .turn = last_.turns, .text = e.message});
  if (options_.journal && last_.waiting.empty()) (void)options_.journal->failed(e);
  return fail(std::move(e));
}

result<run_result> agent::run(std::string user_text, std::stop_token stop) {
  // A blocking run completes every step before returning, so `done` has run when start_run does.
  std::optional<result<run_result>> out;
  start_run(std::move(user_text), stop, false, [&out](result<run_result> r) { out = std::move(r); });
  return std::move(*out);
}

void agent::run_async(std::string user_text, run_completion done, std::stop_token stop) {
  start_run(std::move(user_text), std::move(stop), true, std::move(done));
}

void agent::start_run(std::string user_text, std::stop_token stop, bool async,
                      run_completion done) {
  last_ = {};
  journal_error_.reset();
  history_.push_back(llm::message::user(std::move(user_text)));
  if (options_.journal)
    if (auto s = options_.journal->started(history_); !s) return done(fail_run(s.error()));
  drive(1, std::move(stop), async, std::move(done));
}

result<run_result> agent::loop(int first_turn, std::stop_token stop) {
  std::optional<result<run_result>> out;
  drive(first_turn, std::move(stop), false, [&out](result<run_result> r) { out = std::move(r); });
  return std::move(*out);
}

}  // namespace tooluse
