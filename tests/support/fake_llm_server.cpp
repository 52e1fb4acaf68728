// The socket side of fake_llm_server; the wire-format builders are in fake_llm_wire.cpp.
#include "fake_llm_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>

namespace tooluse::testing {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// read_request reads one HTTP/1.1 request with a Content-Length body (all libcurl sends here).
bool read_request(int fd, recorded_request& req) {
  std::string buf;
  char tmp[16384];
  size_t header_end = std::string::npos;
  while ((header_end = buf.find("\r\n\r\n")) == std::string::npos) {
    ssize_t n = ::recv(fd, tmp, sizeof tmp, 0);
    if (n <= 0) return false;
    buf.append(tmp, static_cast<size_t>(n));
  }
  std::string_view head(buf.data(), header_end);
  auto line_end = head.find("\r\n");
  std::string_view first = head.substr(0, line_end);
  auto sp1 = first.find(' ');
  auto sp2 = first.find(' ', sp1 + 1);
  req.method = std::string(first.substr(0, sp1));
  req.target = std::string(first.substr(sp1 + 1, sp2 - sp1 - 1));
  size_t content_length = 0;
  size_t pos = line_end == std::string_view::npos ? head.size() : line_end + 2;
  while (pos < head.size()) {
    auto end = head.find("\r\n", pos);
    if (end == std::string_view::npos) end = head.size();
    std::string_view line = head.substr(pos, end - pos);
    auto colon = line.find(':');
    if (colon != std::string_view::npos) {
      std::string name(line.substr(0, colon));
      std::string_view value = line.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      if (iequals(name, "content-length")) content_length = std::stoul(std::string(value));
      req.headers.emplace_back(std::move(name), std::string(value));
    }
    pos = end + 2;
  }
  req.body = buf.substr(header_end + 4);
  while (req.body.size() < content_length) {
    ssize_t n = ::recv(fd, tmp, sizeof tmp, 0);
    if (n <= 0) return false;
    req.body.append(tmp, static_cast<size_t>(n));
  }
  return true;
}

std::string status_text(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

void write_response(int fd, const scripted_response& r, bool keep_alive) {
  std::string head = "HTTP/1.1 " + std::to_string(r.status) + " " + status_text(r.status) + "\r\n";
  bool has_type = false;
  for (const auto& [n, v] : r.headers) {
    head += n + ": " + v + "\r\n";
    has_type = has_type || iequals(n, "content-type");
  }
  bool chunked = !r.chunks.empty();
  if (!has_type)
    head += chunked ? "Content-Type: text/event-stream\r\n" : "Content-Type: application/json\r\n";
  // A response cut mid-stream closes its connection whatever the mode.
  head += keep_alive && r.cut_after < 0 ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
  if (!chunked) {
    head += "Content-Length: " + std::to_string(r.body.size()) + "\r\n\r\n";
    write_all(fd, head + r.body);
    return;
  }
  head += "Transfer-Encoding: chunked\r\n\r\n";
  if (!write_all(fd, head)) return;
  for (size_t i = 0; i < r.chunks.size(); ++i) {
    if (r.cut_after >= 0 && static_cast<int>(i) == r.cut_after) return;  // cut mid-stream
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", r.chunks[i].size());
    if (!write_all(fd, std::string(size) + r.chunks[i] + "\r\n")) return;
  }
  if (r.cut_after >= 0 && static_cast<size_t>(r.cut_after) >= r.chunks.size()) return;
  write_all(fd, "0\r\n\r\n");
}

}  // namespace

std::string recorded_request::header(std::string_view name) const {
  for (const auto& [n, v] : headers)
    if (iequals(n, name)) return v;
  return "";
}

json recorded_request::json_body() const {
  auto j = parse_json(body);
  return j ? *j : json();
}

fake_llm_server::fake_llm_server() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, 1024) != 0)
    throw std::runtime_error(std::string("fake_llm_server: bind/listen: ") + std::strerror(errno));
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { accept_loop(); });
}

fake_llm_server::~fake_llm_server() {
  ::shutdown(listen_fd_, SHUT_RDWR);
  ::close(listen_fd_);
  if (acceptor_.joinable()) acceptor_.join();
  std::unique_lock lock(mu_);
  for (int fd : open_fds_) ::shutdown(fd, SHUT_RDWR);
  idle_.wait(lock, [this] { return active_ == 0; });
}

std::string fake_llm_server::url(std::string_view path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + std::string(path);
}

void fake_llm_server::push(scripted_response response) {
  std::lock_guard lock(mu_);
  script_.push_back(std::move(response));
}

void fake_llm_server::set_responder(
    std::function<scripted_response(const recorded_request&)> responder) {
  std::lock_guard lock(mu_);
  responder_ = std::move(responder);
}

std::vector<recorded_request> fake_llm_server::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

void fake_llm_server::record_requests(bool on) {
  std::lock_guard lock(mu_);
  recording_ = on;
}

void fake_llm_server::accept_loop() {
  for (;;) {
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return;  // the listening socket was shut down
    }
    {
      std::lock_guard lock(mu_);
      ++active_;
      ++accepted_;
      open_fds_.push_back(fd);
    }
    std::thread([this, fd] {
      serve(fd);
      std::lock_guard lock(mu_);
      open_fds_.erase(std::find(open_fds_.begin(), open_fds_.end(), fd));
      ::close(fd);
      if (--active_ == 0) idle_.notify_all();
    }).detach();
  }
}

void fake_llm_server::keep_alive(bool on) {
  std::lock_guard lock(mu_);
  keep_alive_ = on;
}

int fake_llm_server::connections() const {
  std::lock_guard lock(mu_);
  return accepted_;
}

void fake_llm_server::check_requests(wire_format format) {
  std::lock_guard lock(mu_);
  check_ = format;
}

std::vector<std::string> fake_llm_server::failures() const {
  std::lock_guard lock(mu_);
  return failures_;
}

scripted_response fake_llm_server::next(const recorded_request& req) {
  std::function<scripted_response(const recorded_request&)> responder;
  {
    std::lock_guard lock(mu_);
    if (recording_) requests_.push_back(req);
    if (check_) {
      std::string problem = check_request(*check_, req, outputs_);
      if (!problem.empty()) {
        failures_.push_back(problem);
        return error_response(400, "fake_llm_server (strict): " + problem);
      }
    }
    if (!responder_) {
      if (script_.empty()) return error_response(500, "fake_llm_server: no scripted response left");
      auto r = std::move(script_.front());
      script_.pop_front();
      if (r.status == 200 && !r.turn_output.is_null()) outputs_.push_back(r.turn_output);
      return r;
    }
    responder = responder_;
  }
  auto r = responder(req);
  std::lock_guard lock(mu_);
  if (r.status == 200 && !r.turn_output.is_null()) outputs_.push_back(r.turn_output);
  return r;
}

void fake_llm_server::serve(int fd) {
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  for (;;) {
    recorded_request req;
    if (!read_request(fd, req)) return;
    scripted_response r = next(req);
    bool keep;
    {
      std::lock_guard lock(mu_);
      keep = keep_alive_ && r.cut_after < 0;
    }
    if (r.delay.count() > 0) std::this_thread::sleep_for(r.delay);  // simulated model latency
    write_response(fd, r, keep);
    if (!keep) break;
  }
  ::shutdown(fd, SHUT_WR);
}

}  // namespace tooluse::testing
