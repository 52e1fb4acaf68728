// What a worker does with a call: rate limit, circuit breaker, the handler with retries, then
// cost, output limits and the cache.
#include <sstream>

#include "engine.hpp"
#include "tooluse/exec/output.hpp"

namespace tooluse::exec {

circuit_breaker& executor::impl::breaker_for(const std::string& tool) {
  std::lock_guard lock(breakers_mutex);
  auto it = breakers.find(tool);
  if (it == breakers.end())
    it = breakers.emplace(tool, std::make_unique<circuit_breaker>(options.breaker, time)).first;
  return *it->second;
}

steady::duration executor::impl::timeout_of(const tool& t) const {
  return t.timeout.count() > 0 ? t.timeout : options.default_timeout;
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

outcome_result executor::impl::run(job& j) {
  const tool& t = j.entry->definition;
  const std::string& session = j.batch->options.session;
  std::stop_token stop = j.stop.get_token();

  // Rate limit: wait up to rate_limit_wait for a slot, else tell the model when to retry.
  const std::string key = t.name + "\n" + session;
  clock::duration waited{0};
  while (auto wait = limiter.try_acquire(key, t.rate)) {
    if (waited + *wait > j.batch->options.rate_limit_wait)
      return {rate_limited(t, session, *wait), call_outcome::rate_limited, 0};
    if (!time->sleep_for(*wait, stop))
      return {tool_result::error("tool \"" + t.name + "\" was cancelled while waiting for its "
                                 "rate limit"),
              call_outcome::cancelled, 0};
    waited += *wait;
  }

  circuit_breaker& breaker = breaker_for(t.name);
  if (auto retry_after = breaker.allow()) {
    tool_result r = tool_result::error(
        "tool \"" + t.name + "\" is temporarily unavailable after repeated failures; retry after " +
        std::to_string(ms_of(*retry_after)) + " ms or use another tool");
    r.meta["retry_after_ms"] = ms_of(*retry_after);
    return {std::move(r), call_outcome::circuit_open, 0};
  }

  {
    std::lock_guard lock(j.mutex);
    if (!j.completed)
      emit(j, {.kind = event_kind::start, .index = j.index, .call = &j.call, .session = session});
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
                   .session = session};

  const bool may_retry = t.annotations.idempotent.value_or(false);
  const auto started = steady::now();
  tool_result r;
  int attempts = 0;
  for (;;) {
    r = invoke_handler(*j.entry, j.call.arguments, ctx);
    ++attempts;
    if (stop.stop_requested() || !may_retry || !is_transient(r) ||
        attempts >= options.retry.max_attempts)
      break;
    double unit;
    {
      std::lock_guard lock(rng_mutex);
      unit = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
    }
    if (!time->sleep_for(backoff_delay(options.retry, attempts, unit), stop)) break;
  }
  r.duration = std::chrono::duration_cast<std::chrono::microseconds>(steady::now() - started);
  // A late result of an abandoned call was already reported as a timeout: record nothing.
  const call_outcome outcome = r.is_error ? call_outcome::error : call_outcome::ok;
  if (stop.stop_requested()) return {std::move(r), outcome, attempts};
  breaker.record(!r.is_error);
  if (attempts > 1) r.meta["attempts"] = attempts;
  if (!j.coerced.is_null()) r.meta["coerced"] = j.coerced;

  const double extra = reported_cost(r);
  r.cost = t.cost_per_call + extra;
  if (extra > 0 && j.batch->options.budget) j.batch->options.budget->charge(extra);

  const std::size_t max_bytes =
      t.max_output_bytes > 0 ? t.max_output_bytes : options.default_max_output_bytes;
  if (max_bytes > 0) {
    std::string spill_name;
    if (!options.spill_dir.empty())
      spill_name = t.name + "-" + std::to_string(++counter) + ".txt";
    limit_output(r, {.max_bytes = max_bytes, .spill_dir = options.spill_dir,
                     .spill_name = spill_name});
  }
  if (!j.cache_key.empty() && !r.is_error) cache->put(j.cache_key, r);
  return {std::move(r), outcome, attempts};
}

}  // namespace tooluse::exec
