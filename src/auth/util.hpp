#pragma once
// Private helpers of the auth module: URLs, forms, queries, HTTP exchanges with JSON bodies.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tooluse/http/client.hpp"
#include "tooluse/json.hpp"
#include "tooluse/result.hpp"
#include "tooluse/text.hpp"

namespace tooluse::auth::detail {

using form = std::vector<std::pair<std::string, std::string>>;

std::string percent_encode(std::string_view s);
std::string percent_decode(std::string_view s);
std::string form_encode(const form& f);
/// query_params returns the decoded query parameters of a URL (or of a bare query string).
form query_params(std::string_view url);
std::string find_param(const form& f, std::string_view name);

/// url_parts splits scheme://authority/path?query#fragment.
struct url_parts {
  std::string scheme, authority, path, query;
  bool ok = false;
  std::string origin() const { return scheme + "://" + authority; }
  /// http is true for a parsed http:// or https:// URL.
  bool http() const { return ok && (scheme == "http" || scheme == "https"); }
};
url_parts split_url(std::string_view url);
/// strip_query drops the query and fragment (DPoP htu).
std::string strip_query(std::string_view url);

/// get_json / post_form perform one exchange; a non-JSON body is an error.
struct json_response {
  int status = 0;
  json body;
  std::vector<http::header> headers;
};
result<json_response> get_json(const http::transport& send, const std::string& url);
result<json_response> post_form(const http::transport& send, const std::string& url, const form& f,
                                const std::vector<http::header>& extra);

long long now_seconds();

}  // namespace tooluse::auth::detail
