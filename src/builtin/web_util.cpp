// URL handling, the SSRF address policy and JSON requests for the network tools.
#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <boost/url.hpp>

#include "builtin/web_impl.hpp"

namespace tooluse::builtin::detail {

namespace urls = boost::urls;

result<url_parts> parse_url(std::string_view url) {
  auto bad = [&](std::string why) {
    return fail(errc::invalid_argument, "URL \"" + std::string(url.substr(0, 200)) + "\" " + why);
  };
  auto parsed = urls::parse_uri(url);
  if (!parsed) {
    if (url.find("://") == std::string_view::npos) return bad("is not absolute; use http:// or https://");
    return bad("is not a valid URL (" + parsed.error().message() + ")");
  }
  const urls::url_view& v = *parsed;
  url_parts u;
  u.scheme = v.scheme();
  std::transform(u.scheme.begin(), u.scheme.end(), u.scheme.begin(), ::tolower);
  if (u.scheme != "http" && u.scheme != "https") return bad("uses scheme \"" + u.scheme + "\"; only http and https are allowed");
  switch (v.host_type()) {
    case urls::host_type::ipv6: u.host = v.host_ipv6_address().to_string(); break;
    case urls::host_type::ipv4: u.host = v.host_ipv4_address().to_string(); break;
    case urls::host_type::name: u.host = v.host_name(); break;
    default: return bad("has no host, or one that is not a name or an IP address");
  }
  u.port = u.scheme == "https" ? 443 : 80;
  if (v.has_port() && !v.port().empty()) {
    // The grammar allows any run of digits; port_number() does not say when they overflow.
    auto digits = v.port();
    if (digits.size() > 5 || std::stoi(std::string(digits)) == 0 || std::stoi(std::string(digits)) > 65535)
      return bad("has an invalid port");
    u.port = std::stoi(std::string(digits));
  }
  u.target = v.encoded_target();
  if (u.target.empty() || u.target[0] != '/') u.target = "/" + u.target;
  std::transform(u.host.begin(), u.host.end(), u.host.begin(), ::tolower);
  while (!u.host.empty() && u.host.back() == '.') u.host.pop_back();  // "localhost." == "localhost"
  if (u.host.empty()) return bad("has no host");
  return u;
}

std::string resolve_reference(const url_parts& base, std::string_view location) {
  auto ref = urls::parse_uri_reference(location);
  if (!ref) return std::string(location);  // parse_url then says what is wrong with it
  std::string host = base.host.find(':') != std::string::npos ? "[" + base.host + "]" : base.host;
  std::string base_text = base.scheme + "://" + host + ":" + std::to_string(base.port) + base.target;
  auto base_url = urls::parse_uri(base_text);  // a view into base_text
  if (!base_url) return std::string(location);
  urls::url out;
  if (!urls::resolve(*base_url, *ref, out)) return std::string(location);
  return std::string(out.buffer());
}

std::string url_encode(std::string_view s) { return urls::encode(s, urls::unreserved_chars); }

namespace {
bool public_v4(std::uint32_t a) {  // host byte order
  auto in = [&](std::uint32_t net, int bits) { return (a >> (32 - bits)) == (net >> (32 - bits)); };
  return !(in(0x00000000, 8) || in(0x0A000000, 8) || in(0x64400000, 10) || in(0x7F000000, 8) ||
           in(0xA9FE0000, 16) || in(0xAC100000, 12) || in(0xC0000000, 24) || in(0xC0000200, 24) ||
           in(0xC0A80000, 16) || in(0xC6120000, 15) || in(0xC6336400, 24) || in(0xCB007100, 24) ||
           in(0xE0000000, 4) || in(0xF0000000, 4));
}
}  // namespace

bool is_public_address(std::string_view numeric_ip) {
  std::string ip(numeric_ip);
  in_addr v4{};
  if (::inet_pton(AF_INET, ip.c_str(), &v4) == 1) return public_v4(ntohl(v4.s_addr));
  in6_addr v6{};
  if (::inet_pton(AF_INET6, ip.c_str(), &v6) != 1) return false;
  const unsigned char* b = v6.s6_addr;
  bool zero_prefix = std::all_of(b, b + 10, [](unsigned char c) { return c == 0; });
  std::uint32_t tail = (std::uint32_t(b[12]) << 24) | (std::uint32_t(b[13]) << 16) | (std::uint32_t(b[14]) << 8) | b[15];
  if (zero_prefix && b[10] == 0xff && b[11] == 0xff) return public_v4(tail);  // ::ffff:a.b.c.d
  if (zero_prefix && b[10] == 0 && b[11] == 0) return false;  // ::, ::1, IPv4-compatible
  if ((b[0] & 0xfe) == 0xfc) return false;                    // fc00::/7 unique local
  if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return false;    // fe80::/10 link-local
  if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) return false;    // fec0::/10 site-local
  if (b[0] == 0xff) return false;                             // multicast
  if (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b) return public_v4(tail);  // NAT64
  if (b[0] == 0x20 && b[1] == 0x02) return public_v4((std::uint32_t(b[2]) << 24) | (std::uint32_t(b[3]) << 16) | (std::uint32_t(b[4]) << 8) | b[5]);  // 6to4
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) return false;  // documentation
  return true;
}

namespace {
bool private_allowed(const url_parts& u, const web_options& o) {
  if (o.allow_private_addresses) return true;
  std::string endpoint = u.host + ":" + std::to_string(u.port);
  return std::find(o.private_address_exceptions.begin(), o.private_address_exceptions.end(),
                   endpoint) != o.private_address_exceptions.end();
}

bool proxy_configured() {
  for (const char* name : {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"}) {
    const char* v = std::getenv(name);
    if (v != nullptr && *v != '\0') return true;
  }
  return false;
}
}  // namespace

status check_destination(const url_parts& u, const web_options& o) {
  if (!o.allowed_domains.empty()) {
    bool ok = std::any_of(o.allowed_domains.begin(), o.allowed_domains.end(), [&](const std::string& d) {
      return u.host == d || (u.host.size() > d.size() && u.host.ends_with("." + d));
    });
    if (!ok)
      return fail(errc::permission_denied, "host \"" + u.host + "\" is not in the allowed domains; allowed: " +
                                               json(o.allowed_domains).dump());
  }
  if (private_allowed(u, o)) return {};
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  int rc = ::getaddrinfo(u.host.c_str(), nullptr, &hints, &res);
  if (rc != 0)
    return fail(errc::network_error, "host \"" + u.host + "\" cannot be resolved: " + ::gai_strerror(rc));
  status out;
  for (addrinfo* p = res; p; p = p->ai_next) {
    char buf[INET6_ADDRSTRLEN] = {0};
    const void* addr = p->ai_family == AF_INET ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(p->ai_addr)->sin_addr)
                                               : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(p->ai_addr)->sin6_addr);
    ::inet_ntop(p->ai_family, addr, buf, sizeof buf);
    if (!is_public_address(buf)) {
      out = fail(errc::permission_denied,
                 "host \"" + u.host + "\" resolves to " + buf +
                     ", a private, loopback or link-local address; http_fetch only reaches public addresses");
      break;
    }
  }
  ::freeaddrinfo(res);
  return out;
}


std::function<bool(std::string_view)> connect_guard(const url_parts& u, const web_options& o) {
  if (private_allowed(u, o) || proxy_configured()) return {};
  return [](std::string_view ip) { return is_public_address(ip); };
}

std::string redact(std::string text, const std::vector<std::string>& secrets) {
  for (const auto& s : secrets) {
    if (s.size() < 4) continue;
    for (auto p = text.find(s); p != std::string::npos; p = text.find(s, p)) text.replace(p, s.size(), "***");
  }
  return text;
}

result<json> get_json(const web_state& s, http::request req, std::string_view service,
                      const std::vector<std::string>& secrets, std::string_view key_setting) {
  req.total_timeout = s.options.timeout;
  req.max_response_bytes = s.options.max_api_bytes;
  req.connect_timeout = std::min(req.connect_timeout, s.options.timeout);
  req.headers.push_back({"User-Agent", s.options.user_agent});
  req.headers.push_back({"Accept", "application/json"});
  auto res = s.transport(req, {});
  std::string name(service);
  if (!res) {
    std::string msg = res.error().message;
    const std::string from = "http::request::max_response_bytes";
    if (auto p = msg.find(from); p != std::string::npos)
      msg.replace(p, from.size(), "builtin::web_options::max_api_bytes");
    return fail(res.error().code, redact(name + ": " + msg, secrets));
  }
  if (res->status == 401 || res->status == 403)
    return fail(errc::http_error, name + " rejected the request (HTTP " + std::to_string(res->status) +
                                      ")" + (key_setting.empty() ? "" : "; check " + std::string(key_setting)));
  if (res->status == 429)
    return fail(errc::rate_limited, name + " is rate limiting requests (HTTP 429); wait and try again later");
  if (res->status < 200 || res->status >= 300)
    return fail(errc::http_error, redact(name + " answered HTTP " + std::to_string(res->status) + ": " +
                                             res->body.substr(0, 200), secrets));
  auto parsed = parse_json(res->body);
  if (!parsed) return fail(errc::protocol_error, name + " sent a response that is not JSON");
  return *parsed;
}

}  // namespace tooluse::builtin::detail
