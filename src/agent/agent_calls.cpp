// The tool calls of one model reply: what the agent answers itself (replayed, unparsable,
// over the per-turn limit, repeated in a loop), what goes to the execution engine, and how the
// results are capped, journaled and reported. A blocking run does the three phases in a row;
// an asynchronous one runs the middle one where it does not hold the pool's thread (agent.cpp).
#include <algorithm>

#include "agent/call_batch.hpp"
#include "agent/journal_hooks.hpp"
#include "tool_offer.hpp"
#include "tooluse/agent/agent.hpp"
#include "tooluse/agent/journal.hpp"
#include "tooluse/exec/executor.hpp"

namespace tooluse {
namespace {

std::string call_key(const tool_call& c) { return c.name + "\n" + canonical_json(c.arguments); }

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

agent::call_batch agent::prepare_calls(int turn, const std::vector<tool_call>& calls,
                                       const std::map<std::string, tool_result>* done) {
  call_batch batch;
  auto& results = batch.results;
  auto& to_run = batch.to_run;
  auto& slots = batch.slots;
  auto& replayed = batch.replayed;
  results.resize(calls.size());
  replayed.assign(calls.size(), 0);
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
  batch.hooks = std::make_unique<journal_hooks>(
      options_.journal.get(), turn, to_run.size(),
      [max = options_.max_tool_result_bytes](tool_result& r) { cap_result(r, max); });
  return batch;
}

std::vector<tool_result> agent::execute_calls(call_batch& batch, std::stop_token stop) {
  if (batch.to_run.empty()) return {};
  journal_hooks& hooks = *batch.hooks;
  if (options_.runner) {
    for (const auto& c : batch.to_run) hooks.started(c);
    return options_.runner(batch.to_run, stop);
  }
  exec::executor& ex = options_.executor ? *options_.executor : *own_executor_;
  exec::run_options ro{.stop = stop};
  if (options_.journal) {
    ro.idempotency_scope = options_.journal->run_id();
    ro.on_event = [&hooks](const exec::call_event& e) { hooks.on_event(e); };
  }
  return ex.run_all(batch.to_run, ro);
}

bool agent::calls_run_inline(const call_batch& batch) const {
  if (options_.runner || options_.journal) return false;
  const exec::executor& ex = options_.executor ? *options_.executor : *own_executor_;
  for (const auto& c : batch.to_run)
    if (!ex.runs_inline(c.name) || c.arguments.is_null()) return false;
  return true;
}

std::vector<tool_result> agent::execute_inline(call_batch& batch, std::stop_token stop) {
  exec::executor& ex = options_.executor ? *options_.executor : *own_executor_;
  std::vector<tool_result> ran;
  ran.reserve(batch.to_run.size());
  for (const auto& c : batch.to_run) ran.push_back(ex.call(c, {.stop = stop}));
  return ran;
}

std::vector<tool_result> agent::conclude_calls(int turn, const std::vector<tool_call>& calls,
                                               call_batch& batch, std::vector<tool_result> ran) {
  auto& results = batch.results;
  auto& to_run = batch.to_run;
  auto& slots = batch.slots;
  auto& replayed = batch.replayed;
  journal_hooks& hooks = *batch.hooks;
  for (size_t k = 0; k < slots.size() && k < ran.size(); ++k) {
    hooks.finished(k, to_run[k], ran[k]);
    results[slots[k]] = std::move(ran[k]);
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
  return std::move(results);
}


std::vector<tool_result> agent::run_calls(int turn, const std::vector<tool_call>& calls,
                                          std::stop_token stop,
                                          const std::map<std::string, tool_result>* done) {
  call_batch batch = prepare_calls(turn, calls, done);
  auto ran = execute_calls(batch, stop);
  return conclude_calls(turn, calls, batch, std::move(ran));
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

}  // namespace tooluse
