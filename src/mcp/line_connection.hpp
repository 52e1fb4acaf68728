#pragma once
// Newline-delimited connections of the transport model (connection.hpp): fd_connection (stdio)
// and the two ends of a memory_pipe. Both turn lines into messages the same way
// (line_decoder) and deliver them from one reading thread.

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "tooluse/mcp/connection.hpp"

namespace tooluse::mcp::detail {

/// deliver_line hands one line to `h`: a JSON value to on_message; blank lines are skipped;
/// a line that is not JSON, or too deep or large, to on_bad_input.
void deliver_line(const connection_handlers& h, std::string_view line);

/// deliver_overflow reports a line longer than `max` bytes (`head` is its start).
void deliver_overflow(const connection_handlers& h, std::string_view head, std::size_t max);

/// memory_channel is one direction of a memory_pipe: lines queued by one end, read by the other.
struct memory_channel {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::string> lines;
  bool closed = false;  ///< the writer ended: the reader sees the end after the last line
  int reading = 0;      ///< 1 while the reader handles a line (for drain)
};

/// memory_end is one end of a memory_pipe.
class memory_end : public connection {
 public:
  memory_end(std::shared_ptr<memory_channel> in, std::shared_ptr<memory_channel> out, line_limits limits,
             std::string name);
  ~memory_end() override;

  result<connection_info> start(connection_handlers handlers) override;
  status write(const outgoing& out) override;
  void close() override;
  std::string describe() const override { return name_; }

  /// send_text queues one raw line; false once this end's output is shut.
  bool send_text(std::string line);
  /// shutdown_send ends this end's output: the peer sees the end of input after what was sent.
  void shutdown_send();
  /// drain waits until every line sent to this end so far was handled by its handlers.
  void drain();

 private:
  void read_loop();

  std::shared_ptr<memory_channel> in_, out_;
  line_limits limits_;
  std::string name_;
  connection_handlers handlers_;
  std::mutex mu_;                                ///< guards started_, close_called_
  bool started_ = false, close_called_ = false;
  bool closing_ = false;                         ///< guarded by in_->mu (the reader waits there)
  std::thread reader_;
};

}  // namespace tooluse::mcp::detail
