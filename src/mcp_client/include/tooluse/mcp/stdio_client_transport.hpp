#pragma once
/// \file stdio_client_transport.hpp
/// tooluse::mcp::stdio_client_transport, an MCP client's connection to a server it runs as a
/// child process: newline-delimited JSON-RPC on the child's stdin and stdout, the child's
/// stderr passed to a log, shutdown by closing stdin, then SIGTERM, then SIGKILL.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/mcp/client_transport.hpp"
#include "tooluse/sandbox/policy.hpp"

namespace tooluse::mcp {

namespace detail {
struct stdio_state;
}  // namespace detail

/// process_exit is how a child process ended: an exit code or the signal that killed it.
struct process_exit {
  std::optional<int> code;    ///< set when the child exited
  std::optional<int> signal;  ///< set when a signal killed it
  /// describe says "exited with status 3" or "was killed by signal 9 (Killed)".
  std::string describe() const;
};

/// stdio_server_options say how to run a server. Only `command` is required.
/// Example:
///   mcp::stdio_client_transport t({.command = {"npx", "-y",
///   "@modelcontextprotocol/server-memory"},
///                                  .name = "memory"});
struct stdio_server_options {
  std::vector<std::string> command;        ///< argv; command[0] is searched in PATH
  std::map<std::string, std::string> env;  ///< added to (or replacing) the inherited variables
  /// inherit_env names the variables of our environment the child gets, as the official SDKs
  /// do; nothing else of ours (API keys, tokens) reaches it. Add names to pass more.
  std::vector<std::string> inherit_env = {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"};
  std::string cwd;                         ///< working folder; empty: ours
  std::string name;                        ///< for logs ("[name] ..."); empty: command[0]
  /// on_log receives each line the child writes to stderr, and notes about skipped stdout
  /// lines. Called from the transport's threads. Empty: write "[name] line" to our stderr.
  std::function<void(std::string_view line)> on_log;
  /// shutdown_grace is how long close() waits after closing stdin before SIGTERM, and after
  /// SIGTERM before SIGKILL.
  std::chrono::milliseconds shutdown_grace{2000};
  std::size_t stderr_tail_lines = 10;  ///< last stderr lines kept for the exit report
  /// max_line_bytes bounds one message (line) on the child's stdout, enforced as the bytes
  /// arrive: a longer line is skipped without being stored, and the request it answers (when
  /// its id can be read from its start) fails with errc::limit_exceeded.
  std::size_t max_line_bytes = 16u << 20;
  /// max_stderr_line_bytes bounds one stderr line kept for logs (the rest is dropped).
  std::size_t max_stderr_line_bytes = 64u << 10;
  /// max_unanswered: after this many requests in a row were given up (timed out or cancelled:
  /// the client's `notifications/cancelled` for each, written with the request's id in
  /// outgoing::request) with no message at all from the child meanwhile, the child is considered hung and is
  /// killed (SIGTERM to its process group, SIGKILL after shutdown_grace); on_closed reports
  /// it. 0 never kills.
  int max_unanswered = 3;
  /// sandbox: run the server under this policy (tooluse::sandbox: bubblewrap, seccomp,
  /// rlimits). It then gets only `env` (plus PATH, HOME = its working folder, LANG), no
  /// inherited variable, sees only the system folders, its working folder (writable) and the
  /// policy's paths, and has no network unless the policy says so. The sandbox dies with the
  /// thread that calls start() (bubblewrap's --die-with-parent), so start it from a thread that
  /// outlives the server.
  std::optional<sandbox::policy> sandbox;
};

/// stdio_client_transport runs an MCP server as a child process (in its own process group,
/// with no other file descriptors inherited) and exchanges newline-delimited JSON-RPC with it.
/// A line on the child's stdout that is not JSON is logged and skipped. When the child exits
/// or closes its stdout, on_closed reports its exit status and the last lines of its stderr.
/// Thread-safety: send() is thread-safe; start() once; close() and the destructor may be
/// called from any thread, including a handler.
class stdio_client_transport : public client_transport {
 public:
  /// stdio_client_transport keeps `options`; nothing runs until start().
  /// Throws std::invalid_argument if options.command is empty.
  explicit stdio_client_transport(stdio_server_options options);
  /// ~stdio_client_transport calls close().
  ~stdio_client_transport() override;
  stdio_client_transport(const stdio_client_transport&) = delete;
  stdio_client_transport& operator=(const stdio_client_transport&) = delete;

  /// start spawns the child and starts the reader threads.
  /// Errors: errc::io_error naming the command when it cannot be spawned (not found, not
  /// executable, bad cwd); errc::invalid_argument when called twice.
  result<connection_info> start(transport_handlers handlers) override;

  /// write writes one message as a line on the child's stdin. Of the envelope it uses only
  /// `request` on a `notifications/cancelled`: the client gave up on that request, which
  /// counts toward max_unanswered.
  /// Errors: errc::io_error when the child is gone or not started.
  status write(const outgoing& out) override;

  /// close closes the child's stdin, waits shutdown_grace, sends SIGTERM to its process group,
  /// waits again, then SIGKILL, and reaps it. Idempotent; on_closed is not called.
  void close() override;

  /// describe returns "stdio server `NAME`" or "stdio server `CMD ARGS`".
  std::string describe() const override;

  /// exit_status is how the child ended, once it has been reaped.
  std::optional<process_exit> exit_status() const;

  /// pid is the child's process id while it runs (0 before start).
  int pid() const;

  /// stderr_tail returns the last lines the child wrote to stderr.
  std::vector<std::string> stderr_tail() const;

 private:
  std::shared_ptr<detail::stdio_state> state_;
};

}  // namespace tooluse::mcp
