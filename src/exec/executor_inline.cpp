// The fast path: a synchronous tool (tool::synchronous) that has no timeout, rate limit,
// parallel cap, approval, coercion or cached result, called with no batch timeout or budget,
// runs on the caller's thread. No job, no queue, no worker hand-off: what is left over a
// direct invoke is the registry lookup, the circuit breaker, the events and the output limit.
#include "executor_impl.hpp"
#include "tooluse/exec/output.hpp"

namespace tooluse::exec {

bool executor::impl::inline_eligible(const tool& t, const run_options& o) const {
  return options.inline_synchronous && t.synchronous && t.timeout.count() == 0 &&
         t.rate.calls == 0 && t.max_parallel == 0 && !t.dangerous && !t.coerce_arguments &&
         !(cache && t.annotations.read_only.value_or(false)) && o.timeout.count() == 0 &&
         !o.budget;
}

namespace {

bool transient(const tool_result& r) {
  auto it = r.meta.find("transient");
  return r.is_error && it != r.meta.end() && it->is_boolean() && it->get<bool>();
}

}  // namespace

std::optional<tool_result> executor::impl::try_inline(const tool_call& call, const run_options& o) {
  auto entry = registry.find(call.name);
  if (!entry || !inline_eligible(entry->definition, o) || call.arguments.is_null() ||
      o.stop.stop_requested())
    return std::nullopt;  // the full path reports these
  const tool& t = entry->definition;
  const auto started = steady::now();
  outcome_result out;
  auto finish = [&]() -> tool_result {
    completed_count.fetch_add(1, std::memory_order_relaxed);
    if (options.on_event || o.on_event) {
      call_event e{.kind = event_kind::end,
                   .index = 0,
                   .call = &call,
                   .session = o.session,
                   .result = &out.result,
                   .outcome = out.outcome,
                   .duration = out.result.duration,
                   .attempts = out.attempts};
      emit_to(options.on_event, o.on_event, e);
    }
    return std::move(out.result);
  };
  if (auto errors = entry->input_validator->validate(call.arguments); !errors.empty()) {
    out = {invalid_arguments(t, errors), call_outcome::invalid, 0};
    return finish();
  }
  circuit_breaker& breaker = breaker_for(t.name);
  if (auto retry_after = breaker.allow()) {
    // Same refusal as the pool path (executor_run.cpp gate_call); rare, so no fast path for it.
    return std::nullopt;
  }
  if (options.on_event || o.on_event)
    emit_to(options.on_event, o.on_event,
            {.kind = event_kind::start, .index = 0, .call = &call, .session = o.session});
  call_context ctx{.stop = o.stop, .on_progress = {}, .call_id = call.id, .session = o.session};
  ctx.idempotency_key = idempotency_key_for(o, call);
  ctx.peer = o.peer;
  ctx.validated_against = &entry->input_validator->schema();  // checked above
  // The caller's thread: its current span (if any) is the parent, as on the pool path.
  auto span = start_tool_span(call, t, std::nullopt);
  if (options.on_event || o.on_event)
    ctx.on_progress = [&](const progress_update& p) {
      emit_to(options.on_event, o.on_event,
              {.kind = event_kind::progress, .index = 0, .call = &call, .session = o.session,
               .progress = &p});
    };
  const bool may_retry = t.annotations.idempotent.value_or(false);
  for (;;) {
    out.result = invoke_handler(*entry, call.arguments, ctx);
    ++out.attempts;
    if (o.stop.stop_requested() || !may_retry || !transient(out.result) ||
        out.attempts >= options.retry.max_attempts)
      break;
    double unit;
    {
      std::lock_guard lock(rng_mutex);
      unit = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
    }
    if (!time->sleep_for(backoff_delay(options.retry, out.attempts, unit), o.stop)) break;
  }
  end_tool_span(span, out.result);
  tool_result& r = out.result;
  r.duration = std::chrono::duration_cast<std::chrono::microseconds>(steady::now() - started);
  out.outcome = r.is_error ? call_outcome::error : call_outcome::ok;
  breaker.record(!r.is_error);
  if (out.attempts > 1) r.meta["attempts"] = out.attempts;
  if (auto it = r.meta.find("cost"); it != r.meta.end() && it->is_number())
    r.cost = t.cost_per_call + it->get<double>();
  else
    r.cost = t.cost_per_call;
  const std::size_t max_bytes =
      t.max_output_bytes > 0 ? t.max_output_bytes : options.default_max_output_bytes;
  if (max_bytes > 0) {
    std::string spill_name;
    if (!options.spill_dir.empty()) spill_name = t.name + "-" + std::to_string(++counter) + ".txt";
    limit_output(r, {.max_bytes = max_bytes, .spill_dir = options.spill_dir, .spill_name = spill_name});
  }
  return finish();
}

}  // namespace tooluse::exec
