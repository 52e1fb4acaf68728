#pragma once
// Shared pieces of the network tools (private to the builtin module): URL handling, the SSRF
// address policy, JSON requests with secrets kept out of error messages, HTML to text.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/builtin/web.hpp"
#include "tooluse/http/client.hpp"
#include "tooluse/json.hpp"
#include "tooluse/result.hpp"
#include "tooluse/tools/tool.hpp"

namespace tooluse::builtin::detail {

/// url_parts is an absolute http(s) URL taken apart.
struct url_parts {
  std::string scheme;  ///< "http" or "https"
  std::string host;    ///< without brackets for IPv6
  int port = 0;
  std::string target;  ///< path and query, at least "/"
};

/// parse_url accepts absolute http:// and https:// URLs only.
result<url_parts> parse_url(std::string_view url);
/// resolve_reference resolves a redirect's Location against `base`.
std::string resolve_reference(const url_parts& base, std::string_view location);
/// url_encode percent-encodes a query component.
std::string url_encode(std::string_view s);

/// is_public_address tells whether a numeric IPv4/IPv6 address may be contacted: false for
/// loopback, private, link-local (169.254/16, fe80::/10), CGNAT, unique-local, multicast,
/// unspecified, reserved and IPv4-mapped forms of those.
bool is_public_address(std::string_view numeric_ip);

/// check_destination applies http_fetch's policy to `u`: allowlist, then (unless private
/// addresses are allowed) every address the host resolves to must be public.
/// Errors: errc::permission_denied naming the host and why.
status check_destination(const url_parts& u, const web_options& o);

/// connect_guard returns the check http::request::allow_address applies at connect time, so a
/// name that resolves to a public address for check_destination and to a private one for the
/// connection (DNS rebinding) is still refused. Empty when private addresses are allowed for
/// `u`, or when a proxy is configured in the environment (the proxy resolves the name then).
std::function<bool(std::string_view)> connect_guard(const url_parts& u, const web_options& o);

/// web_state is what the network tools share. Immutable after registration.
struct web_state {
  web_options options;
  http::transport transport;
};

/// redact replaces every occurrence of each secret in `text` with "***".
std::string redact(std::string text, const std::vector<std::string>& secrets);

/// get_json sends `req` and parses a JSON answer. A non-2xx status becomes an error whose
/// message names `service`, the status and (for 401/403) the setting to check; secrets never
/// appear in messages. Errors: http_error, network_error, timeout, protocol_error.
result<json> get_json(const web_state& s, http::request req, std::string_view service,
                      const std::vector<std::string>& secrets = {},
                      std::string_view key_setting = {});

/// html_document is readable text extracted from HTML.
struct html_document {
  std::string title;
  std::string text;  ///< main content first (main/article/role=main), then the rest of the body
};

/// html_to_text parses HTML with gumbo and renders it as plain text: headings as "# ",
/// list items as "- ", scripts, styles, navigation and forms dropped, whitespace collapsed.
html_document html_to_text(std::string_view html, std::size_t max_depth = 512);

/// strip_tags removes tags and decodes the common entities in a short HTML snippet.
std::string strip_tags(std::string_view html);

/// web_tool is the definition of the network tool `name` (its text from the table in
/// tool_util_texts.cpp): filed under "web", its tag and "network", with `timeout`, at most
/// `calls_per_minute` calls a minute. Throws std::logic_error for a name not in the table.
tool web_tool(std::string_view name, std::chrono::milliseconds timeout, int calls_per_minute = 60);

void register_search_tools(tool_registry& registry, std::shared_ptr<const web_state> state);
void register_wikipedia_tools(tool_registry& registry, std::shared_ptr<const web_state> state);
void register_fetch_tool(tool_registry& registry, std::shared_ptr<const web_state> state);
void register_weather_tool(tool_registry& registry, std::shared_ptr<const web_state> state);

}  // namespace tooluse::builtin::detail
