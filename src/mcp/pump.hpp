#pragma once
// message_pump: the connection logic shared by stdio and the in-memory transport. Lines come
// in; responses and notifications are handled at once, requests on worker threads (they may
// block on the client, e.g. sampling); everything written goes through one writer.

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
  /// write is called with one serialized message (no newline), serialized by the pump.
  message_pump(server& srv, std::function<void(const std::string&)> write, stream_options options);
  ~message_pump();

  /// feed handles one line of input.
  void feed(std::string_view line);
  /// too_long answers a line longer than max_line_bytes (`head` is its start) with -32600.
  void too_long(std::string_view head);
  /// finish waits for running requests and closes the session.
  void finish();

 private:
  void write(const json& message);
  void worker();

  server& srv_;
  std::function<void(const std::string&)> write_;
  stream_options options_;
  std::shared_ptr<session> session_;
  std::mutex write_mu_;
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
