// http::send over libcurl's easy interface: one easy handle per call, so calls on different
// threads share nothing. The deadlines (first byte, idle, total) and cancellation are checked
// in the progress callback, which libcurl calls at least about once a second even when idle,
// so each failure can name the option that fired; size limits are checked as bytes arrive.
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <boost/url.hpp>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <optional>

#include "tooluse/http/client.hpp"

namespace tooluse::http {
namespace {

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

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

struct transfer {
  const send_options* options = nullptr;
  const request* req = nullptr;
  std::string refused_address;  ///< set when allow_address refused a connection
  response res;
  bool headers_reported = false;
  bool aborted_by_callback = false;
  long status = 0;
  CURL* easy = nullptr;
  using clock = std::chrono::steady_clock;
  clock::time_point started = clock::now();
  clock::time_point last_byte = started;
  bool got_byte = false;
  curl_off_t last_uploaded = 0;
  std::size_t header_bytes = 0;
  std::size_t body_bytes = 0;
  std::optional<tooluse::error> failure;  ///< a limit or deadline this side enforced

  void touch() {
    got_byte = true;
    last_byte = clock::now();
  }

  void report_headers() {
    if (headers_reported) return;
    headers_reported = true;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    res.status = static_cast<int>(status);
    if (options->on_headers) options->on_headers(res.status, res.headers);
  }
};

std::string host_of(const std::string& url);

std::string ms_text(std::chrono::milliseconds d) { return std::to_string(d.count()) + " ms"; }

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<transfer*>(user);
  std::string_view line(data, size * count);
  t->touch();
  t->header_bytes += line.size();
  if (t->header_bytes > t->req->max_header_bytes) {
    t->failure = limit_error("the response headers from " + host_of(t->req->url),
                             "http::request::max_header_bytes", t->req->max_header_bytes, "bytes");
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
  t->body_bytes += chunk.size();
  if (t->req->max_response_bytes > 0 && t->body_bytes > t->req->max_response_bytes) {
    t->failure = limit_error("the response body from " + host_of(t->req->url),
                             "http::request::max_response_bytes", t->req->max_response_bytes,
                             "bytes");
    return CURL_WRITEFUNC_ERROR;
  }
  if (t->options->on_body) {
    if (!t->options->on_body(chunk)) {
      t->aborted_by_callback = true;
      return CURL_WRITEFUNC_ERROR;
    }
  } else {
    t->res.body.append(chunk);
  }
  return size * count;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t ulnow) {
  auto* t = static_cast<transfer*>(user);
  if (t->options->stop.stop_requested()) return 1;
  const auto now = transfer::clock::now();
  if (ulnow != t->last_uploaded) {  // sending the request body is progress too
    t->last_uploaded = ulnow;
    t->last_byte = now;
  }
  const request& r = *t->req;
  const std::string host = host_of(r.url);
  auto over = [&](std::chrono::milliseconds limit, transfer::clock::time_point since) {
    return limit.count() > 0 && now - since > limit;
  };
  if (over(r.total_timeout, t->started))
    t->failure = tooluse::error{errc::timeout, "http request to " + host + " took longer than " +
                                                   "http::request::total_timeout = " +
                                                   ms_text(r.total_timeout) +
                                                   "; raise total_timeout if the peer is slow "
                                                   "but trusted"};
  else if (!t->got_byte && over(r.first_byte_timeout, t->started))
    t->failure = tooluse::error{errc::timeout, "http request to " + host +
                                                   ": no response within "
                                                   "http::request::first_byte_timeout = " +
                                                   ms_text(r.first_byte_timeout)};
  else if (over(r.read_timeout, t->last_byte))
    t->failure = tooluse::error{errc::timeout, "http request to " + host + " was idle longer than " +
                                                   "http::request::read_timeout = " +
                                                   ms_text(r.read_timeout) +
                                                   " (no byte received)"};
  return t->failure ? 1 : 0;
}

// Opens the socket libcurl asks for, unless request::allow_address refuses its address.
curl_socket_t on_open_socket(void* user, curlsocktype purpose, curl_sockaddr* addr) {
  auto* t = static_cast<transfer*>(user);
  if (purpose == CURLSOCKTYPE_IPCXN && t->req->allow_address) {
    char buf[INET6_ADDRSTRLEN] = {0};
    const void* ip = nullptr;
    if (addr->family == AF_INET)
      ip = &reinterpret_cast<const sockaddr_in*>(&addr->addr)->sin_addr;
    else if (addr->family == AF_INET6)
      ip = &reinterpret_cast<const sockaddr_in6*>(&addr->addr)->sin6_addr;
    if (ip == nullptr || ::inet_ntop(addr->family, ip, buf, sizeof buf) == nullptr ||
        !t->req->allow_address(buf)) {
      t->refused_address = buf[0] ? buf : "a non-IP address";
      return CURL_SOCKET_BAD;
    }
  }
  return ::socket(addr->family, addr->socktype, addr->protocol);
}

// host_of names the server in error messages: host and port, never user info or path.
std::string host_of(const std::string& url) {
  auto u = boost::urls::parse_uri(url);
  if (!u) return url.substr(0, 200);
  return std::string(u->encoded_host_and_port());
}

tooluse::error map_error(CURLcode code, const transfer& t, const request& req,
                         const char* detail) {
  std::string what = detail[0] ? detail : curl_easy_strerror(code);
  std::string host = host_of(req.url);
  if (t.failure) return *t.failure;
  if (t.options->stop.stop_requested() || code == CURLE_ABORTED_BY_CALLBACK)
    return {errc::cancelled, "http request to " + host + " was cancelled"};
  if (t.aborted_by_callback) return {errc::cancelled, "http request to " + host + " was aborted"};
  if (!t.refused_address.empty())
    return {errc::permission_denied, "http request to " + host + " refused: it connects to " +
                                         t.refused_address + ", an address this request may not reach"};
  switch (code) {
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
      return {errc::invalid_argument, "invalid url \"" + req.url + "\": " + what};
    case CURLE_FILESIZE_EXCEEDED:
      return limit_error("the response body from " + host, "http::request::max_response_bytes",
                         req.max_response_bytes, "bytes");
    case CURLE_OPERATION_TIMEDOUT:
      if (!t.got_byte && t.last_uploaded == 0 &&
          transfer::clock::now() - t.started >= req.connect_timeout)
        return {errc::timeout, "http request to " + host + " could not connect within "
                               "http::request::connect_timeout = " + ms_text(req.connect_timeout) +
                               ": " + what};
      return {errc::timeout, "http request to " + host + " timed out: " + what};
    default:
      return {errc::network_error, "http request to " + host + " failed: " + what};
  }
}

void set_timeouts(CURL* easy, const request& req) {
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(req.connect_timeout.count()));
  // on_progress enforces total_timeout and names it; libcurl's own timer is a backstop.
  if (req.total_timeout.count() > 0)
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(req.total_timeout.count() + 5000));
  if (req.max_response_bytes > 0)  // refuses early when the peer declares a larger body
    curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE,
                     static_cast<curl_off_t>(req.max_response_bytes));
}

}  // namespace

std::optional<std::string> find_header(const std::vector<header>& headers,
                                       std::string_view name) {
  for (const auto& h : headers)
    if (iequals(h.name, name)) return h.value;
  return std::nullopt;
}

result<response> send(const request& req, const send_options& options) {
  global_init();
  // Only absolute http(s) URLs: libcurl would also read file:// URLs, speak other protocols,
  // or guess a scheme for a URL without one.
  const auto scheme_end = req.url.find("://");
  const std::string_view scheme = std::string_view(req.url).substr(0, scheme_end);
  if (scheme_end == std::string::npos || !(iequals(scheme, "http") || iequals(scheme, "https")))
    return fail(errc::invalid_argument,
                "invalid url \"" + req.url.substr(0, 200) +
                    "\": only absolute http:// and https:// URLs are supported");
  if (options.stop.stop_requested())
    return fail(errc::cancelled, "http request to " + host_of(req.url) + " was cancelled");
  CURL* easy = curl_easy_init();
  if (!easy) return fail(errc::internal, "curl_easy_init failed");
  transfer t{.options = &options, .req = &req, .easy = easy};
  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_slist* list = nullptr;
  // "Name;" is libcurl's spelling of a header with an empty value ("Name:" would remove it).
  for (const auto& h : req.headers)
    list = curl_slist_append(list, (h.value.empty() ? h.name + ";" : h.name + ": " + h.value).c_str());
  if (!find_header(req.headers, "Expect")) list = curl_slist_append(list, "Expect:");

  curl_easy_setopt(easy, CURLOPT_URL, req.url.c_str());
  curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, req.method.c_str());
  if (!req.body.empty() || req.method == "POST" || req.method == "PUT") {
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, req.body.data());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
  }
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");  // gzip etc., decoded by libcurl
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &on_header);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &on_write);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, &on_progress);
  curl_easy_setopt(easy, CURLOPT_XFERINFODATA, &t);
  if (req.allow_address) {
    curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, &on_open_socket);
    curl_easy_setopt(easy, CURLOPT_OPENSOCKETDATA, &t);
  }
  set_timeouts(easy, req);

  CURLcode code = curl_easy_perform(easy);
  result<response> out = fail(errc::internal, "unreachable");
  if (code == CURLE_OK) {
    t.report_headers();
    out = std::move(t.res);
  } else {
    out = fail(map_error(code, t, req, errbuf));
  }
  curl_slist_free_all(list);
  curl_easy_cleanup(easy);
  return out;
}

transport default_transport() {
  return [](const request& req, const send_options& options) { return send(req, options); };
}

}  // namespace tooluse::http
