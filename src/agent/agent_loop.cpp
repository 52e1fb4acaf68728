// The agent loop as steps joined by completion handlers: begin a turn, ask the model, take its
// reply, run its calls, feed the results back, go on. A step that waits (a model request on
// the HTTP pool, tools that may block) hands the run to its completion; a step that finishes
// before its call returns lets advance() loop instead of recursing, so a blocking run, whose
// steps all finish inline, is a plain loop on the caller's thread.
#include <atomic>
#include <thread>

#include "agent/call_batch.hpp"
#include "tool_offer.hpp"
#include "tooluse/agent/agent.hpp"
#include "tooluse/agent/journal.hpp"
#include "tooluse/telemetry/trace.hpp"

namespace tooluse {
namespace {

// Where a run is between advance() and the completion of the step it started.
enum phase : int {
  driving,    // advance() is running the turn
  waiting,    // advance() returned; the step's completion goes on
  continued,  // the turn ended inside advance(): it loops to the next
  finished,   // done was called
};

}  // namespace

struct agent::run_state {
  bool async = false;
  std::stop_token stop;
  run_completion done;
  int turn = 1;
  /// invoke_agent and chat spans (GenAI semantic conventions). Spans belong to the thread
  /// that starts them, so only blocking runs, whose steps stay on one thread, record them.
  telemetry::span span;
  telemetry::span chat;
  std::chrono::steady_clock::time_point asked;
  std::vector<tool_call> calls;  ///< the reply's calls while they run
  std::atomic<int> phase{driving};
};

void agent::drive(int first_turn, std::stop_token stop, bool async, run_completion done) {
  auto st = std::make_shared<run_state>();
  st->async = async;
  st->stop = std::move(stop);
  st->done = std::move(done);
  st->turn = first_turn;
  if (!async) {
    st->span = telemetry::start_span("invoke_agent tooluse");
    if (st->span.recording()) {
      st->span.set("gen_ai.operation.name", "invoke_agent");
      st->span.set("gen_ai.agent.name", "tooluse");
      st->span.set("gen_ai.provider.name", model_.name());
    }
  }
  advance(st);
}

void agent::advance(const run_ptr& st) {
  for (;;) {
    st->phase = driving;
    if (auto e = begin_turn(*st)) return complete(st, fail(std::move(*e)));
    ask_model(st);
    int expected = driving;
    if (st->phase.compare_exchange_strong(expected, waiting)) return;  // goes on elsewhere
    if (expected == finished) return;
    // continued: the turn ended inline; take the next one here.
  }
}

void agent::turn_done(const run_ptr& st) {
  ++st->turn;
  int expected = driving;
  if (st->phase.compare_exchange_strong(expected, continued)) return;  // advance() loops
  advance(st);
}

void agent::complete(const run_ptr& st, result<run_result> r) {
  st->phase = finished;
  if (st->span.recording()) {
    st->span.set("gen_ai.usage.input_tokens", static_cast<std::int64_t>(last_.usage.input_tokens));
    st->span.set("gen_ai.usage.output_tokens", static_cast<std::int64_t>(last_.usage.output_tokens));
  }
  if (!r) {
    st->span.set_error(r.error().message, std::string(to_string(r.error().code)));
    emit({.what = agent_event::kind::error, .turn = last_.turns, .text = r.error().message});
    if (options_.journal && last_.waiting.empty()) (void)options_.journal->failed(r.error());
  }
  st->span.end();
  auto done = std::move(st->done);
  done(std::move(r));  // last: `done` may destroy this agent
}

std::optional<error> agent::begin_turn(run_state& st) {
  if (st.stop.stop_requested()) return error{errc::cancelled, "agent: the run was cancelled"};
  if (st.turn > options_.max_turns)
    return error{errc::budget_exceeded,
                 "agent: max_turns (" + std::to_string(options_.max_turns) +
                     ") reached without a final answer; raise --max-turns or simplify the task"};
  last_.turns = st.turn;
  st.asked = std::chrono::steady_clock::now();
  if (!st.async) {
    st.chat = telemetry::start_span("chat", telemetry::span_kind::client);
    st.chat.set("gen_ai.operation.name", "chat");
    st.chat.set("gen_ai.provider.name", model_.name());
  }
  if (options_.journal)
    if (auto s = options_.journal->model_request(st.turn); !s) {
      st.chat.end();
      return s.error();
    }
  return std::nullopt;
}

void agent::ask_model(const run_ptr& st) {
  auto req = make_request(st->turn);
  if (!req) return on_reply(st, fail(req.error()));
  auto cb = stream_to_events(st->turn);
  if (!st->async) return on_reply(st, model_.complete(*req, cb, st->stop));
  model_.complete_async(*req, cb, st->stop, [this, st](result<llm::chat_response> reply) {
    on_reply(st, std::move(reply));
  });
}

void agent::on_reply(const run_ptr& st, result<llm::chat_response> reply) {
  auto& chat = st->chat;
  const int turn = st->turn;
  if (!reply) {
    chat.set_error(reply.error().message, std::string(to_string(reply.error().code)));
    chat.end();
    return complete(st, fail(reply.error()));
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
  run_journal* journal = options_.journal.get();
  if (journal)
    if (auto s = journal->model_response(turn, *reply); !s) return complete(st, fail(s.error()));
  previous_usage_ = reply->usage;
  last_.usage += reply->usage;
  last_.finish = reply->finish;
  emit({.what = agent_event::kind::model_response,
        .turn = turn,
        .text = std::string(llm::to_string(reply->finish)),
        .duration = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - st->asked),
        .usage = reply->usage,
        .reply = reply->reply,
        .model = reply->model});
  if (reply->finish == llm::finish_reason::length && !reply->reply.tool_calls.empty())
    return complete(st, fail(errc::protocol_error,
                             "agent: the model hit its output token limit while writing tool-call "
                             "arguments, so they are truncated; raise max_tokens"));
  history_.push_back(reply->reply);
  if (auto budget = check_budget(); !budget) return complete(st, fail(budget.error()));
  if (reply->reply.tool_calls.empty()) {
    if (reply->finish == llm::finish_reason::pause) return turn_done(st);  // Anthropic pause_turn
    last_.answer = reply->reply.text();
    if (journal)
      if (auto s = journal->answered(turn, last_.answer, last_.usage); !s)
        return complete(st, fail(s.error()));
    emit({.what = agent_event::kind::answer, .turn = turn, .text = last_.answer, .usage = last_.usage});
    return complete(st, last_);
  }
  st->calls = reply->reply.tool_calls;
  run_calls_then(st);
}

void agent::run_calls_then(const run_ptr& st) {
  auto batch = std::make_shared<call_batch>(prepare_calls(st->turn, st->calls, nullptr));
  if (!st->async || batch->to_run.empty())
    return after_calls(st, conclude_calls(st->turn, st->calls, *batch,
                                          execute_calls(*batch, st->stop)));
  if (calls_run_inline(*batch))  // quick synchronous tools: on this thread, as call() runs them
    return after_calls(st, conclude_calls(st->turn, st->calls, *batch,
                                          execute_inline(*batch, st->stop)));
  // Tools that may block wait for the executor on a thread of their own, never on the pool's;
  // the run goes on from that thread until its next model request.
  std::thread([this, st, batch] {
    auto ran = execute_calls(*batch, st->stop);
    after_calls(st, conclude_calls(st->turn, st->calls, *batch, std::move(ran)));
  }).detach();
}

void agent::after_calls(const run_ptr& st, std::vector<tool_result> results) {
  if (auto s = finish_calls(st->turn, st->calls, results); !s) return complete(st, fail(s.error()));
  turn_done(st);
}

}  // namespace tooluse
