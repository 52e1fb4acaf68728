#pragma once
// A minimal HTTP/1.1 peer over real loopback sockets for the MCP HTTP server tests: it sends
// exactly the bytes a test asks for (so headers can be wrong on purpose) and reads the reply.
// Every read has a 10 s socket timeout, so a broken server fails the test instead of hanging.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tooluse/json.hpp"

namespace tooluse::mcp::test {

struct http_reply {
  int status = 0;
  std::map<std::string, std::string> headers;  ///< names lowercased
  std::string body;                            ///< de-chunked
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
  /// json_body parses the body, or the data of the last SSE event carrying a JSON-RPC response.
  json rpc() const {
    if (header("content-type").find("text/event-stream") == std::string::npos)
      return json::parse(body, nullptr, false);
    json last;
    std::size_t pos = 0;
    while ((pos = body.find("data: ", pos)) != std::string::npos) {
      auto end = body.find('\n', pos);
      json j = json::parse(body.substr(pos + 6, end - pos - 6), nullptr, false);
      if (j.is_object() && (j.contains("result") || j.contains("error"))) last = j;
      pos = end;
    }
    return last;
  }
};

/// raw_conn is one TCP connection to 127.0.0.1:port.
class raw_conn {
 public:
  explicit raw_conn(unsigned short port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      ::close(fd_);
      fd_ = -1;
      return;
    }
    timeval tv{10, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  ~raw_conn() {
    if (fd_ >= 0) ::close(fd_);
  }
  raw_conn(const raw_conn&) = delete;
  raw_conn& operator=(const raw_conn&) = delete;
  bool ok() const { return fd_ >= 0; }

  bool send_all(const std::string& data) {
    std::size_t off = 0;
    while (off < data.size()) {
      ssize_t n = ::send(fd_, data.data() + off, data.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return false;
      off += static_cast<std::size_t>(n);
    }
    return true;
  }
  /// read_until reads until `needle` is in what was received (or EOF / timeout); returns all.
  const std::string& read_until(const std::string& needle) {
    while (in_.find(needle) == std::string::npos) {
      char buf[8192];
      ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      in_.append(buf, static_cast<std::size_t>(n));
    }
    return in_;
  }
  /// read_all reads until the peer closes (or the timeout).
  const std::string& read_all() { return read_until(std::string("\0\0never\0", 8)); }
  const std::string& received() const { return in_; }

 private:
  int fd_ = -1;
  std::string in_;
};

/// parse_reply parses a complete HTTP response (chunked bodies de-chunked).
inline http_reply parse_reply(const std::string& raw) {
  http_reply r;
  auto head_end = raw.find("\r\n\r\n");
  if (raw.rfind("HTTP/1.1 ", 0) != 0 || head_end == std::string::npos) return r;
  r.status = std::stoi(raw.substr(9, 3));
  std::size_t pos = raw.find("\r\n") + 2;
  while (pos < head_end) {
    auto eol = raw.find("\r\n", pos);
    std::string line = raw.substr(pos, eol - pos);
    auto colon = line.find(':');
    if (colon != std::string::npos) {
      std::string name = line.substr(0, colon);
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      r.headers[name] = value;
    }
    pos = eol + 2;
  }
  std::string body = raw.substr(head_end + 4);
  if (r.header("transfer-encoding").find("chunked") != std::string::npos) {
    std::string out;
    std::size_t p = 0;
    while (p < body.size()) {
      auto eol = body.find("\r\n", p);
      if (eol == std::string::npos) break;
      std::size_t n = std::stoul(body.substr(p, eol - p), nullptr, 16);
      if (n == 0) break;
      out += body.substr(eol + 2, n);
      p = eol + 2 + n + 2;
    }
    body = out;
  }
  r.body = body;
  return r;
}

using header_fields = std::vector<std::pair<std::string, std::string>>;

/// request_text builds one HTTP/1.1 request with Connection: close.
inline std::string request_text(const std::string& method, const std::string& target, const header_fields& headers,
                                const std::string& body, unsigned short port) {
  std::string s = method + " " + target + " HTTP/1.1\r\n";
  bool has_host = false;
  for (const auto& [k, v] : headers) has_host = has_host || k == "Host";
  if (!has_host) s += "Host: 127.0.0.1:" + std::to_string(port) + "\r\n";
  for (const auto& [k, v] : headers) s += k + ": " + v + "\r\n";
  s += "Connection: close\r\n";
  if (!body.empty() || method == "POST") s += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  s += "\r\n" + body;
  return s;
}

/// exchange sends one request on a new connection and reads the whole reply.
inline http_reply exchange(unsigned short port, const std::string& method, const header_fields& headers,
                           const std::string& body = "", const std::string& target = "/mcp") {
  raw_conn c(port);
  if (!c.ok() || !c.send_all(request_text(method, target, headers, body, port))) return {};
  return parse_reply(c.read_all());
}

/// json_post are the headers of a well-formed POST.
inline header_fields json_post(header_fields extra = {}) {
  header_fields h = {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
  for (auto& e : extra) h.push_back(std::move(e));
  return h;
}

}  // namespace tooluse::mcp::test
