// stdio_client_transport: newline-delimited JSON-RPC with a child process. Two reader threads
// (stdout: messages; stderr: log lines) poll their pipe and an eventfd that close() signals.
#include "tooluse/mcp/stdio_client_transport.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <optional>
#include <stdexcept>
#include <thread>

#include "stdio_process.hpp"
#include "tooluse/jsonrpc/framing.hpp"
#include "tooluse/sandbox/sandbox.hpp"

namespace tooluse::mcp {

struct detail::stdio_state {
  stdio_server_options options;
  std::string label;  // "stdio server `name`"
  std::string name;
  transport_handlers handlers;
  detail::reaper reaper;
  int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1, wake_fd = -1;
  std::mutex write_mutex;  // guards stdin_fd
  mutable std::mutex mutex;
  std::condition_variable cv;
  pid_t pid = 0;
  bool started = false, closing = false, stderr_done = false;
  bool closing_by_us = false;  // close() was called
  std::deque<std::string> tail;
  int unanswered = 0;            // requests given up in a row with no message from the child
  std::string killed_reason;     // set when we killed the child for not answering
  std::optional<std::string> exit_report;  // set once the child is gone (not after close())
  std::thread out_thread, err_thread;

  ~stdio_state() {
    detail::close_fd(stdin_fd);
    detail::close_fd(stdout_fd);
    detail::close_fd(stderr_fd);
    detail::close_fd(wake_fd);
  }
  void log(std::string_view line) {
    if (options.on_log) return options.on_log(line);
    std::string text = "[" + name + "] " + std::string(line) + "\n";
    std::fwrite(text.data(), 1, text.size(), stderr);  // one write per line: no interleaving
  }
};

namespace {

using stdio_state_ptr = std::shared_ptr<detail::stdio_state>;

// for_each_line reads `fd` until EOF or a wake-up, calling `line` for each complete line and
// `overflow` (with the line's first bytes) for each line longer than `max_line`, which is
// skipped without being stored. After a wake-up it drains what is already in the pipe.
// Returns true at EOF.
template <class F, class G>
bool for_each_line(int fd, int wake_fd, std::size_t max_line, F&& line, G&& overflow) {
  jsonrpc::line_framer framer(max_line);
  const jsonrpc::line_framer::line_handler on_line = line;
  const jsonrpc::line_framer::overflow_handler on_overflow = overflow;
  char chunk[65536];
  bool woken = false;
  for (;;) {
    if (!woken) {
      pollfd p[2] = {{fd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
      if (::poll(p, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return true;
      }
      woken = (p[1].revents & POLLIN) != 0;
    }
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      if (woken) return false;
      continue;
    }
    if (n <= 0) {
      framer.finish(on_line, on_overflow);
      return true;
    }
    framer.feed(std::string_view(chunk, static_cast<std::size_t>(n)), on_line, on_overflow);
  }
}

void read_stderr(const stdio_state_ptr& s) {
  auto keep = [&](std::string_view l) {
    {
      std::lock_guard lock(s->mutex);
      s->tail.emplace_back(l);
      while (s->tail.size() > s->options.stderr_tail_lines) s->tail.pop_front();
    }
    s->log(l);
  };
  for_each_line(s->stderr_fd, s->wake_fd, s->options.max_stderr_line_bytes, keep,
                [&](std::string_view head) {
                  keep(std::string(head.substr(0, 200)) + "... (line cut at " +
                       "stdio_server_options::max_stderr_line_bytes = " +
                       std::to_string(s->options.max_stderr_line_bytes) + " bytes)");
                });
  std::lock_guard lock(s->mutex);
  s->stderr_done = true;
  s->cv.notify_all();
}

// terminate closes stdin, then escalates to SIGTERM and SIGKILL, each after the grace period.
process_exit terminate(detail::stdio_state& s) {
  {
    std::lock_guard lock(s.write_mutex);
    detail::close_fd(s.stdin_fd);
  }
  const auto grace = s.options.shutdown_grace;
  if (auto e = s.reaper.wait_for(grace)) return *e;
  s.reaper.signal_group(SIGTERM);
  if (auto e = s.reaper.wait_for(grace)) return *e;
  s.reaper.signal_group(SIGKILL);
  return s.reaper.wait_for(std::chrono::milliseconds(-1)).value_or(process_exit{});
}

std::string exit_report(detail::stdio_state& s, const process_exit& e) {
  std::unique_lock lock(s.mutex);
  // The child's last words may still be in the stderr pipe: give the reader a moment.
  s.cv.wait_for(lock, std::chrono::seconds(1), [&] { return s.stderr_done; });
  std::string how = e.describe();
  if (s.options.sandbox && e.code) {
    std::string tail;
    for (const auto& l : s.tail) tail += l + "\n";
    if (auto l = sandbox::exit_limit(*e.code, tail); l != sandbox::limit::none)
      how += " (stopped by its sandbox: " + sandbox::limit_description(l, *s.options.sandbox) +
             " was reached)";
  }
  std::string msg = s.label + " " + how;
  if (!s.killed_reason.empty()) msg = s.killed_reason + "; it " + how;
  if (!s.tail.empty()) {
    msg += "; last stderr lines:";
    for (const auto& l : s.tail) msg += "\n  " + l;
  }
  return msg;
}

// The request of ours that a line we cannot read answers: the line's head has an id and no
// method (a server request's id is from the server's own numbering, not ours).
std::optional<json> answered_id(std::string_view line) {
  const std::string_view head = line.substr(0, 4096);
  if (jsonrpc::peek_member(head, "method")) return std::nullopt;
  return jsonrpc::peek_id(head);
}

void handle_stdout_line(detail::stdio_state& s, std::string_view line) {
  if (line.find_first_not_of(" \t") == std::string_view::npos) return;
  auto msg = parse_json(line);
  if (!msg || !(msg->is_object() || msg->is_array())) {
    // An answer we refuse (nested past json_limits::max_depth, malformed) still ends its
    // request, with the reason, instead of leaving it to wait for its timeout.
    auto id = msg ? std::nullopt : answered_id(line);
    if (!id) s.log("ignoring a line that is not JSON-RPC on stdout: " + std::string(line.substr(0, 200)));
    if (id && s.handlers.on_send_failed)
      s.handlers.on_send_failed(*id, error{msg.error().code,
                                           s.label + " sent an answer that was refused: " +
                                               msg.error().message});
    return;
  }
  {
    std::lock_guard lock(s.mutex);
    if (s.closing) return;
    s.unanswered = 0;  // it is alive
  }
  if (s.handlers.on_message) s.handlers.on_message(std::move(*msg));
}

void handle_stdout_overflow(detail::stdio_state& s, std::string_view head) {
  error e = limit_error(s.label + " wrote a message (one line on stdout) that",
                        "stdio_server_options::max_line_bytes", s.options.max_line_bytes, "bytes");
  auto id = answered_id(head);
  s.log("skipping a line longer than the limit: " + e.message);
  {
    std::lock_guard lock(s.mutex);
    if (s.closing) return;
  }
  if (id && s.handlers.on_send_failed) s.handlers.on_send_failed(*id, e);
}

void read_stdout(const stdio_state_ptr& s) {
  const bool eof = for_each_line(
      s->stdout_fd, s->wake_fd, s->options.max_line_bytes,
      [&](std::string_view l) { handle_stdout_line(*s, l); },
      [&](std::string_view head) { handle_stdout_overflow(*s, head); });
  if (!eof) return;  // woken by close()
  {
    std::lock_guard lock(s->mutex);
    if (s->closing) return;
  }
  // stdout ended: the server exited or gave up its stdout; either way the connection is over.
  process_exit e = terminate(*s);
  std::string report = exit_report(*s, e);
  {
    std::lock_guard lock(s->mutex);
    s->exit_report = report;
    s->cv.notify_all();
    if (s->closing) return;
    s->closing = true;
  }
  if (s->handlers.on_closed) s->handlers.on_closed(error{errc::io_error, report});
}

std::string default_name(const std::vector<std::string>& command) {
  std::string n = command[0];
  auto slash = n.rfind('/');
  return slash == std::string::npos ? n : n.substr(slash + 1);
}

std::string join_command(const std::vector<std::string>& command) {
  std::string out;
  for (const auto& w : command) out += (out.empty() ? "" : " ") + w;
  return out;
}

void join_or_detach(std::thread& t) {
  if (!t.joinable()) return;
  if (t.get_id() == std::this_thread::get_id()) t.detach();  // close() from a handler
  else t.join();
}

// given_up counts a request the client gave up on; max_unanswered of them in a row, with no
// message from the child meanwhile, kill it.
void given_up(const stdio_state_ptr& s) {
  {
    std::lock_guard lock(s->mutex);
    if (s->options.max_unanswered <= 0 || s->closing || !s->started || s->pid <= 0) return;
    if (++s->unanswered < s->options.max_unanswered || !s->killed_reason.empty()) return;
    s->killed_reason = s->label + " stopped answering: " + std::to_string(s->unanswered) +
                       " requests in a row got no reply (stdio_server_options::max_unanswered = " +
                       std::to_string(s->options.max_unanswered) + "), so it was killed";
  }
  s->log(s->killed_reason);
  // SIGTERM now, SIGKILL after the grace period, off the caller's thread; the stdout reader
  // then sees the end of the pipe and reports the exit through on_closed.
  std::thread([s] {
    s->reaper.signal_group(SIGTERM);
    if (!s->reaper.wait_for(s->options.shutdown_grace)) s->reaper.signal_group(SIGKILL);
  }).detach();
}

}  // namespace

stdio_client_transport::stdio_client_transport(stdio_server_options options)
    : state_(std::make_shared<detail::stdio_state>()) {
  if (options.command.empty() || options.command[0].empty())
    throw std::invalid_argument("stdio_client_transport: the command is empty");
  state_->name = options.name.empty() ? default_name(options.command) : options.name;
  state_->label = "stdio server `" +
                  (options.name.empty() ? join_command(options.command) : options.name) + "`";
  state_->options = std::move(options);
}

stdio_client_transport::~stdio_client_transport() { close(); }

result<connection_info> stdio_client_transport::start(transport_handlers handlers) {
  auto& s = *state_;
  {
    std::lock_guard lock(s.mutex);
    if (s.started) return fail(errc::invalid_argument, s.label + ": start() called twice");
    s.started = true;
  }
  auto child = detail::spawn_child(s.options, s.label);
  if (!child) return fail(child.error());
  s.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  s.handlers = std::move(handlers);
  s.stdin_fd = child->stdin_fd;
  s.stdout_fd = child->stdout_fd;
  s.stderr_fd = child->stderr_fd;
  s.pid = child->pid;
  s.reaper.watch(child->pid, child->pidfd, std::move(child->resources));
  s.err_thread = std::thread(read_stderr, state_);
  s.out_thread = std::thread(read_stdout, state_);
  return {};
}

status stdio_client_transport::write(const outgoing& out) {
  auto& s = *state_;
  std::string line = dump_json(out.message);
  line += '\n';
  int err = 0;
  {
    std::lock_guard lock(s.write_mutex);
    err = s.stdin_fd < 0 ? EPIPE : detail::write_all(s.stdin_fd, line);
  }
  if (out.request && out.message.is_object() &&
      out.message.find("method") != out.message.end() &&
      out.message["method"] == "notifications/cancelled")
    given_up(state_);
  if (err == 0) return {};
  if (err == EPIPE) {
    // The child is gone or going: say how it ended rather than "broken pipe".
    std::unique_lock lock(s.mutex);
    if (s.started && s.pid > 0 && !s.closing_by_us)
      s.cv.wait_for(lock, std::chrono::seconds(3), [&] { return s.exit_report.has_value(); });
    // After our own close() the child's exit is ours, not news: the transport is not running.
    if (s.exit_report && !s.closing_by_us) return fail(errc::io_error, *s.exit_report);
    return fail(errc::io_error, s.label + " is not running");
  }
  return fail(errc::io_error, "cannot write to " + s.label + ": " + std::strerror(err));
}

void stdio_client_transport::close() {
  auto& s = *state_;
  {
    std::lock_guard lock(s.mutex);
    if (!s.started) return;
    s.closing = true;
    s.closing_by_us = true;
  }
  if (s.pid > 0) terminate(s);
  if (s.wake_fd >= 0) {
    std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(s.wake_fd, &one, sizeof one);
  }
  join_or_detach(s.out_thread);
  join_or_detach(s.err_thread);
}

std::string stdio_client_transport::describe() const { return state_->label; }

std::optional<process_exit> stdio_client_transport::exit_status() const {
  return state_->reaper.exit();
}

int stdio_client_transport::pid() const { return state_->pid; }

std::vector<std::string> stdio_client_transport::stderr_tail() const {
  std::lock_guard lock(state_->mutex);
  return {state_->tail.begin(), state_->tail.end()};
}

}  // namespace tooluse::mcp
