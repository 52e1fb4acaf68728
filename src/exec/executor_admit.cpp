// The executor's public API and the checks a call passes before it is queued: known tool,
// parsed and valid arguments, approval, cache, budget. They run on the caller's thread, in
// call order, so budgets and approvals are deterministic.
#include <stdexcept>

#include "executor_impl.hpp"
#include "tooluse/schema/coerce.hpp"

namespace tooluse::exec {

executor::impl::impl(const tool_registry& r, executor_options o)
    : registry(r),
      options(std::move(o)),
      time(options.time ? options.time : steady_clock_source()),
      limiter(time) {
  if (options.max_threads < 1)
    throw std::invalid_argument("executor: max_threads must be at least 1");
  if (options.max_abandoned < 0)
    throw std::invalid_argument("executor: max_abandoned must be 0 or more");
  if (options.cache.capacity > 0) cache.emplace(options.cache, time);
  rng.seed(options.seed != 0 ? options.seed : std::random_device{}());
}

std::shared_ptr<batch_state> make_batch(const run_options& options, std::size_t n) {
  auto b = std::make_shared<batch_state>();
  b->options = options;
  if (options.timeout.count() > 0) b->deadline = b->start + options.timeout;
  b->remaining = n;
  b->results.resize(n);
  return b;
}

void wait_batch(batch_state& b) {
  std::unique_lock lock(b.mutex);
  b.done_cv.wait(lock, [&] { return b.remaining == 0; });
}

std::shared_ptr<job> executor::impl::make_job(const tool_call& call, std::size_t index,
                                              const std::shared_ptr<batch_state>& batch) {
  auto j = std::make_shared<job>();
  j->index = index;
  j->call = call;
  j->batch = batch;
  j->trace_parent = telemetry::current();  // the caller's span parents the execute_tool span
  return j;
}

namespace {

outcome_result refuse(call_outcome why, tool_result r) { return {std::move(r), why, 0}; }

}  // namespace

tool_result invalid_arguments(const tool& t, const std::vector<schema::validation_error>& errors) {
  tool_result r = tool_result::error(
      "invalid arguments for tool \"" + t.name + "\":\n" + schema::format_errors(errors) +
      "\nthe tool did not run; call it again with arguments matching its input schema:\n" +
      dump_json(t.input_schema));
  json list = json::array();
  for (const auto& e : errors)
    list.push_back({{"path", e.path}, {"keyword", e.keyword}, {"message", e.message}});
  r.meta["validation_errors"] = std::move(list);
  r.meta["input_schema"] = t.input_schema;
  return r;
}

namespace {

std::string unix_ms_text(std::int64_t& out) {
  out = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::system_clock::now().time_since_epoch())
            .count();
  return std::to_string(out);
}

}  // namespace

// approve asks the policy about a dangerous call: a refusal or pending result, or nullopt
// to run it (`edited` set when the policy replaced the arguments).
std::optional<outcome_result> executor::impl::approve(job& j, bool& edited) {
  const tool& t = j.entry->definition;
  tool_call& call = j.call;
  approval_decision d = options.approval
                            ? options.approval({t, call, j.batch->options.session})
                            : approval_decision::defer("tool \"" + t.name + "\" is dangerous");
  switch (d.kind) {
    case approval_kind::approve:
      return std::nullopt;
    case approval_kind::reject:
      return refuse(call_outcome::rejected, tool_result::error("the call to tool \"" + t.name +
                                                               "\" was rejected: " + d.message));
    case approval_kind::edit:
      call.arguments = std::move(d.arguments);
      call.raw_arguments = dump_json(call.arguments);
      edited = true;
      return std::nullopt;
    case approval_kind::defer:
      break;
  }
  pending_approval p;
  const std::string ms = unix_ms_text(p.created_unix_ms);
  p.id = "approval-" + ms + "-" + std::to_string(++counter);
  p.call = call;
  p.session = j.batch->options.session;
  p.reason = d.message.empty() ? "tool \"" + t.name + "\" needs approval" : d.message;
  tool_result r = tool_result::text("the call to tool \"" + t.name +
                                    "\" is waiting for approval and has not run yet");
  r.meta["pending_approval"] = p.to_json();
  return refuse(call_outcome::pending_approval, std::move(r));
}

// check returns the result of a call that must not run, or std::nullopt to run it.
std::optional<outcome_result> executor::impl::check(job& j, bool skip_approval) {
  tool_call& call = j.call;
  j.entry = registry.find(call.name);
  if (!j.entry) {
    std::string available;
    for (const auto& n : registry.names()) available += (available.empty() ? "" : ", ") + n;
    return refuse(call_outcome::invalid,
                  tool_result::error("unknown tool \"" + call.name + "\"; available tools: " +
                                     (available.empty() ? "(none)" : available)));
  }
  const tool& t = j.entry->definition;
  if (call.arguments.is_null())
    return refuse(call_outcome::invalid,
                  tool_result::error("the arguments for tool \"" + t.name +
                                     "\" are not valid JSON; the tool did not run; send one JSON "
                                     "object matching its input schema:\n" +
                                     dump_json(t.input_schema)));
  if (t.coerce_arguments) {
    // Opt-in repair ("3" -> 3, "true" -> true, ...); every change is reported in the result.
    auto out = schema::coerce(*j.entry->input_validator, call.arguments);
    if (!out.valid()) return refuse(call_outcome::invalid, invalid_arguments(t, out.errors));
    if (!out.coercions.empty()) {
      call.arguments = std::move(out.value);
      call.raw_arguments = dump_json(call.arguments);
      j.coerced = schema::coercions_to_json(out.coercions);
    }
  } else if (auto errors = j.entry->input_validator->validate(call.arguments); !errors.empty()) {
    return refuse(call_outcome::invalid, invalid_arguments(t, errors));
  }

  if (t.dangerous && !skip_approval) {
    bool edited = false;
    if (auto refused = approve(j, edited)) return refused;
    if (edited) return check(j, true);  // edited arguments are validated again
  }

  if (cache && t.annotations.read_only.value_or(false)) {
    j.cache_key = result_cache::key(t.name, call.arguments);
    if (auto hit = cache->get(j.cache_key)) {
      hit->meta["cached"] = true;
      hit->duration = std::chrono::microseconds(0);
      return outcome_result{std::move(*hit), call_outcome::ok, 0, true};
    }
  }
  if (j.batch->options.stop.stop_requested())
    return refuse(call_outcome::cancelled,
                  tool_result::error("tool \"" + t.name + "\" was cancelled before it started"));
  if (j.batch->options.budget) {
    if (auto refusal = j.batch->options.budget->reserve(t.cost_per_call))
      return refuse(call_outcome::budget_exceeded, tool_result::error(*refusal));
    j.reserved = true;
  }
  return std::nullopt;
}

void executor::impl::unreserve(job& j) {
  if (j.reserved.exchange(false) && j.batch->options.budget)
    j.batch->options.budget->refund(j.entry->definition.cost_per_call);
}

void executor::impl::admit(const std::shared_ptr<job>& j, bool skip_approval) {
  if (auto refused = check(*j, skip_approval)) {
    complete(*j, std::move(*refused));
    return;
  }
  enqueue(j);
}

executor::executor(const tool_registry& registry, executor_options options)
    : impl_(std::make_shared<impl>(registry, std::move(options))) {
  impl_->start_watchdog();
}

executor::~executor() { impl_->shutdown(); }

std::vector<tool_result> executor::run_all(std::span<const tool_call> calls,
                                           const run_options& options) {
  auto batch = make_batch(options, calls.size());
  std::vector<std::shared_ptr<job>> jobs;
  jobs.reserve(calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    jobs.push_back(impl_->make_job(calls[i], i, batch));
    impl_->admit(jobs.back(), false);
  }
  {
    // Registered after admission: if stop was already requested it runs at once.
    std::stop_callback on_stop(options.stop, [&] {
      for (auto& j : jobs) impl_->expire(j, call_outcome::cancelled);
    });
    wait_batch(*batch);
  }
  std::lock_guard lock(batch->mutex);
  return std::move(batch->results);
}

namespace {

// start_single admits one call as a batch of its own and returns its future. The batch owns
// the cancellation hook, so it lives exactly as long as the call.
std::future<tool_result> start_single(const std::shared_ptr<executor::impl>& self,
                                      const tool_call& call, const run_options& options,
                                      bool skip_approval) {
  auto batch = make_batch(options, 1);
  batch->promise.emplace();
  auto future = batch->promise->get_future();
  auto j = self->make_job(call, 0, batch);
  self->admit(j, skip_approval);
  if (options.stop.stop_possible()) {
    std::weak_ptr<job> weak_job = j;
    std::weak_ptr<executor::impl> weak_self = self;
    batch->on_stop = std::make_unique<std::stop_callback<std::function<void()>>>(
        options.stop, std::function<void()>([weak_job, weak_self] {
          auto target = weak_job.lock();
          auto engine = weak_self.lock();
          if (target && engine) engine->expire(target, call_outcome::cancelled);
        }));
  }
  return future;
}

}  // namespace

std::future<tool_result> executor::submit(const tool_call& call, const run_options& options) {
  return start_single(impl_, call, options, false);
}

tool_result executor::call(const tool_call& call, const run_options& options) {
  if (auto r = impl_->try_inline(call, options)) return std::move(*r);
  auto results = run_all(std::span<const tool_call>(&call, 1), options);
  return std::move(results.front());
}

tool_result executor::resume(const pending_approval& pending, const approval_decision& decision,
                             const run_options& options) {
  tool_call c = pending.call;
  switch (decision.kind) {
    case approval_kind::reject:
      return tool_result::error("the call to tool \"" + c.name +
                                "\" was rejected: " + decision.message);
    case approval_kind::defer: {
      tool_result r = tool_result::text("the call to tool \"" + c.name +
                                        "\" is waiting for approval and has not run yet");
      r.meta["pending_approval"] = pending.to_json();
      return r;
    }
    case approval_kind::edit:
      c.arguments = decision.arguments;
      c.raw_arguments = dump_json(c.arguments);
      break;
    case approval_kind::approve:
      break;
  }
  run_options o = options;
  if (o.session.empty()) o.session = pending.session;
  return start_single(impl_, c, o, true).get();
}

bool executor::runs_inline(std::string_view name, const run_options& options) const {
  auto entry = impl_->registry.find(name);
  return entry && impl_->inline_eligible(entry->definition, options);
}

breaker_state executor::breaker(std::string_view tool) const {
  std::lock_guard lock(impl_->breakers_mutex);
  auto it = impl_->breakers.find(tool);
  return it == impl_->breakers.end() ? breaker_state::closed : it->second->state();
}

executor_stats executor::stats() const {
  std::lock_guard lock(impl_->pool_mutex);
  return {impl_->active + impl_->abandoned, impl_->abandoned, impl_->queue.size(),
          impl_->completed_count.load(std::memory_order_relaxed)};
}

}  // namespace tooluse::exec
