// fd_connection and memory_pipe: the newline-delimited connections (connection.hpp). One
// reading thread each delivers messages in order; write() writes one whole line under a mutex.
#include "mcp/line_connection.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "tooluse/jsonrpc/framing.hpp"

namespace tooluse::mcp {
namespace detail {

void deliver_line(const connection_handlers& h, std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
    line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return;
  auto value = parse_json(line);
  if (!value) {
    if (h.on_bad_input)
      h.on_bad_input(line.substr(0, 4096), value.error().code == errc::limit_exceeded
                                              ? value.error()
                                              : error{errc::parse_error, "the line is not JSON"});
    return;
  }
  if (h.on_message) h.on_message(std::move(*value));
}

void deliver_overflow(const connection_handlers& h, std::string_view head, std::size_t max) {
  if (h.on_bad_input)
    h.on_bad_input(head, limit_error("a message (one line)", "mcp::stream_options::max_line_bytes", max, "bytes"));
}

namespace {

// join_reader waits for the reading thread, unless called on it (close() from a handler):
// the thread then stays joinable and the destructor joins it (reap_reader), so a connection
// closed from its handler and destroyed right after never outlives its reader.
void join_reader(std::thread& t) {
  if (t.joinable() && t.get_id() != std::this_thread::get_id()) t.join();
}

// reap_reader is for destructors: join, or detach when the reader itself destroys the
// connection (a handler that owns it).
void reap_reader(std::thread& t) {
  if (!t.joinable()) return;
  if (t.get_id() == std::this_thread::get_id()) t.detach();
  else t.join();
}

// fd_conn reads `in` on its own thread (poll on the descriptor and an eventfd close() signals).
class fd_conn : public connection {
 public:
  fd_conn(int in, int out, line_limits limits, std::string name)
      : in_(in), out_(out), limits_(limits), name_(std::move(name)) {}
  ~fd_conn() override {
    close();
    reap_reader(reader_);
    if (wake_ >= 0) ::close(wake_);
  }

  result<connection_info> start(connection_handlers handlers) override {
    std::lock_guard lock(mu_);
    if (started_) return fail(errc::invalid_argument, name_ + ": start() called twice");
    wake_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake_ < 0) return fail(errc::io_error, name_ + ": eventfd failed: " + std::strerror(errno));
    started_ = true;
    handlers_ = std::move(handlers);
    reader_ = std::thread([this] { read_loop(); });
    return {};
  }

  status write(const outgoing& out) override {
    std::string line = dump_json(out.message);
    line += '\n';
    std::lock_guard lock(write_mu_);
    const char* p = line.data();
    std::size_t left = line.size();
    while (left > 0) {
      ssize_t n = ::write(out_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return fail(errc::io_error, name_ + ": writing the output failed: " + std::strerror(errno));
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    return {};
  }

  void close() override {
    {
      std::lock_guard lock(mu_);
      if (!started_ || closing_) return;
      closing_ = true;
    }
    std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(wake_, &one, sizeof one);
    join_reader(reader_);
  }

  std::string describe() const override { return name_; }

 private:
  bool closing() {
    std::lock_guard lock(mu_);
    return closing_;
  }

  void read_loop() {
    jsonrpc::line_framer framer(limits_.max_line_bytes);
    const jsonrpc::line_framer::line_handler on_line = [this](std::string_view l) {
      if (!closing()) deliver_line(handlers_, l);
    };
    const jsonrpc::line_framer::overflow_handler on_overflow = [this](std::string_view head) {
      if (!closing()) deliver_overflow(handlers_, head, limits_.max_line_bytes);
    };
    std::vector<char> chunk(64 * 1024);
    error reason{errc::cancelled, name_ + ": end of input"};
    for (;;) {
      pollfd p[2] = {{in_, POLLIN, 0}, {wake_, POLLIN, 0}};
      if (::poll(p, 2, -1) < 0) {
        if (errno == EINTR) continue;
        reason = {errc::io_error, name_ + ": poll failed: " + std::strerror(errno)};
        break;
      }
      if (p[1].revents & POLLIN) return;  // close(): no on_closed
      ssize_t n = ::read(in_, chunk.data(), chunk.size());
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n < 0) {
        reason = {errc::io_error, name_ + ": reading the input failed: " + std::strerror(errno)};
        break;
      }
      if (n == 0) {
        framer.finish(on_line, on_overflow);
        break;
      }
      framer.feed(std::string_view(chunk.data(), static_cast<std::size_t>(n)), on_line, on_overflow);
    }
    if (!closing() && handlers_.on_closed) handlers_.on_closed(reason);
  }

  int in_, out_, wake_ = -1;
  line_limits limits_;
  std::string name_;
  connection_handlers handlers_;
  std::mutex mu_, write_mu_;
  bool started_ = false, closing_ = false;
  std::thread reader_;
};

}  // namespace

// --- memory_end -------------------------------------------------------------------------------

memory_end::memory_end(std::shared_ptr<memory_channel> in, std::shared_ptr<memory_channel> out,
                       line_limits limits, std::string name)
    : in_(std::move(in)), out_(std::move(out)), limits_(limits), name_(std::move(name)) {}

memory_end::~memory_end() {
  close();
  shutdown_send();
  reap_reader(reader_);
}

result<connection_info> memory_end::start(connection_handlers handlers) {
  std::lock_guard lock(mu_);
  if (started_) return fail(errc::invalid_argument, name_ + ": start() called twice");
  started_ = true;
  handlers_ = std::move(handlers);
  reader_ = std::thread([this] { read_loop(); });
  return {};
}

bool memory_end::send_text(std::string line) {
  std::lock_guard lock(out_->mu);
  if (out_->closed) return false;
  out_->lines.push_back(std::move(line));
  out_->cv.notify_all();
  return true;
}

status memory_end::write(const outgoing& out) {
  if (!send_text(dump_json(out.message))) return fail(errc::io_error, name_ + ": the connection is closed");
  return {};
}

void memory_end::shutdown_send() {
  std::lock_guard lock(out_->mu);
  out_->closed = true;
  out_->cv.notify_all();
}

void memory_end::drain() {
  std::unique_lock lock(in_->mu);
  in_->cv.wait(lock, [&] { return (in_->lines.empty() && in_->reading == 0) || closing_; });
}

void memory_end::close() {
  {
    std::lock_guard lock(mu_);
    if (!started_ || close_called_) return;
    close_called_ = true;
  }
  {
    std::lock_guard lock(in_->mu);  // the reader waits on in_->cv: flag it under that lock
    closing_ = true;
    in_->closed = true;  // the peer's sends fail from now on
    in_->lines.clear();
    in_->cv.notify_all();
  }
  shutdown_send();  // the peer sees the end
  join_reader(reader_);
}

void memory_end::read_loop() {
  for (;;) {
    std::string line;
    {
      std::unique_lock lock(in_->mu);
      in_->cv.wait(lock, [&] { return closing_ || !in_->lines.empty() || in_->closed; });
      if (closing_) return;
      if (in_->lines.empty()) break;  // the peer ended
      line = std::move(in_->lines.front());
      in_->lines.pop_front();
      in_->reading = 1;
    }
    if (line.size() > limits_.max_line_bytes)
      deliver_overflow(handlers_, std::string_view(line).substr(0, 4096), limits_.max_line_bytes);
    else
      deliver_line(handlers_, line);
    std::lock_guard lock(in_->mu);
    in_->reading = 0;
    in_->cv.notify_all();
  }
  if (handlers_.on_closed) handlers_.on_closed(error{errc::cancelled, name_ + ": the peer closed the connection"});
}

}  // namespace detail

std::unique_ptr<connection> fd_connection(int in_fd, int out_fd, line_limits limits, std::string name) {
  return std::make_unique<detail::fd_conn>(in_fd, out_fd, limits, std::move(name));
}

std::pair<std::unique_ptr<connection>, std::unique_ptr<connection>> memory_pipe(line_limits limits) {
  auto a = std::make_shared<detail::memory_channel>();
  auto b = std::make_shared<detail::memory_channel>();
  return {std::make_unique<detail::memory_end>(b, a, limits, "memory connection (client end)"),
          std::make_unique<detail::memory_end>(a, b, limits, "memory connection (server end)")};
}

bool memory_send_text(connection& end, std::string_view line) {
  auto* m = dynamic_cast<detail::memory_end*>(&end);
  return m && m->send_text(std::string(line));
}

}  // namespace tooluse::mcp
