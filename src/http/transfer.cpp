// One request's libcurl easy handle: its callbacks, the size limits checked as bytes arrive,
// the deadlines the pool checks on its timer, and the error each failure becomes. Every
// callback here runs on the pool's thread.
#include "transfer.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <boost/url.hpp>

#include <algorithm>
#include <cctype>

namespace tooluse::http::detail {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' ||
                        s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

std::string ms_text(std::chrono::milliseconds d) { return std::to_string(d.count()) + " ms"; }

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<transfer*>(user);
  std::string_view line(data, size * count);
  t->touch();
  t->header_bytes += line.size();
  if (t->header_bytes > t->req.max_header_bytes) {
    t->failure = limit_error("the response headers from " + t->host,
                             "http::request::max_header_bytes", t->req.max_header_bytes, "bytes");
    return 0;
  }
  if (line.rfind("HTTP/", 0) == 0) {
    t->res.headers.clear();  // a new response (after 100-continue or a redirect)
    return size * count;
  }
  auto colon = line.find(':');
  if (colon != std::string_view::npos)
    t->res.headers.push_back(
        {std::string(trim(line.substr(0, colon))), std::string(trim(line.substr(colon + 1)))});
  return size * count;
}

size_t on_write(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<transfer*>(user);
  t->report_headers();
  std::string_view chunk(data, size * count);
  t->touch();
  if (t->req.max_response_bytes > 0 && t->body_bytes + chunk.size() > t->req.max_response_bytes) {
    t->failure = limit_error("the response body from " + t->host,
                             "http::request::max_response_bytes", t->req.max_response_bytes,
                             "bytes");
    return CURL_WRITEFUNC_ERROR;
  }
  if (t->out.on_body) {
    switch (t->out.on_body(chunk)) {
      case body_verdict::keep:
        break;
      case body_verdict::pause:  // libcurl keeps the chunk and delivers it again on resume
        t->paused = true;
        return CURL_WRITEFUNC_PAUSE;
      case body_verdict::abort:
        t->aborted_by_callback = true;
        return CURL_WRITEFUNC_ERROR;
    }
  } else {
    t->res.body.append(chunk);
  }
  t->body_bytes += chunk.size();
  return size * count;
}

// Sending the request body is progress too: a large upload is not an idle peer.
int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t ulnow) {
  auto* t = static_cast<transfer*>(user);
  if (ulnow != t->last_uploaded) {
    t->last_uploaded = ulnow;
    t->last_byte = clock::now();
  }
  return 0;
}

// Opens the socket libcurl asks for, unless request::allow_address refuses its address.
curl_socket_t on_open_socket(void* user, curlsocktype purpose, curl_sockaddr* addr) {
  auto* t = static_cast<transfer*>(user);
  if (purpose == CURLSOCKTYPE_IPCXN && t->req.allow_address) {
    char buf[INET6_ADDRSTRLEN] = {0};
    const void* ip = nullptr;
    if (addr->family == AF_INET)
      ip = &reinterpret_cast<const sockaddr_in*>(&addr->addr)->sin_addr;
    else if (addr->family == AF_INET6)
      ip = &reinterpret_cast<const sockaddr_in6*>(&addr->addr)->sin6_addr;
    if (ip == nullptr || ::inet_ntop(addr->family, ip, buf, sizeof buf) == nullptr ||
        !t->req.allow_address(buf)) {
      t->refused_address = buf[0] ? buf : "a non-IP address";
      return CURL_SOCKET_BAD;
    }
  }
  curl_socket_t fd = ::socket(addr->family, addr->socktype | SOCK_CLOEXEC, addr->protocol);
  if (fd != CURL_SOCKET_BAD && purpose == CURLSOCKTYPE_IPCXN && t->opened)
    t->opened(t->opened_context, fd);
  return fd;
}

}  // namespace

std::string host_of(const std::string& url) {
  auto u = boost::urls::parse_uri(url);
  if (!u) return url.substr(0, 200);
  return std::string(u->encoded_host_and_port());
}

std::string host_key_of(const std::string& url) {
  auto u = boost::urls::parse_uri(url);
  if (!u) return url.substr(0, 200);
  std::string scheme(u->scheme());
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string port(u->port());
  if (port.empty()) port = scheme == "https" ? "443" : "80";
  return scheme + "://" + std::string(u->encoded_host()) + ":" + port;
}

status check_url(const std::string& url) {
  // Only absolute http(s) URLs: libcurl would also read file:// URLs, speak other protocols,
  // or guess a scheme for a URL without one.
  const auto scheme_end = url.find("://");
  const std::string_view scheme = std::string_view(url).substr(0, scheme_end);
  if (scheme_end == std::string::npos || !(iequals(scheme, "http") || iequals(scheme, "https")))
    return fail(errc::invalid_argument, "invalid url \"" + url.substr(0, 200) +
                                            "\": only absolute http:// and https:// URLs are "
                                            "supported");
  return {};
}

void transfer::touch() {
  got_byte = true;
  last_byte = clock::now();
}

void transfer::report_headers() {
  if (headers_reported) return;
  headers_reported = true;
  long status = 0;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  res.status = static_cast<int>(status);
  if (out.on_headers) out.on_headers(res.status, res.headers);
}

void transfer::configure(CURL* handle) {
  easy = handle;
  // "Name;" is libcurl's spelling of a header with an empty value ("Name:" would remove it).
  for (const auto& h : req.headers)
    header_list = curl_slist_append(
        header_list, (h.value.empty() ? h.name + ";" : h.name + ": " + h.value).c_str());
  if (!find_header(req.headers, "Expect")) header_list = curl_slist_append(header_list, "Expect:");
  curl_easy_setopt(easy, CURLOPT_URL, req.url.c_str());
  curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, req.method.c_str());
  if (!req.body.empty() || req.method == "POST" || req.method == "PUT") {
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, req.body.data());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
  }
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, header_list);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");  // gzip etc., decoded by libcurl
  // Proxies as the official SDKs honour them: http_proxy, https_proxy, all_proxy and no_proxy
  // from the environment. libcurl reads them when CURLOPT_PROXY is not set; say so explicitly.
  curl_easy_setopt(easy, CURLOPT_PROXY, nullptr);
  // Over TLS, wait for an HTTP/2 connection being set up rather than open another one beside
  // it. Not for cleartext http://, which stays HTTP/1.1: there a waiting request would queue
  // behind the one in flight, and behind each new connection of a server that closes them
  // (`Connection: close`), which made concurrent requests to such a server run one at a time.
  curl_easy_setopt(easy, CURLOPT_PIPEWAIT, req.url.rfind("https://", 0) == 0 ? 1L : 0L);
  curl_easy_setopt(easy, CURLOPT_PRIVATE, this);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &on_header);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, this);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &on_write);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, this);
  curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, &on_progress);
  curl_easy_setopt(easy, CURLOPT_XFERINFODATA, this);
  curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, &on_open_socket);
  curl_easy_setopt(easy, CURLOPT_OPENSOCKETDATA, this);
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(req.connect_timeout.count()));
  // The pool's timer enforces total_timeout and names it; libcurl's own timer is a backstop.
  if (req.total_timeout.count() > 0)
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(req.total_timeout.count() + 5000));
  if (req.max_response_bytes > 0)  // refuses early when the peer declares a larger body
    curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE,
                     static_cast<curl_off_t>(req.max_response_bytes));
}

void transfer::release() {
  curl_slist_free_all(header_list);
  header_list = nullptr;
}

clock::time_point transfer::next_deadline() const {
  auto at = clock::time_point::max();
  auto consider = [&](std::chrono::milliseconds limit, clock::time_point since) {
    if (limit.count() > 0) at = std::min(at, since + limit);
  };
  consider(req.total_timeout, submitted);
  if (started && !got_byte) consider(req.first_byte_timeout, began);
  if (started && !paused) consider(req.read_timeout, std::max(last_byte, began));
  return at;
}

bool transfer::check_deadlines(clock::time_point now) {
  auto over = [&](std::chrono::milliseconds limit, clock::time_point since) {
    return limit.count() > 0 && now - since >= limit;
  };
  if (over(req.total_timeout, submitted)) {
    std::string queued;
    if (!started)
      queued = " (all of it waiting for a free connection: raise "
               "http::pool_options::max_requests_per_host)";
    failure = tooluse::error{errc::timeout, "http request to " + host + " took longer than " +
                                                "http::request::total_timeout = " +
                                                ms_text(req.total_timeout) + queued +
                                                "; raise total_timeout if the peer is slow "
                                                "but trusted"};
  } else if (started && !got_byte && over(req.first_byte_timeout, began)) {
    failure = tooluse::error{errc::timeout, "http request to " + host +
                                                ": no response within "
                                                "http::request::first_byte_timeout = " +
                                                ms_text(req.first_byte_timeout)};
  } else if (started && !paused && over(req.read_timeout, std::max(last_byte, began))) {
    failure = tooluse::error{errc::timeout, "http request to " + host + " was idle longer than " +
                                                "http::request::read_timeout = " +
                                                ms_text(req.read_timeout) + " (no byte received)"};
  }
  return failure.has_value();
}

tooluse::error transfer::cancelled_error() const {
  return {errc::cancelled, "http request to " + host + " was cancelled"};
}

result<response> transfer::outcome(CURLcode code) {
  if (code == CURLE_OK) {
    report_headers();
    return std::move(res);
  }
  std::string what = errbuf[0] ? errbuf : curl_easy_strerror(code);
  if (failure) return fail(*failure);
  if (aborted_by_callback) return fail(errc::cancelled, "http request to " + host + " was aborted");
  if (!refused_address.empty())
    return fail(errc::permission_denied, "http request to " + host + " refused: it connects to " +
                                             refused_address +
                                             ", an address this request may not reach");
  switch (code) {
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
      return fail(errc::invalid_argument, "invalid url \"" + req.url + "\": " + what);
    case CURLE_FILESIZE_EXCEEDED:
      return fail(limit_error("the response body from " + host,
                              "http::request::max_response_bytes", req.max_response_bytes,
                              "bytes"));
    case CURLE_OPERATION_TIMEDOUT:
      if (!got_byte && last_uploaded == 0 && clock::now() - began >= req.connect_timeout)
        return fail(errc::timeout, "http request to " + host +
                                       " could not connect within "
                                       "http::request::connect_timeout = " +
                                       ms_text(req.connect_timeout) + ": " + what);
      return fail(errc::timeout, "http request to " + host + " timed out: " + what);
    default:
      return fail(errc::network_error, "http request to " + host + " failed: " + what);
  }
}

}  // namespace tooluse::http::detail
