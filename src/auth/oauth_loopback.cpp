// loopback_receiver (the redirect target of a CLI login) and the token-command authorizer.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>

#include "tooluse/auth/oauth.hpp"

namespace tooluse::auth {

result<std::unique_ptr<loopback_receiver>> loopback_receiver::open(unsigned short port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail(errc::io_error, "cannot create a socket for the login redirect");
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 8) != 0) {
    ::close(fd);
    return fail(errc::io_error, "cannot listen on 127.0.0.1:" + std::to_string(port) +
                                    " for the login redirect; pick another --port");
  }
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  return std::unique_ptr<loopback_receiver>(new loopback_receiver(fd, ntohs(addr.sin_port)));
}

loopback_receiver::~loopback_receiver() {
  if (fd_ >= 0) ::close(fd_);
}

std::string loopback_receiver::redirect_uri() const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/callback";
}

result<std::string> loopback_receiver::wait(std::chrono::seconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      return fail(errc::timeout, "no login redirect arrived at " + redirect_uri() + " in " +
                                     std::to_string(timeout.count()) + " s");
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) continue;
    std::string req;
    char buf[4096];
    while (req.find("\r\n\r\n") == std::string::npos && req.size() < 65536) {
      pollfd q{c, POLLIN, 0};
      if (::poll(&q, 1, 5000) <= 0) break;
      auto n = ::read(c, buf, sizeof buf);
      if (n <= 0) break;
      req.append(buf, static_cast<std::size_t>(n));
    }
    auto sp1 = req.find(' ');
    auto sp2 = sp1 == std::string::npos ? sp1 : req.find(' ', sp1 + 1);
    std::string target = sp2 == std::string::npos ? "" : req.substr(sp1 + 1, sp2 - sp1 - 1);
    bool callback = req.starts_with("GET ") && target.starts_with("/callback");
    std::string body = callback ? "<!doctype html><title>tooluse</title><p>Signed in. You can "
                                  "close this window and return to the terminal.</p>\n"
                                : "not found\n";
    std::string resp = std::string(callback ? "HTTP/1.1 200 OK" : "HTTP/1.1 404 Not Found") +
                       "\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " +
                       std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    (void)!::write(c, resp.data(), resp.size());
    ::close(c);
    if (callback) return "http://127.0.0.1:" + std::to_string(port_) + target;
  }
}

namespace {

class command_authorizer final : public http_authorizer {
 public:
  explicit command_authorizer(std::string command) : command_(std::move(command)) {}

  result<header_list> headers_for(std::string_view, std::string_view) override {
    std::lock_guard lock(mu_);
    if (token_.empty())
      if (auto s = run(); !s) return fail(s.error());
    return header_list{{"Authorization", "Bearer " + token_}};
  }
  result<bool> on_challenge(int status, const std::vector<http::header>&, const header_list& sent,
                            std::string_view, std::string_view) override {
    if (status != 401) return false;
    std::lock_guard lock(mu_);
    if (http::find_header(sent, "authorization").value_or("") != "Bearer " + token_) return true;
    if (ran_again_) return false;  // a fresh token was refused too
    ran_again_ = true;
    if (auto s = run(); !s) return fail(s.error());
    return true;
  }

 private:
  status run() {
    FILE* p = ::popen(command_.c_str(), "r");
    if (!p) return fail(errc::io_error, "cannot run the token command");
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    int rc = ::pclose(p);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == ' '))
      out.pop_back();
    int exit_status = rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : rc;
    if (rc != 0 || out.empty())
      return fail(errc::io_error, "the token command failed (exit status " +
                                      std::to_string(exit_status) +
                                      ") or printed nothing; run it by hand to see why");
    // A line break inside would split the Authorization header (header injection).
    for (char c : out)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        return fail(errc::io_error,
                    "the token command printed more than one line or a control character; it "
                    "must print the token alone");
    token_ = out;
    return {};
  }

  std::string command_;
  std::mutex mu_;
  std::string token_;
  bool ran_again_ = false;
};

}  // namespace

std::shared_ptr<http_authorizer> make_token_command_authorizer(std::string command) {
  return std::make_shared<command_authorizer>(std::move(command));
}

}  // namespace tooluse::auth
