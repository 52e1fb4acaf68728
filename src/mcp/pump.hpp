#pragma once
// message_pump: a server session over one connection (connection.hpp), what mcp::serve runs.
// Messages come in on the connection's reading thread; responses, notifications and requests
// that never block are handled there, at once and in order; other requests on worker threads
// (they may block on the client, e.g. sampling). Everything goes out through `send`.

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "mcp/session.hpp"
#include "tooluse/mcp/transport.hpp"

namespace tooluse::mcp {

class message_pump {
 public:
  /// send writes one message to the client; it must be thread-safe (a connection's send is).
  message_pump(server& srv, std::function<void(const json&)> send, stream_options options);
  ~message_pump();

  /// feed handles one message.
  void feed(json message);
  /// bad_input answers input that is not a message (connection_handlers::on_bad_input):
  /// -32700 for text that is not JSON, -32600 for a limit (with the id when it can be read).
  void bad_input(std::string_view head, const error& why);
  /// finish waits for running requests and closes the session.
  void finish();

 private:
  void write(const json& message);
  void worker();

  server& srv_;
  std::function<void(const json&)> send_;
  stream_options options_;
  std::shared_ptr<session> session_;
  std::mutex mu_;
  std::condition_variable cv_;
  int running_ = 0;   ///< requests queued or being handled
  int idle_ = 0;      ///< workers waiting for a request
  bool finished_ = false;
  bool stopping_ = false;
  std::deque<jsonrpc::message> queue_;
  std::vector<std::thread> workers_;
};

}  // namespace tooluse::mcp
