// http_fetch: a URL's content as readable text, with SSRF refusal, bounded redirects and
// size/time limits.
#include "builtin/path_guard.hpp"
#include "builtin/tool_util.hpp"
#include "builtin/web_impl.hpp"
#include "tooluse/text.hpp"
#include "tooluse/tools/typed.hpp"

namespace tooluse::builtin::detail {
namespace {

struct fetched {
  int status = 0;
  std::string url, content_type, body;
  bool truncated = false;
  int redirects = 0;
};

// fetch follows at most max_redirects redirects, checking the destination of every hop.
result<fetched> fetch(const web_state& s, std::string url, const std::stop_token& stop) {
  const auto& o = s.options;
  fetched f;
  for (int hop = 0;; ++hop) {
    auto u = parse_url(url);
    if (!u) return fail(u.error());
    if (auto ok = check_destination(*u, o); !ok) return fail(ok.error());
    http::request req{
        .url = url, .total_timeout = o.timeout, .allow_address = connect_guard(*u, o)};
    req.connect_timeout = std::min(req.connect_timeout, o.timeout);
    req.headers = {
        {"User-Agent", o.user_agent},
        {"Accept",
         "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.1"}};
    f.body.clear();
    f.truncated = false;
    int status = 0;
    std::vector<http::header> headers;
    http::send_options so{.on_body =
                              [&](std::string_view chunk) {
                                std::size_t room = o.max_fetch_bytes - f.body.size();
                                f.body.append(chunk.substr(0, room));
                                if (chunk.size() > room) f.truncated = true;
                                return !f.truncated;
                              },
                          .on_headers =
                              [&](int st, const std::vector<http::header>& h) {
                                status = st;
                                headers = h;
                              },
                          .stop = stop};
    auto res = s.transport(req, so);
    if (!res && !(f.truncated && res.error().code == errc::cancelled)) return fail(res.error());
    if (res) {
      status = res->status;
      headers = res->headers;
    }
    f.status = status;
    f.url = url;
    f.content_type = ascii_lower(http::find_header(headers, "Content-Type").value_or(""));
    auto location = http::find_header(headers, "Location");
    if (status >= 300 && status < 400 && location) {
      if (hop >= o.max_redirects)
        return fail(errc::protocol_error,
                    "too many redirects (more than " + std::to_string(o.max_redirects) + ")");
      url = resolve_reference(*u, *location);
      f.redirects = hop + 1;
      continue;
    }
    return f;
  }
}

struct http_fetch_args {
  std::string url;
  std::optional<std::int64_t> max_chars;  // default: web_options::max_text_chars
  std::int64_t start_char = 0;
  bool raw = false;
};
TOOLUSE_DESCRIBE(http_fetch_args, (url, "Absolute http:// or https:// URL", tooluse::min_length(1)),
                 (max_chars, "Characters of text to return. Default 20000", tooluse::minimum(100),
                  tooluse::maximum(200000)),
                 (start_char, "Offset to continue a cut page. Default 0", tooluse::minimum(0),
                  tooluse::default_value(0)),
                 (raw, "Return HTML source instead of text. Default false",
                  tooluse::default_value(false)))

tool_result http_fetch(const web_state& s, const http_fetch_args& args, call_context& ctx) {
  const std::string& url = args.url;
  auto max_chars = static_cast<std::size_t>(std::clamp<std::int64_t>(
      args.max_chars.value_or(static_cast<std::int64_t>(s.options.max_text_chars)), 100, 200000));
  auto start = static_cast<std::size_t>(std::max<std::int64_t>(0, args.start_char));
  bool raw = args.raw;
  auto f = fetch(s, url, ctx.stop);
  if (!f) return error_result(f.error());
  json data = {{"url", f->url},
               {"status", f->status},
               {"content_type", f->content_type},
               {"redirects", f->redirects}};
  if (f->status >= 400) {
    tool_result r = tool_result::error("HTTP " + std::to_string(f->status) + " from " + f->url +
                                       (f->status == 404 ? ": the page does not exist" : ""));
    r.structured_content = data;
    return r;
  }
  const std::string& ct = f->content_type;
  bool html = ct.find("html") != std::string::npos ||
              (ct.empty() && f->body.find("<html") != std::string::npos);
  bool texty = html || ct.starts_with("text/") || ct.find("json") != std::string::npos ||
               ct.find("xml") != std::string::npos || ct.find("javascript") != std::string::npos;
  if (!texty || looks_binary(std::string_view(f->body).substr(0, 8192)))
    return tool_result::error("the content at " + f->url + " is not text (" +
                              (ct.empty() ? "unknown type" : ct) +
                              "); http_fetch only returns text and HTML pages");
  std::string text = f->body, title;
  if (html && !raw) {
    auto doc = html_to_text(f->body, s.options.max_html_depth);
    title = doc.title;
    text = doc.text;
  }
  data["title"] = title;
  data["total_chars"] = text.size();
  data["download_truncated"] = f->truncated;
  std::string part = start < text.size() ? text.substr(start, max_chars) : std::string();
  bool cut = start + part.size() < text.size();
  data["truncated"] = cut;
  std::string out = (title.empty() ? "" : "# " + title + "\n") + f->url + "\n\n" + part;
  if (cut)
    out += "\n[cut at " + std::to_string(max_chars) +
           " characters; more with start_char=" + std::to_string(start + part.size()) + "]";
  if (f->truncated) out += "\n[download stopped at " + human_size(s.options.max_fetch_bytes) + "]";
  data["text"] = part;
  return text_and_data(std::move(out), std::move(data));
}

}  // namespace

void register_fetch_tool(tool_registry& registry, std::shared_ptr<const web_state> state) {
  const web_options& o = state->options;
  auto timeout = o.timeout * (o.max_redirects + 1) + std::chrono::seconds(5);
  add_tool(
      registry, web_tool("http_fetch", timeout),
      [state](const http_fetch_args& a, call_context& ctx) { return http_fetch(*state, a, ctx); });
}

}  // namespace tooluse::builtin::detail
