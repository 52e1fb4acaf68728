// What a worker does with a call: rate limit, circuit breaker, the handler with retries, then
// cost, output limits and the cache.
#include <sstream>

#include "executor_impl.hpp"
#include "tooluse/exec/output.hpp"

namespace tooluse::exec {

circuit_breaker& executor::impl::breaker_for(const std::string& tool) {
  // Each thread remembers the breaker it used last, so a thread calling the same tool again
  // takes no lock that every thread shares. Breakers live as long as their executor, and a
  // serial is never reused: an entry of an executor gone is never taken for another's.
  thread_local struct {
    std::uint64_t serial = 0;
    std::string tool;
    circuit_breaker* breaker = nullptr;
  } last;
  if (last.serial == serial && last.tool == tool) return *last.breaker;
  circuit_breaker* b = nullptr;
  {
    std::lock_guard lock(breakers_mutex);
    auto it = breakers.find(tool);
    if (it == breakers.end())
      it = breakers.emplace(tool, std::make_unique<circuit_breaker>(options.breaker, time)).first;
    b = it->second.get();
  }
  last.serial = serial;
  last.tool = tool;
  last.breaker = b;
  return *b;
}

steady::duration executor::impl::timeout_of(const tool& t, const run_options& o) const {
  if (t.timeout.count() > 0) return t.timeout;
  return o.default_timeout ? *o.default_timeout : options.default_timeout;
}

namespace {

long long ms_of(clock::duration d) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  return ms + (d > std::chrono::milliseconds(ms) ? 1 : 0);  // round up: never retry too early
}

tool_result rate_limited(const tool& t, const std::string& session, clock::duration wait) {
  tool_result r = tool_result::error(
      "rate limit of tool \"" + t.name + "\" reached for session \"" +
      (session.empty() ? "default" : session) + "\": at most " + std::to_string(t.rate.calls) +
      " calls per " + std::to_string(t.rate.window.count()) + " ms; retry after " +
      std::to_string(ms_of(wait)) + " ms");
  r.meta["retry_after_ms"] = ms_of(wait);
  return r;
}

bool is_transient(const tool_result& r) {
  auto it = r.meta.find("transient");
  return r.is_error && it != r.meta.end() && it->is_boolean() && it->get<bool>();
}

double reported_cost(const tool_result& r) {
  auto it = r.meta.find("cost");
  return it != r.meta.end() && it->is_number() ? it->get<double>() : 0.0;
}

}  // namespace

// gate_call applies the tool's rate limit and circuit breaker; returns a refusal or nullopt.
std::optional<outcome_result> executor::impl::gate_call(job& j, std::stop_token stop) {
  const tool& t = j.entry->definition;
  const std::string& session = j.batch->options.session;
  // Rate limit: wait up to rate_limit_wait for a slot, else tell the model when to retry.
  const std::string key = t.name + "\n" + session;
  clock::duration waited{0};
  while (auto wait = limiter.try_acquire(key, t.rate)) {
    if (waited + *wait > j.batch->options.rate_limit_wait)
      return outcome_result{rate_limited(t, session, *wait), call_outcome::rate_limited, 0};
    if (!time->sleep_for(*wait, stop))
      return outcome_result{tool_result::error("tool \"" + t.name +
                                               "\" was cancelled while waiting for its rate limit"),
                            call_outcome::cancelled, 0};
    waited += *wait;
  }
  if (auto retry_after = breaker_for(t.name).allow()) {
    tool_result r = tool_result::error(
        "tool \"" + t.name + "\" is temporarily unavailable after repeated failures; retry after " +
        std::to_string(ms_of(*retry_after)) + " ms or use another tool");
    r.meta["retry_after_ms"] = ms_of(*retry_after);
    return outcome_result{std::move(r), call_outcome::circuit_open, 0};
  }
  return std::nullopt;
}

std::string idempotency_key_for(const run_options& o, const tool_call& call) {
  if (o.idempotency_scope.empty()) return {};
  return call.id.empty() ? o.idempotency_scope : o.idempotency_scope + "/" + call.id;
}

telemetry::span start_tool_span(const tool_call& call, const tool& t,
                                std::optional<telemetry::span_context> parent) {
  // Without an exporter the span records nothing: its name is not made.
  auto span = telemetry::start_span(telemetry::enabled() ? "execute_tool " + call.name : std::string(),
                                    telemetry::span_kind::internal, parent);
  if (span.recording()) {
    span.set("gen_ai.operation.name", "execute_tool");
    span.set("gen_ai.tool.name", call.name);
    span.set("gen_ai.tool.call.id", call.id);
    span.set("gen_ai.tool.type", "function");
    if (!t.description.empty()) span.set("gen_ai.tool.description", t.description.substr(0, 300));
    if (telemetry::capture_content())
      span.set("gen_ai.tool.call.arguments", dump_json(call.arguments));
  }
  return span;
}

void end_tool_span(telemetry::span& span, const tool_result& r) {
  if (!span.recording()) return;
  if (r.is_error) span.set_error(r.all_text());
  if (telemetry::capture_content()) span.set("gen_ai.tool.call.result", r.all_text());
}

// invoke runs the handler, retrying transient errors of idempotent tools with back-off.
outcome_result executor::impl::invoke(job& j, std::stop_token stop) {
  {
    std::lock_guard lock(j.mutex);
    if (!j.completed)
      emit(j, {.kind = event_kind::start,
               .index = j.index,
               .call = &j.call,
               .session = j.batch->options.session});
  }
  call_context ctx{.stop = stop,
                   .on_progress =
                       [this, &j](const progress_update& p) {
                         std::lock_guard lock(j.mutex);
                         if (j.completed) return;  // nothing after the end event
                         emit(j, {.kind = event_kind::progress,
                                  .index = j.index,
                                  .call = &j.call,
                                  .session = j.batch->options.session,
                                  .progress = &p});
                       },
                   .call_id = j.call.id,
                   .session = j.batch->options.session};
  ctx.idempotency_key = idempotency_key_for(j.batch->options, j.call);
  ctx.peer = j.batch->options.peer;
  const bool may_retry = j.entry->definition.annotations.idempotent.value_or(false);
  auto span = start_tool_span(j.call, j.entry->definition, j.trace_parent);
  const auto started = steady::now();
  outcome_result out;
  for (;;) {
    out.result = invoke_handler(*j.entry, j.call.arguments, ctx);
    ++out.attempts;
    if (stop.stop_requested() || !may_retry || !is_transient(out.result) ||
        out.attempts >= options.retry.max_attempts)
      break;
    double unit;
    {
      std::lock_guard lock(rng_mutex);
      unit = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
    }
    if (!time->sleep_for(backoff_delay(options.retry, out.attempts, unit), stop)) break;
  }
  out.result.duration =
      std::chrono::duration_cast<std::chrono::microseconds>(steady::now() - started);
  out.outcome = out.result.is_error ? call_outcome::error : call_outcome::ok;
  end_tool_span(span, out.result);
  return out;
}

outcome_result executor::impl::run(job& j) {
  const tool& t = j.entry->definition;
  std::stop_token stop = j.stop.get_token();
  if (auto refused = gate_call(j, stop)) {
    unreserve(j);  // refused by its rate limit or circuit breaker: it did not run
    return std::move(*refused);
  }
  outcome_result out = invoke(j, stop);
  // A late result of an abandoned call was already reported as a timeout: record nothing.
  if (stop.stop_requested()) return out;
  tool_result& r = out.result;
  breaker_for(t.name).record(!r.is_error);
  if (out.attempts > 1) r.meta["attempts"] = out.attempts;
  if (!j.coerced.is_null()) r.meta["coerced"] = j.coerced;

  const double extra = reported_cost(r);
  r.cost = t.cost_per_call + extra;
  if (extra > 0 && j.batch->options.budget) j.batch->options.budget->charge(extra);

  const std::size_t max_bytes =
      t.max_output_bytes > 0 ? t.max_output_bytes : options.default_max_output_bytes;
  if (max_bytes > 0) {
    std::string spill_name;
    if (!options.spill_dir.empty()) spill_name = t.name + "-" + std::to_string(++counter) + ".txt";
    limit_output(
        r, {.max_bytes = max_bytes, .spill_dir = options.spill_dir, .spill_name = spill_name});
  }
  if (!j.cache_key.empty() && !r.is_error) cache->put(j.cache_key, r);
  return out;
}

}  // namespace tooluse::exec
