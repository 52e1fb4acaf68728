#pragma once
// Serving a message-stream connection (connection.hpp): message_pump hands the messages of
// one connection to its server_session (server::connect), what mcp::serve runs. Messages come
// in on the connection's reading thread; responses, notifications and requests that never
// block (server::runs_inline) are handled there, at once and in order; other requests on
// worker threads (they may block on the client, e.g. sampling).

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "mcp/handler_pool.hpp"
#include "tooluse/mcp/server_session.hpp"
#include "tooluse/mcp/transport.hpp"

namespace tooluse::mcp {

class message_pump {
 public:
  /// `out` is the connection served; its send is thread-safe.
  message_pump(server& srv, connection& out, stream_options options);
  ~message_pump();

  /// feed handles one message.
  void feed(json message);
  /// bad_input answers input that is not a message (connection_handlers::on_bad_input):
  /// -32700 for text that is not JSON, -32600 for a limit (with the id when it can be read).
  void bad_input(std::string_view head, const error& why);
  /// finish waits for running requests and closes the session.
  void finish();
  /// write_failed tells whether a write to the connection failed.
  bool write_failed() const { return write_failed_ || session_->write_failed(); }

 private:
  void write(const json& message);
  /// done gives back the slot of a request of `bytes` that has been handled.
  void done(std::size_t bytes);
  /// slot_release calls done when a request's job ends, however it ends.
  struct slot_release {
    message_pump* pump;
    std::size_t bytes;
    ~slot_release() { pump->done(bytes); }
  };

  server& srv_;
  connection& out_;
  stream_options options_;
  std::unique_ptr<server_session> session_;
  std::mutex mu_;
  std::condition_variable cv_;
  int running_ = 0;   ///< requests queued or being handled
  std::size_t pending_bytes_ = 0;  ///< their estimated size (stream_options::max_pending_bytes)
  bool finished_ = false;
  std::atomic<bool> write_failed_{false};
  handler_pool workers_;  ///< last: its jobs use the members above
};

}  // namespace tooluse::mcp
