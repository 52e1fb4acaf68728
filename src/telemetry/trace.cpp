#include "tooluse/telemetry/trace.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <functional>
#include <mutex>
#include <random>
#include <thread>

#include "tooluse/http/client.hpp"

namespace tooluse::telemetry {
namespace {

thread_local span_context current_context;
std::atomic<bool> capture{[] {
  const char* v = std::getenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT");
  return v && (std::string(v) == "true" || std::string(v) == "1");
}()};

std::string random_hex(std::size_t bytes) {
  thread_local std::mt19937_64 rng{
      std::random_device{}() ^
      static_cast<std::uint64_t>(std::hash<std::thread::id>{}(std::this_thread::get_id()))};
  static const char* digits = "0123456789abcdef";
  std::string out;
  while (out.size() < bytes * 2) {
    auto v = rng();
    for (int i = 0; i < 16 && out.size() < bytes * 2; ++i, v >>= 4) out += digits[v & 15];
  }
  if (out.find_first_not_of('0') == std::string::npos) out.back() = '1';
  return out;
}

std::uint64_t now_ns() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::system_clock::now().time_since_epoch())
                                        .count());
}

bool is_hex(std::string_view s) {
  return s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

struct exporter_handle::impl {
  otlp_options options;
  std::mutex mutex;
  std::condition_variable wake, idle;
  std::deque<span_data> queue;
  std::size_t in_flight = 0;
  std::size_t dropped = 0;
  bool stopping = false;
  std::uint64_t flush_requests = 0;
  std::thread worker;

  void add(span_data s) {
    std::lock_guard lock(mutex);
    if (queue.size() >= options.max_queue) {
      ++dropped;
      return;
    }
    queue.push_back(std::move(s));
    if (queue.size() >= options.max_batch) wake.notify_one();
  }

  void send(const std::vector<span_data>& batch) {
    http::request req{.method = "POST",
                      .url = options.endpoint,
                      .headers = {{"Content-Type", "application/json"}},
                      .body = dump_json(spans_to_otlp_json(batch, options.service_name)),
                      .connect_timeout = options.timeout,
                      .read_timeout = options.timeout,
                      .total_timeout = options.timeout};
    for (const auto& [k, v] : options.headers) req.headers.push_back({k, v});
    auto r = http::send(req);
    if (!r || r->status / 100 != 2) {
      std::lock_guard lock(mutex);
      dropped += batch.size();
    }
  }

  void run() {
    std::unique_lock lock(mutex);
    for (;;) {
      wake.wait_for(lock, options.interval, [&] {
        return stopping || flush_requests > 0 || queue.size() >= options.max_batch;
      });
      while (!queue.empty()) {
        std::vector<span_data> batch;
        while (!queue.empty() && batch.size() < options.max_batch) {
          batch.push_back(std::move(queue.front()));
          queue.pop_front();
        }
        ++in_flight;
        lock.unlock();
        send(batch);
        lock.lock();
        --in_flight;
      }
      flush_requests = 0;
      idle.notify_all();
      if (stopping) return;
    }
  }
};

namespace {
std::mutex sink_mutex;
std::shared_ptr<exporter_handle::impl> sink;
std::atomic<bool> sink_set{false};

std::shared_ptr<exporter_handle::impl> current_sink() {
  if (!sink_set.load(std::memory_order_acquire)) return nullptr;
  std::lock_guard lock(sink_mutex);
  return sink;
}
}  // namespace

std::string format_traceparent(const span_context& c) {
  return "00-" + c.trace_id + "-" + c.span_id + (c.sampled ? "-01" : "-00");
}

std::optional<span_context> parse_traceparent(std::string_view t) {
  if (t.size() < 55 || t[2] != '-' || t[35] != '-' || t[52] != '-') return std::nullopt;
  auto version = t.substr(0, 2), trace = t.substr(3, 32), id = t.substr(36, 16),
       flags = t.substr(53, 2);
  if (!is_hex(version) || version == "ff" || !is_hex(trace) || !is_hex(id) || !is_hex(flags))
    return std::nullopt;
  // Version 00 has exactly these four fields; a later version may add fields after a dash.
  if (t.size() > 55 && (version == "00" || t[55] != '-')) return std::nullopt;
  if (trace.find_first_not_of('0') == std::string_view::npos ||
      id.find_first_not_of('0') == std::string_view::npos)
    return std::nullopt;
  return span_context{std::string(trace), std::string(id),
                      (std::stoi(std::string(flags), nullptr, 16) & 1) != 0};
}

span::~span() { end(); }

span::span(span&& o) noexcept
    : data_(std::move(o.data_)), previous_(std::move(o.previous_)), restore_(o.restore_) {
  o.restore_ = false;
}

span& span::operator=(span&& o) noexcept {
  if (this != &o) {
    // `s = start_span(...)` ends s after the new span began under it: the new span must then
    // stay current, and restore what s found rather than s's ended context.
    const span_context mine = context();
    const span_context found = previous_;
    const bool had_restore = restore_;
    const span_context now = current_context;
    end();
    data_ = std::move(o.data_);
    previous_ = std::move(o.previous_);
    restore_ = o.restore_;
    o.restore_ = false;
    if (had_restore && restore_ && mine.valid() && previous_.span_id == mine.span_id) {
      previous_ = found;
      current_context = now;
    }
  }
  return *this;
}

span_context span::context() const { return data_ ? data_->context : span_context{}; }

void span::set_attribute(const std::string& key, attribute_value value) {
  if (!data_) return;
  for (auto& [k, v] : data_->attributes)
    if (k == key) {
      v = std::move(value);
      return;
    }
  data_->attributes.emplace_back(key, std::move(value));
}

void span::set_error(const std::string& message, const std::string& type) {
  if (!data_) return;
  data_->error = true;
  data_->status_message = message.substr(0, 500);
  set("error.type", type);
}

void span::set_name(std::string name) {
  if (data_) data_->name = std::move(name);
}

void span::end() {
  if (restore_) {
    current_context = previous_;
    restore_ = false;
  }
  if (!data_) return;
  data_->end_ns = now_ns();
  if (data_->context.sampled)
    if (auto s = current_sink()) s->add(std::move(*data_));
  data_.reset();
}

span start_span(std::string name, span_kind kind, std::optional<span_context> parent) {
  span s;
  if (!current_sink()) return s;
  span_context p = parent ? *parent : current_context;
  s.data_ = std::make_unique<span_data>();
  s.data_->context = {p.valid() ? p.trace_id : random_hex(16), random_hex(8),
                      p.valid() ? p.sampled : true};  // parent-based sampling
  if (p.valid()) s.data_->parent_span_id = p.span_id;
  s.data_->name = std::move(name);
  s.data_->kind = kind;
  s.data_->start_ns = now_ns();
  s.previous_ = current_context;
  s.restore_ = true;
  current_context = s.data_->context;
  return s;
}

span_context current() { return current_context; }

context_scope::context_scope(span_context c) : previous_(current_context) {
  current_context = std::move(c);
}
context_scope::~context_scope() { current_context = previous_; }

bool enabled() noexcept { return sink_set.load(std::memory_order_acquire); }
bool capture_content() noexcept { return capture.load(); }
void set_capture_content(bool on) noexcept { capture.store(on); }

exporter_handle::~exporter_handle() {
  if (!impl_) return;
  {
    std::lock_guard lock(sink_mutex);
    if (sink == impl_) {
      sink.reset();
      sink_set.store(false, std::memory_order_release);
    }
  }
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
  }
  impl_->wake.notify_all();
  if (impl_->worker.joinable()) impl_->worker.join();
}

void exporter_handle::flush() {
  if (!impl_) return;
  std::unique_lock lock(impl_->mutex);
  ++impl_->flush_requests;
  impl_->wake.notify_all();
  impl_->idle.wait_for(lock, impl_->options.timeout * 2,
                       [&] { return impl_->queue.empty() && impl_->in_flight == 0; });
}

std::size_t exporter_handle::dropped() const {
  if (!impl_) return 0;
  std::lock_guard lock(impl_->mutex);
  return impl_->dropped;
}

exporter_handle install_exporter(otlp_options options) {
  auto i = std::make_shared<exporter_handle::impl>();
  i->options = std::move(options);
  i->worker = std::thread([raw = i.get()] { raw->run(); });
  {
    std::lock_guard lock(sink_mutex);
    sink = i;
    sink_set.store(true, std::memory_order_release);
  }
  return exporter_handle(i);
}

exporter_handle install_from_env(const std::string& service_name) {
  auto env = [](const char* n) {
    const char* v = std::getenv(n);
    return std::string(v ? v : "");
  };
  if (env("OTEL_SDK_DISABLED") == "true") return {};
  otlp_options o;
  o.endpoint = env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  if (o.endpoint.empty()) {
    o.endpoint = env("OTEL_EXPORTER_OTLP_ENDPOINT");
    if (o.endpoint.empty()) return {};
    while (!o.endpoint.empty() && o.endpoint.back() == '/') o.endpoint.pop_back();
    o.endpoint += "/v1/traces";
  }
  o.service_name = env("OTEL_SERVICE_NAME").empty() ? service_name : env("OTEL_SERVICE_NAME");
  std::string headers = env("OTEL_EXPORTER_OTLP_HEADERS");
  for (size_t pos = 0; pos < headers.size();) {
    auto comma = headers.find(',', pos);
    auto item = headers.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (auto eq = item.find('='); eq != std::string::npos && eq > 0)
      o.headers[item.substr(0, eq)] = item.substr(eq + 1);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return install_exporter(std::move(o));
}

json spans_to_otlp_json(const std::vector<span_data>& spans, const std::string& service_name) {
  auto value = [](const attribute_value& v) -> json {
    if (auto s = std::get_if<std::string>(&v)) return {{"stringValue", *s}};
    if (auto i = std::get_if<std::int64_t>(&v)) return {{"intValue", std::to_string(*i)}};
    if (auto d = std::get_if<double>(&v)) return {{"doubleValue", *d}};
    return {{"boolValue", std::get<bool>(v)}};
  };
  json out = json::array();
  for (const auto& s : spans) {
    json attrs = json::array();
    for (const auto& [k, v] : s.attributes) attrs.push_back({{"key", k}, {"value", value(v)}});
    json j = {
        {"traceId", s.context.trace_id},
        {"spanId", s.context.span_id},
        {"name", s.name},
        {"kind", static_cast<int>(s.kind)},
        {"startTimeUnixNano", std::to_string(s.start_ns)},
        {"endTimeUnixNano", std::to_string(s.end_ns)},
        {"attributes", attrs},
        {"status", s.error ? json{{"code", 2}, {"message", s.status_message}} : json{{"code", 0}}}};
    if (!s.parent_span_id.empty()) j["parentSpanId"] = s.parent_span_id;
    out.push_back(std::move(j));
  }
  json resource = {
      {"attributes",
       json::array({{{"key", "service.name"}, {"value", {{"stringValue", service_name}}}},
                    {{"key", "telemetry.sdk.name"}, {"value", {{"stringValue", "tooluse"}}}}})}};
  return {{"resourceSpans",
           json::array({{{"resource", resource},
                         {"scopeSpans",
                          json::array({{{"scope", {{"name", "tooluse"}}}, {"spans", out}}})}}})}};
}

}  // namespace tooluse::telemetry
