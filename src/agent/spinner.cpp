#include "tooluse/agent/spinner.hpp"

#include <algorithm>
#include <stdexcept>

namespace tooluse {

tool_spinner::tool_spinner(tool_spinner_options options) : options_(std::move(options)) {
  if (!options_.out) throw std::invalid_argument("tool_spinner: options.out must not be null");
  if (options_.frames.empty())
    throw std::invalid_argument("tool_spinner: options.frames must not be empty");
  if (options_.terminal) thread_ = std::jthread([this](std::stop_token s) { animate(s); });
}

tool_spinner::~tool_spinner() {
  if (thread_.joinable()) {
    thread_.request_stop();
    thread_.join();
  }
  std::lock_guard lock(mutex_);
  clear_locked();
}

void tool_spinner::draw_locked() {
  if (!options_.terminal || !active_locked() || suspended_ > 0) return;
  std::string line = "\r" + options_.frames[frame_ % options_.frames.size()];
  if (running_.empty())
    line += " waiting for the model";
  else
    line += " running ";
  for (size_t i = 0; i < running_.size(); ++i) line += (i ? ", " : "") + running_[i];
  *options_.out << line << "\x1b[K" << std::flush;
  drawn_ = true;
  ++frames_drawn_;
}

void tool_spinner::clear_locked() {
  if (!drawn_) return;
  *options_.out << clear_sequence << std::flush;
  drawn_ = false;
}

void tool_spinner::animate(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  while (!stop.stop_requested()) {
    // Sleep until there is something to animate (or the spinner is destroyed).
    if (!wake_.wait(lock, stop, [&] { return active_locked() && suspended_ == 0; })) break;
    // Then advance one frame per interval; any change wakes the wait early and is re-checked.
    auto changed = wake_.wait_for(lock, stop, options_.frame_interval,
                                  [&] { return !active_locked() || suspended_ > 0; });
    if (!changed && !stop.stop_requested()) {
      ++frame_;
      draw_locked();
    }
  }
}

void tool_spinner::begin(const std::string& tool) {
  std::lock_guard lock(mutex_);
  running_.push_back(tool);
  draw_locked();
  wake_.notify_all();
}

void tool_spinner::end(const std::string& tool) {
  std::lock_guard lock(mutex_);
  if (auto it = std::find(running_.begin(), running_.end(), tool); it != running_.end())
    running_.erase(it);
  if (!active_locked())
    clear_locked();
  else
    draw_locked();
  wake_.notify_all();
}

void tool_spinner::waiting(bool on) {
  std::lock_guard lock(mutex_);
  if (waiting_ == on) return;
  waiting_ = on;
  if (!active_locked())
    clear_locked();
  else
    draw_locked();
  wake_.notify_all();
}

void tool_spinner::print(std::string_view text) {
  std::lock_guard lock(mutex_);
  clear_locked();
  *options_.out << text << std::flush;
  draw_locked();
}

void tool_spinner::suspend() {
  std::lock_guard lock(mutex_);
  ++suspended_;
  clear_locked();
  wake_.notify_all();
}

void tool_spinner::resume() {
  std::lock_guard lock(mutex_);
  if (suspended_ > 0 && --suspended_ == 0) draw_locked();
  wake_.notify_all();
}

void tool_spinner::on_event(const agent_event& e) {
  if (!e.call) return;
  if (e.what == agent_event::kind::tool_call)
    begin(e.call->name);
  else if (e.what == agent_event::kind::tool_result)
    end(e.call->name);
}

std::size_t tool_spinner::frames_drawn() const {
  std::lock_guard lock(mutex_);
  return frames_drawn_;
}

}  // namespace tooluse
