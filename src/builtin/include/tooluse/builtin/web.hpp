#pragma once
/// \file web.hpp
/// The network tools: web_search (Tavily, Brave, SearXNG), wikipedia_search, wikipedia_page,
/// http_fetch (with SSRF protection) and weather (Open-Meteo). Every base URL is configurable,
/// so tests point them at local servers.

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "tooluse/tools/registry.hpp"

namespace tooluse::builtin {

/// web_options configures the network tools. Empty keys are read from the environment
/// (TAVILY_API_KEY, BRAVE_API_KEY, SEARXNG_URL) when the tools are registered.
struct web_options {
  /// search_provider is "tavily", "brave" or "searxng"; empty picks the first configured one
  /// in that order. With none configured web_search answers with an error saying what to set.
  std::string search_provider;
  std::string tavily_api_key;
  std::string brave_api_key;
  std::string tavily_url = "https://api.tavily.com";
  std::string brave_url = "https://api.search.brave.com";
  std::string searxng_url;  ///< e.g. "https://searx.example.org"; no key
  /// wikipedia_url is the MediaWiki site; "{lang}" is replaced by the language code.
  std::string wikipedia_url = "https://{lang}.wikipedia.org";
  std::string open_meteo_url = "https://api.open-meteo.com";
  std::string geocoding_url = "https://geocoding-api.open-meteo.com";
  std::string user_agent = "tooluse/0.1 (https://github.com/tooluse/tooluse; built-in tools)";
  std::chrono::milliseconds timeout{std::chrono::seconds(20)};  ///< per request
  /// http_fetch policy: private, loopback and link-local addresses are refused unless this is
  /// set (tests only); `allowed_domains`, when non-empty, lists the hosts (and their
  /// subdomains) http_fetch may reach.
  bool allow_private_addresses = false;
  /// private_address_exceptions lists exact "host:port" endpoints exempt from the address
  /// check (an intranet service, or a test server on 127.0.0.1); redirects are still checked.
  std::vector<std::string> private_address_exceptions;
  std::vector<std::string> allowed_domains;
  std::size_t max_fetch_bytes = 2 * 1024 * 1024;  ///< downloaded bytes per fetch (more: cut)
  /// max_api_bytes bounds one JSON answer of a search, Wikipedia or weather API; more fails
  /// the call with errc::limit_exceeded as the bytes arrive.
  std::size_t max_api_bytes = 8 * 1024 * 1024;
  std::size_t max_text_chars = 20000;             ///< default text returned by http_fetch
  /// max_html_depth: a page nesting elements deeper than this is returned with its tags
  /// stripped rather than parsed (the HTML parser's tree walk is recursive).
  std::size_t max_html_depth = 512;
  int max_redirects = 5;
};

/// register_web_tools adds web_search, wikipedia_search, wikipedia_page, http_fetch and
/// weather. They are open-world, read-only tools with timeouts and rate limits.
void register_web_tools(tool_registry& registry, const web_options& options = {});

}  // namespace tooluse::builtin
