#include "tooluse/exec/events.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <fstream>
#include <ostream>

#include "tooluse/enum_names.hpp"
namespace tooluse::exec {

TOOLUSE_ENUM_NAMES(call_outcome, (ok), (error), (timeout), (cancelled), (invalid), (rejected),
                   (pending_approval), (rate_limited), (budget_exceeded), (circuit_open))

std::string_view to_string(call_outcome o) noexcept { return enum_name(o, "error"); }

namespace {

bool is_secret_word(std::string_view w) {
  static constexpr std::array<std::string_view, 14> words = {
      "apikey", "api_key", "token", "password", "passwd", "secret", "authorization",
      "cookie", "credential", "credentials", "private_key", "auth", "bearer", "session_key"};
  return std::find(words.begin(), words.end(), w) != words.end();
}

bool is_secret_key(std::string_view key) {
  std::string k;
  k.reserve(key.size());
  for (char c : key) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    k += l == '-' ? '_' : l;
  }
  if (is_secret_word(k)) return true;
  // "access_token", "x_api_key", "client_secret": the last one or two parts name the secret.
  auto last = k.rfind('_');
  if (last != std::string::npos && is_secret_word(std::string_view(k).substr(last + 1)))
    return true;
  if (last != std::string::npos && last > 0) {
    auto prev = k.rfind('_', last - 1);
    auto tail = std::string_view(k).substr(prev == std::string::npos ? 0 : prev + 1);
    if (is_secret_word(tail)) return true;
  }
  return false;
}

}  // namespace

json redact_secrets(const json& value) {
  if (value.is_object()) {
    json out = json::object();
    for (auto it = value.begin(); it != value.end(); ++it)
      out[it.key()] = is_secret_key(it.key()) ? json("[redacted]") : redact_secrets(it.value());
    return out;
  }
  if (value.is_array()) {
    json out = json::array();
    for (const auto& v : value) out.push_back(redact_secrets(v));
    return out;
  }
  return value;
}

trace_writer::trace_writer(std::ostream& out) : out_(&out) {}
trace_writer::~trace_writer() = default;

result<std::unique_ptr<trace_writer>> trace_writer::open(const std::string& path) {
  auto file = std::make_unique<std::ofstream>(path, std::ios::app);
  if (!*file)
    return fail(errc::io_error, "cannot open trace file \"" + path + "\": check the folder exists");
  auto writer = std::make_unique<trace_writer>(*file);
  writer->owned_ = std::move(file);
  return writer;
}

json trace_writer::line(const call_event& e) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  json j = {{"ts", std::chrono::duration_cast<std::chrono::milliseconds>(now).count()}};
  j["tool"] = e.call ? e.call->name : std::string();
  j["call_id"] = e.call ? e.call->id : std::string();
  j["session"] = std::string(e.session);
  j["arguments"] = e.call ? redact_secrets(e.call->arguments) : json();
  j["ms"] = static_cast<double>(e.duration.count()) / 1000.0;
  j["outcome"] = std::string(to_string(e.outcome));
  j["is_error"] = e.result ? e.result->is_error : true;
  j["attempts"] = e.attempts;
  j["cached"] = e.cached;
  return j;
}

void trace_writer::write(const call_event& e) {
  if (e.kind != event_kind::end) return;
  std::string text = dump_json(line(e));
  std::lock_guard lock(mutex_);
  *out_ << text << '\n';
  out_->flush();
}

}  // namespace tooluse::exec
