// URL, form and query helpers, WWW-Authenticate parsing, and JSON exchanges for the auth module.

#include "util.hpp"

#include <cctype>
#include <chrono>

#include <boost/url.hpp>

#include "tooluse/auth/oauth.hpp"

namespace tooluse::auth {

namespace detail {

namespace urls = boost::urls;

long long now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string percent_encode(std::string_view s) { return urls::encode(s, urls::unreserved_chars); }

std::string percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() &&
               std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string form_encode(const form& f) {
  std::string out;
  for (const auto& [k, v] : f) {
    if (!out.empty()) out += '&';
    out += percent_encode(k) + "=" + percent_encode(v);
  }
  return out;
}

form query_params(std::string_view url) {
  // A whole URL: its query. Anything else is taken as a bare query string.
  std::string_view query = url;
  if (auto u = urls::parse_uri_reference(url); u && (u->has_scheme() || u->has_query())) {
    if (!u->has_query()) return {};
    query = u->encoded_query();
  } else if (auto q = url.find('?'); q != std::string_view::npos) {
    query = url.substr(q + 1);
  }
  if (auto h = query.find('#'); h != std::string_view::npos) query = query.substr(0, h);
  form out;
  // Parse a copy: Boost.URL's parse_query on a view into a whole URL reads the last value on
  // past the view's end, up to the fragment ("iss=x#frag" gave "x#frag").
  const std::string owned(query);
  auto params = urls::parse_query(owned);
  if (!params) return out;
  for (auto p : *params) {
    if (p.key.empty() && !p.has_value) continue;
    out.emplace_back(percent_decode(p.key), p.has_value ? percent_decode(p.value) : "");
  }
  return out;
}

std::string find_param(const form& f, std::string_view name) {
  for (const auto& [k, v] : f)
    if (k == name) return v;
  return {};
}

url_parts split_url(std::string_view url) {
  url_parts p;
  auto u = urls::parse_uri(url);
  if (!u || !u->has_authority()) return p;
  p.scheme = ascii_lower(u->scheme());
  p.authority = ascii_lower(u->encoded_authority());
  p.path = u->encoded_path();
  if (u->has_query()) p.query = u->encoded_query();
  p.ok = !p.scheme.empty() && !p.authority.empty();
  return p;
}

std::string strip_query(std::string_view url) {
  auto cut = url.find_first_of("?#");
  return std::string(url.substr(0, cut));
}

namespace {
result<json_response> finish(result<http::response> r, const std::string& what,
                             const std::string& url) {
  if (!r) return fail(r.error().code, what + " " + url + " failed: " + r.error().message);
  json_response out;
  out.status = r->status;
  out.headers = r->headers;
  auto parsed = parse_json(r->body);
  if (parsed)
    out.body = std::move(*parsed);
  else if (r->status / 100 == 2)
    return fail(errc::protocol_error, what + " " + url + " answered HTTP " +
                                          std::to_string(r->status) + " without a JSON body");
  return out;
}
}  // namespace

result<json_response> get_json(const http::transport& send, const std::string& url) {
  http::request req{.method = "GET", .url = url};
  req.headers.push_back({"Accept", "application/json"});
  req.total_timeout = std::chrono::seconds(30);
  return finish(send(req, {}), "GET", url);
}

result<json_response> post_form(const http::transport& send, const std::string& url, const form& f,
                                const std::vector<http::header>& extra) {
  http::request req{.method = "POST", .url = url};
  req.headers.push_back({"Content-Type", "application/x-www-form-urlencoded"});
  req.headers.push_back({"Accept", "application/json"});
  for (const auto& h : extra) req.headers.push_back(h);
  req.body = form_encode(f);
  req.total_timeout = std::chrono::seconds(30);
  return finish(send(req, {}), "POST", url);
}

}  // namespace detail

std::string challenge::param(std::string_view name) const {
  for (const auto& [k, v] : params)
    if (k == name) return v;
  return {};
}

// WWW-Authenticate = 1#challenge; challenge = scheme [ 1*SP ( token68 / #auth-param ) ];
// auth-param = token BWS "=" BWS ( token / quoted-string ).
std::vector<challenge> parse_www_authenticate(std::string_view v) {
  std::vector<challenge> out;
  std::size_t i = 0;
  auto skip_ws = [&] {
    while (i < v.size() && (v[i] == ' ' || v[i] == '\t')) ++i;
  };
  auto is_tchar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("!#$%&'*+-.^_`|~/").find(c) != std::string_view::npos;
  };
  auto read_token = [&] {
    std::size_t s = i;
    while (i < v.size() && (is_tchar(v[i]) || v[i] == '=')) {
      if (v[i] == '=') break;
      ++i;
    }
    return std::string(v.substr(s, i - s));
  };
  while (i < v.size()) {
    skip_ws();
    while (i < v.size() && v[i] == ',') ++i, skip_ws();
    if (i >= v.size()) break;
    std::string name = read_token();
    skip_ws();
    if (i < v.size() && v[i] == '=' && !out.empty()) {
      // an auth-param of the current challenge
      ++i;
      skip_ws();
      std::string value;
      if (i < v.size() && v[i] == '"') {
        ++i;
        while (i < v.size() && v[i] != '"') {
          if (v[i] == '\\' && i + 1 < v.size()) ++i;
          value += v[i++];
        }
        ++i;
      } else {
        std::size_t s = i;
        while (i < v.size() && v[i] != ',' && v[i] != ' ') ++i;
        value = std::string(v.substr(s, i - s));
      }
      out.back().params.emplace_back(ascii_lower(name), value);
    } else if (!name.empty()) {
      out.push_back({.scheme = name, .params = {}});
      // a token68 after the scheme is skipped
      std::size_t save = i;
      std::string next = read_token();
      skip_ws();
      if (!(i < v.size() && v[i] == '=')) {
        while (i < v.size() && v[i] == '=') ++i;
        if (next.empty()) i = save;
      } else {
        i = save;
      }
    } else {
      ++i;
    }
    skip_ws();
  }
  return out;
}

}  // namespace tooluse::auth
