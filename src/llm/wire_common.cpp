#include "wire_common.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <random>

namespace tooluse::llm::detail {
namespace {

bool retryable_status(int status) {
  return status == 408 || status == 409 || status == 429 || status >= 500;
}

// sleep_for_stop waits `d` unless a stop is requested first; returns false when stopped.
bool sleep_for_stop(std::chrono::milliseconds d, std::stop_token stop) {
  std::mutex m;
  std::condition_variable_any cv;
  std::unique_lock lock(m);
  return !cv.wait_for(lock, stop, d, [] { return false; }) && !stop.stop_requested();
}

std::string status_error(const std::string& who, const http::request& req, int status,
                         const std::string& body, int retries) {
  std::string msg = who + ": HTTP " + std::to_string(status) + " from " + req.url;
  if (retries > 0) msg += " after " + std::to_string(retries) + " retries";
  std::string detail = provider_error_message(body);
  if (!detail.empty()) msg += ": " + detail;
  if (status == 401 || status == 403) msg += " (check the API key)";
  return msg;
}

// The http layer names its own options; a user of a provider sets provider_options.
std::string provider_option_names(std::string msg) {
  for (const char* name :
       {"connect_timeout", "read_timeout", "total_timeout", "max_response_bytes"}) {
    const std::string from = std::string("http::request::") + name;
    const std::string to = std::string("llm::provider_options::") + name;
    for (auto pos = msg.find(from); pos != std::string::npos; pos = msg.find(from, pos + to.size()))
      msg.replace(pos, from.size(), to);
  }
  return msg;
}

}  // namespace

std::chrono::milliseconds retry_delay(const retry_policy& policy, int attempt,
                                      const std::vector<http::header>& headers) {
  using std::chrono::milliseconds;
  if (auto ms = http::find_header(headers, "retry-after-ms")) {
    try {
      return std::min(milliseconds(static_cast<long>(std::stod(*ms))), policy.max_delay);
    } catch (...) {
    }
  }
  if (auto secs = http::find_header(headers, "retry-after")) {
    try {
      size_t used = 0;
      double s = std::stod(*secs, &used);
      if (used == secs->size() && s >= 0)
        return std::min(milliseconds(static_cast<long>(s * 1000)), policy.max_delay);
    } catch (...) {
      // An HTTP-date: fall back to the backoff below.
    }
  }
  auto base = policy.initial_delay * (1L << std::min(attempt, 16));
  thread_local std::minstd_rand rng{std::random_device{}()};
  auto jitter = milliseconds(base.count() > 0 ? rng() % (base.count() / 4 + 1) : 0);
  return std::min(base + jitter, policy.max_delay);
}

retry_step after_attempt(const provider_options& opts, const std::string& who,
                         const http::request& req, int attempt, result<http::response> res,
                         bool streamed, std::string error_body, bool streaming) {
  bool can_retry = attempt < opts.retry.max_retries && !streamed;
  if (!res) {
    bool transient = res.error().code == errc::network_error;
    if (!transient || !can_retry) {
      res.error().message = who + ": " + (streamed ? "the stream was cut mid-answer: " : "") +
                            provider_option_names(res.error().message);
      return {.done = std::move(res)};
    }
    return {.delay = retry_delay(opts.retry, attempt, {})};
  }
  if (res->status >= 200 && res->status < 300) return {.done = std::move(res)};
  if (streaming) res->body = std::move(error_body);
  if (retryable_status(res->status) && can_retry)
    return {.delay = retry_delay(opts.retry, attempt, res->headers)};
  errc code = res->status == 429 ? errc::rate_limited : errc::http_error;
  return {.done = fail(code, status_error(who, req, res->status, res->body, attempt))};
}

void prepare_request(const provider_options& opts, http::request& req) {
  req.connect_timeout = opts.connect_timeout;
  req.read_timeout = opts.read_timeout;
  req.total_timeout = opts.total_timeout;
  req.max_response_bytes = opts.max_response_bytes;
}

result<http::response> send_with_retry(const provider_options& opts, const std::string& who,
                                       http::request req, const exchange_hooks& hooks,
                                       std::stop_token stop) {
  http::transport send = opts.transport ? opts.transport : http::default_transport();
  prepare_request(opts, req);
  for (int attempt = 0;; ++attempt) {
    bool ok_status = false;
    bool streamed = false;
    std::string error_body;
    http::send_options so{.stop = stop};
    so.on_headers = [&](int status, const std::vector<http::header>&) {
      ok_status = status >= 200 && status < 300;
    };
    if (hooks.on_body) {
      so.on_body = [&](std::string_view chunk) {
        if (!ok_status) {
          error_body.append(chunk);
          return true;
        }
        streamed = true;
        return hooks.on_body(chunk);
      };
    }
    auto res = send(req, so);  // before reading what its callbacks set
    auto step = after_attempt(opts, who, req, attempt, std::move(res), streamed,
                              std::move(error_body), static_cast<bool>(hooks.on_body));
    if (step.done) return std::move(*step.done);
    if (!sleep_for_stop(step.delay, stop)) return fail(errc::cancelled, who + ": request cancelled");
  }
}

result<wire_tools> export_wire_tools(const std::vector<tool>& tools, schema::export_target target,
                                     bool strict) {
  using schema::export_target;
  if (target == export_target::responses || target == export_target::gemini) {
    std::vector<schema::tool_spec> specs;
    for (const auto& t : tools)
      specs.push_back({.name = t.name,
                       .description = t.description,
                       .input_schema = t.input_schema,
                       .strict = strict && target == export_target::responses});
    auto out = schema::export_tools(specs, target, {.drop_unsupported = true});
    if (!out) return fail(out.error());
    return wire_tools{std::move(out->tools), std::move(out->names)};
  }
  wire_tools out;
  bool anthropic = target == export_target::anthropic;
  std::vector<std::string> names;
  for (const auto& t : tools) names.push_back(t.name);
  out.names = schema::name_map::build(
      names, anthropic ? schema::anthropic_name_rule : schema::openai_name_rule);
  for (const auto& t : tools) {
    std::string wire = *out.names.provider_name(t.name);
    if (anthropic) {
      out.tools.push_back(
          {{"name", wire}, {"description", t.description}, {"input_schema", t.input_schema}});
      continue;
    }
    json fn = {{"name", wire}, {"description", t.description}, {"parameters", t.input_schema}};
    if (target == export_target::openai_strict) {
      auto strict = schema::make_strict_schema(t.input_schema, {.drop_unsupported = true});
      if (!strict)
        return fail(strict.error().code, "tool \"" + t.name + "\": " + strict.error().message);
      fn["parameters"] = *strict;
      fn["strict"] = true;
    }
    out.tools.push_back({{"type", "function"}, {"function", fn}});
  }
  return out;
}

json encode_conversation(const std::vector<message>& messages, const role_encoders& by_role) {
  json out = json::array();
  for (const auto& m : messages) {
    const auto& encode = m.role == role::system      ? by_role.system
                         : m.role == role::user      ? by_role.user
                         : m.role == role::assistant ? by_role.assistant
                                                     : by_role.tool;
    if (encode) encode(out, m);
  }
  return out;
}

void place_tools(json& body, const wire_tools& tools) {
  body["tools"] = tools.text.empty() ? tools.tools : json(nullptr);
}

std::string dump_body(const json& body, const wire_tools& tools) {
  if (tools.text.empty() || !body.is_object()) return dump_json(body);
  std::string out = "{";
  for (auto it = body.begin(); it != body.end(); ++it) {
    if (out.size() > 1) out += ',';
    out += dump_json(json(it.key()));
    out += ':';
    if (it.key() == "tools" && it.value().is_null())
      out += tools.text;
    else
      out += dump_json(it.value());
  }
  out += '}';
  return out;
}

std::vector<tool> allowed_subset(const std::vector<tool>& tools,
                                 const std::vector<std::string>& allowed) {
  if (allowed.empty()) return tools;
  std::vector<tool> out;
  for (const auto& t : tools)
    if (std::find(allowed.begin(), allowed.end(), t.name) != allowed.end()) out.push_back(t);
  return out;
}

void apply_price(usage& u, const std::optional<price>& p) {
  if (p) u.cost = cost_of(u, *p);
}

std::string join_url(const std::string& base, const std::string& path) {
  std::string b = base;
  while (!b.empty() && b.back() == '/') b.pop_back();
  return b + (path.empty() || path.front() == '/' ? "" : "/") + path;
}

std::string tool_result_text(const message& m) {
  std::string text;
  for (const auto& p : m.content) {
    if (!text.empty()) text += "\n";
    text += p.type == content_part::kind::text
                ? p.text
                : "[image " + p.mime_type + ", " + std::to_string(p.data.size()) +
                      " base64 bytes not shown]";
  }
  return text;
}

std::string error_marked(std::string text, bool is_error) {
  if (is_error && text.rfind("Error", 0) != 0 && text.rfind("error", 0) != 0)
    text = "Error: " + text;
  return text;
}

json user_content(const message& m, const char* text_type, json (*image)(const std::string& url)) {
  if (m.content.size() == 1 && m.content[0].type == content_part::kind::text)
    return m.content[0].text;
  json parts = json::array();
  for (const auto& p : m.content) {
    if (p.type == content_part::kind::text)
      parts.push_back({{"type", text_type}, {"text", p.text}});
    else
      parts.push_back(image(p.url.empty() ? "data:" + p.mime_type + ";base64," + p.data : p.url));
  }
  return parts;
}

void add_tool_result(json& out, const char* key, json result, bool (*is_result)(const json& entry)) {
  bool open = !out.empty() && out.back()["role"] == "user" && out.back()[key].is_array() &&
              !out.back()[key].empty() && is_result(out.back()[key][0]);
  if (!open) out.push_back({{"role", "user"}, {key, json::array()}});
  out.back()[key].push_back(std::move(result));
}

std::string system_text(const std::vector<message>& messages) {
  std::string system;
  for (const auto& m : messages)
    if (m.role == role::system) system += (system.empty() ? "" : "\n\n") + m.text();
  return system;
}

std::string shape_message(const std::string& who) {
  return who + ": the answer has a field of an unexpected type";
}

std::string provider_error_message(const std::string& body) {
  auto j = parse_json(body);
  if (j && j->is_object()) {
    const json& e = j->contains("error") ? (*j)["error"] : *j;
    if (e.is_object() && e.contains("message") && e["message"].is_string())
      return e["message"].get<std::string>();
    if (e.is_string()) return e.get<std::string>();
  }
  std::string text = body.substr(0, 300);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

}  // namespace tooluse::llm::detail

namespace tooluse::llm {

void provider::complete_async(const chat_request& req, const stream_callbacks& callbacks,
                              std::stop_token stop, chat_completion done) {
  done(complete(req, callbacks, std::move(stop)));
}

double cost_of(const usage& u, const price& p) {
  auto rate = [](double r, double fallback) { return r > 0 ? r : fallback; };
  auto uncached =
      std::max<std::int64_t>(0, u.input_tokens - u.cache_read_tokens - u.cache_write_tokens);
  return (static_cast<double>(uncached) * p.input_per_mtok +
          static_cast<double>(u.cache_read_tokens) *
              rate(p.cached_input_per_mtok, p.input_per_mtok) +
          static_cast<double>(u.cache_write_tokens) *
              rate(p.cache_write_per_mtok, p.input_per_mtok) +
          static_cast<double>(u.output_tokens) * p.output_per_mtok) /
         1e6;
}

}  // namespace tooluse::llm
