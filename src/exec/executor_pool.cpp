// The worker pool, the watchdog that enforces hard deadlines, and call completion.
// Locks: pool_mutex, watch_mutex and a job's mutex are never held together, except that
// complete() takes a batch's mutex after releasing the job's.
#include <algorithm>

#include "executor_impl.hpp"

namespace tooluse::exec {

void executor::impl::start_watchdog() {
  watchdog = std::jthread([this](std::stop_token st) {
    std::unique_lock lock(watch_mutex);
    while (!st.stop_requested()) {
      if (deadlines.empty()) {
        watch_cv.wait(lock, st, [&] { return !deadlines.empty(); });
        continue;
      }
      auto first = deadlines.begin();
      const auto when = first->first;
      if (when > steady::now()) {
        // Wake at the deadline, or earlier when an earlier one is armed.
        watch_cv.wait_until(lock, st, when,
                            [&] { return !deadlines.empty() && deadlines.begin()->first < when; });
        continue;
      }
      auto target = first->second.lock();
      if (target) target->watch.reset();
      deadlines.erase(first);
      lock.unlock();
      if (target) expire(target, call_outcome::timeout);
      lock.lock();
    }
  });
}

void executor::impl::arm(const std::shared_ptr<job>& j, steady::time_point when) {
  if (when == steady::time_point::max()) return;
  std::lock_guard lock(watch_mutex);
  if (j->watch) deadlines.erase(*j->watch);
  j->watch = deadlines.emplace(when, j);
  if (j->watch == deadlines.begin()) watch_cv.notify_one();
}

void executor::impl::disarm(job& j) {
  std::lock_guard lock(watch_mutex);
  if (j.watch) {
    deadlines.erase(*j.watch);
    j.watch.reset();
  }
}

void emit_to(const event_callback& a, const event_callback& b, const call_event& e) {
  // A throwing observer must not take a worker down; its events are simply lost.
  try {
    if (a) a(e);
  } catch (...) {
  }
  try {
    if (b) b(e);
  } catch (...) {
  }
}

void executor::impl::emit(job& j, const call_event& e) { emit_to(options.on_event, j.batch->options.on_event, e); }

steady::time_point executor::impl::deadline_of(const job& j) const {
  // The tool's timeout counts from the call (its admission), not from when a worker took it:
  // a saturated pool cannot stretch it.
  const auto limit = timeout_of(j.entry->definition, j.batch->options);
  return limit.count() > 0 ? std::min(j.batch->deadline, j.enqueued + limit) : j.batch->deadline;
}

bool executor::impl::complete(job& j, outcome_result r) {
  {
    std::lock_guard lock(j.mutex);
    if (j.completed) return false;
    j.completed = true;
    call_event e{.kind = event_kind::end,
                 .index = j.index,
                 .call = &j.call,
                 .session = j.batch->options.session,
                 .result = &r.result,
                 .outcome = r.outcome,
                 .duration = r.result.duration,
                 .attempts = r.attempts,
                 .cached = r.cached};
    emit(j, e);
  }
  disarm(j);
  completed_count.fetch_add(1, std::memory_order_relaxed);
  batch_state& b = *j.batch;
  std::lock_guard lock(b.mutex);
  if (b.promise) {
    b.promise->set_value(std::move(r.result));
  } else {
    b.results[j.index] = std::move(r.result);
  }
  if (--b.remaining == 0) b.done_cv.notify_all();
  return true;
}

namespace {

std::string ms_text(steady::duration d) {
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(d).count()) + " ms";
}

tool_result expiry_result(const job& j, call_outcome why, bool was_running,
                          steady::duration timeout) {
  const std::string& name = j.call.name;
  if (why == call_outcome::cancelled)
    return tool_result::error("tool \"" + name + "\" was cancelled before it finished");
  const bool batch_deadline = steady::now() >= j.batch->deadline;
  std::string text = "tool \"" + name + "\" timed out after " +
                     (batch_deadline ? ms_text(j.batch->options.timeout) + " (the batch deadline)"
                                     : ms_text(timeout));
  text += was_running ? "; it may still finish in the background, so do not assume it had no "
                        "effect; retry only if that is safe"
                      : " while waiting to start; it did not run";
  tool_result r = tool_result::error(std::move(text));
  r.meta["timeout"] = true;
  return r;
}

}  // namespace

void executor::impl::expire(const std::shared_ptr<job>& j, call_outcome why) {
  bool was_running = false;
  {
    std::lock_guard lock(pool_mutex);
    if (j->state == job::phase::queued) {
      queue.erase(std::find(queue.begin(), queue.end(), j));
      j->state = job::phase::done;
    } else if (j->state == job::phase::running && !j->abandoned) {
      // Give up on the worker: it keeps running the handler, but no longer counts against the
      // pool; a replacement may be spawned (bounded by max_abandoned, design/exec.md).
      j->abandoned = true;
      was_running = true;
      --active;
      ++abandoned;
      --j->batch->running;
      running_jobs.erase(j);
      spawn_if_needed();
      pool_cv.notify_all();
    } else if (j->state == job::phase::admitted) {
      // Not queued yet (its deadline passed while enqueue armed it, or it was refused at
      // admission): `done` tells enqueue not to queue it, so a call reported as not run never runs.
      j->state = job::phase::done;
    } else {
      return;  // already finished, or already given up on
    }
  }
  j->stop.request_stop();
  if (!was_running) unreserve(*j);  // it never started
  if (was_running && why == call_outcome::timeout) breaker_for(j->call.name).record(false);
  if (was_running && why == call_outcome::cancelled) breaker_for(j->call.name).cancel_trial();
  const auto since = was_running ? j->started : j->enqueued;
  outcome_result r{expiry_result(*j, why, was_running, timeout_of(j->entry->definition, j->batch->options)), why, 1};
  r.result.duration = std::chrono::duration_cast<std::chrono::microseconds>(steady::now() - since);
  complete(*j, std::move(r));
}

void executor::impl::enqueue(const std::shared_ptr<job>& j) {
  j->enqueued = steady::now();
  const auto deadline = deadline_of(*j);
  if (deadline <= j->enqueued) {
    // The batch deadline passed during admission (an approval that took longer than the batch
    // timeout): the call times out without running.
    expire(j, call_outcome::timeout);
    return;
  }
  arm(j, deadline);  // before a worker can take it
  bool refused = false;
  {
    std::lock_guard lock(pool_mutex);
    if (j->state == job::phase::done) return;  // the watchdog expired it since it was armed
    if (stopping) {
      refused = true;
      j->state = job::phase::done;
    } else {
      j->state = job::phase::queued;
      queue.push_back(j);
      spawn_if_needed();
      pool_cv.notify_one();
    }
  }
  if (refused) {
    unreserve(*j);
    complete(*j, {tool_result::error("the tool executor is shutting down; the call did not run"),
                  call_outcome::cancelled, 0});
  }
}

std::shared_ptr<job> executor::impl::take_eligible() {
  for (auto it = queue.begin(); it != queue.end(); ++it) {
    auto& j = *it;
    const tool& t = j->entry->definition;
    const int batch_cap = j->batch->options.max_parallel;
    if (batch_cap > 0 && j->batch->running >= batch_cap) continue;
    if (t.max_parallel > 0 && tool_running[t.name] >= t.max_parallel) continue;
    auto taken = std::move(j);
    queue.erase(it);
    if (t.max_parallel > 0) ++tool_running[t.name];
    ++taken->batch->running;
    taken->state = job::phase::running;
    taken->started = steady::now();
    running_jobs.insert(taken);
    return taken;
  }
  return nullptr;
}

void executor::impl::spawn_if_needed() {
  // Called with pool_mutex held. Threads in total never exceed max_threads + max_abandoned.
  const bool room = active < options.max_threads &&
                    active + abandoned < options.max_threads + options.max_abandoned;
  if (stopping || !room || queue.size() <= static_cast<std::size_t>(waiting)) return;
  ++active;
  std::thread([self = shared_from_this()] { self->worker_loop(); }).detach();
}

void executor::impl::worker_loop() {
  std::unique_lock lock(pool_mutex);
  for (;;) {
    std::shared_ptr<job> j;
    while (!stopping && !(j = take_eligible())) {
      ++waiting;
      pool_cv.wait(lock);
      --waiting;
    }
    if (!j) break;
    if (!queue.empty()) spawn_if_needed();
    lock.unlock();
    outcome_result r = run(*j);
    lock.lock();
    const tool& t = j->entry->definition;
    if (t.max_parallel > 0) --tool_running[t.name];
    j->state = job::phase::done;
    pool_cv.notify_all();  // a tool or batch slot is free
    if (j->abandoned) {
      // The deadline passed while we ran: the caller already has its timeout result.
      --abandoned;
      if (stopping || active >= options.max_threads) {
        exit_cv.notify_all();
        return;
      }
      ++active;
      continue;
    }
    --j->batch->running;
    running_jobs.erase(j);
    lock.unlock();
    complete(*j, std::move(r));
    lock.lock();
  }
  --active;
  exit_cv.notify_all();
}

void executor::impl::shutdown() {
  std::vector<std::shared_ptr<job>> queued, running;
  {
    std::lock_guard lock(pool_mutex);
    stopping = true;
    queued.assign(queue.begin(), queue.end());
    running.assign(running_jobs.begin(), running_jobs.end());
    pool_cv.notify_all();
  }
  for (auto& j : queued) expire(j, call_outcome::cancelled);
  for (auto& j : running) j->stop.request_stop();
  {
    // Handlers get a moment to honour their stop token, those already given up on (a deadline or
    // a caller's stop) included, so that a handler that returns when asked is not still running
    // when the objects it uses go away; the rest are abandoned.
    std::unique_lock lock(pool_mutex);
    exit_cv.wait_for(lock, std::chrono::milliseconds(500),
                     [&] { return running_jobs.empty() && abandoned == 0; });
    running.assign(running_jobs.begin(), running_jobs.end());
  }
  for (auto& j : running) expire(j, call_outcome::cancelled);
  {
    std::unique_lock lock(pool_mutex);
    exit_cv.wait(lock, [&] { return active == 0; });
  }
  watchdog.request_stop();
  watchdog.join();
}

}  // namespace tooluse::exec
