#pragma once
/// \file spinner.hpp
/// tooluse::tool_spinner, a one-line animation on a terminal while an agent's tools run
/// (`tooluse run` and `tooluse chat` draw it on stderr). It follows the agent's events: a
/// tool_call starts it, the matching tool_result stops it; lines printed through it appear
/// above the animation, which is cleared first. On anything but a terminal it draws nothing and
/// print() writes the text alone, so piped output stays clean.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "tooluse/agent/events.hpp"

namespace tooluse {

/// tool_spinner_options say where and how the spinner draws.
struct tool_spinner_options {
  std::ostream* out = nullptr;  ///< where to draw; required
  bool terminal = false;        ///< false: never draw (e.g. isatty(STDERR_FILENO) == 0)
  std::chrono::milliseconds frame_interval{100};
  std::vector<std::string> frames = {"|", "/", "-", "\\"};
};

/// tool_spinner draws "\r<frame> running <tools>" and advances the frame on its own thread
/// every frame_interval (a timed wait on a condition variable, woken early by every change).
/// Clearing writes "\r\x1b[K" (carriage return, erase to the end of the line). Thread-safe.
class tool_spinner {
 public:
  /// clear_sequence is what erases the spinner's line.
  static constexpr std::string_view clear_sequence = "\r\x1b[K";

  /// tool_spinner starts the animation thread when `options.terminal`.
  /// Throws std::invalid_argument if options.out is null or options.frames is empty.
  explicit tool_spinner(tool_spinner_options options);
  ~tool_spinner();
  tool_spinner(const tool_spinner&) = delete;
  tool_spinner& operator=(const tool_spinner&) = delete;

  /// begin adds `tool` to the running set and draws the first frame at once.
  void begin(const std::string& tool);
  /// end removes one `tool` from the running set; with none left the line is cleared.
  void end(const std::string& tool);
  /// waiting(true) draws "<frame> waiting for the model" while no tool runs (a model request
  /// is on its way); waiting(false) stops it.
  void waiting(bool on);
  /// print clears the spinner's line, writes `text` (normally ending in '\n') and draws the
  /// spinner again below it if tools are still running.
  void print(std::string_view text);
  /// suspend clears the line and stops drawing until resume() (e.g. while asking the user).
  /// Calls nest.
  void suspend();
  /// resume undoes one suspend().
  void resume();
  /// on_event follows an agent: tool_call -> begin, tool_result -> end.
  void on_event(const agent_event& e);
  /// frames_drawn returns how many frames were written so far (for tests and diagnostics).
  std::size_t frames_drawn() const;

 private:
  bool active_locked() const { return !running_.empty() || waiting_; }
  void draw_locked();
  void clear_locked();
  void animate(std::stop_token stop);

  tool_spinner_options options_;
  mutable std::mutex mutex_;
  std::condition_variable_any wake_;
  std::vector<std::string> running_;
  int suspended_ = 0;
  bool waiting_ = false;
  bool drawn_ = false;
  std::size_t frame_ = 0;
  std::size_t frames_drawn_ = 0;
  std::jthread thread_;
};

}  // namespace tooluse
