// Tracing: W3C traceparent parsing, spans and their parent/child tree on one thread and across
// threads, and the OTLP/HTTP JSON exporter posting to a real collector on loopback (the fake
// server records what it receives): attribute encoding, status, resource, headers, a full
// queue, a failing collector, and configuration from the environment.
#include "tooluse/telemetry/trace.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <thread>

#include "support/fake_llm_server.hpp"

namespace tooluse::telemetry::trace_test {
namespace {

namespace t = tooluse::testing;

const std::string trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
const std::string span_id = "00f067aa0ba902b7";

// collector is an OTLP endpoint on loopback that answers `status` and keeps every body.
struct collector {
  t::fake_llm_server server;
  explicit collector(int status = 200) {
    server.set_responder([status](const t::recorded_request&) {
      return t::scripted_response{.status = status, .body = "{}"};
    });
  }
  std::string url() const { return server.url("/v1/traces"); }
  // spans returns every span received, in order.
  std::vector<json> spans() const {
    std::vector<json> out;
    for (const auto& r : server.requests()) {
      json body = r.json_body();  // a range-for over a member of a temporary would dangle
      for (const auto& s : body["resourceSpans"][0]["scopeSpans"][0]["spans"]) out.push_back(s);
    }
    return out;
  }
};

json find_span(const std::vector<json>& spans, const std::string& name) {
  for (const auto& s : spans)
    if (s["name"] == name) return s;
  return nullptr;
}

TEST(traceparent, formats_and_parses_the_w3c_header) {
  span_context c{trace_id, span_id, true};
  EXPECT_EQ(format_traceparent(c), "00-" + trace_id + "-" + span_id + "-01");
  c.sampled = false;
  EXPECT_EQ(format_traceparent(c), "00-" + trace_id + "-" + span_id + "-00");
  auto p = parse_traceparent("00-" + trace_id + "-" + span_id + "-01");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->trace_id, trace_id);
  EXPECT_EQ(p->span_id, span_id);
  EXPECT_TRUE(p->sampled);
  EXPECT_FALSE(parse_traceparent("00-" + trace_id + "-" + span_id + "-02")->sampled);
  EXPECT_TRUE(parse_traceparent("00-" + trace_id + "-" + span_id + "-03")->sampled);
}

TEST(traceparent, refuses_malformed_values) {
  const std::string good = "00-" + trace_id + "-" + span_id + "-01";
  std::string upper = good;
  upper[5] = 'F';  // trace ids are lowercase hex
  for (const std::string& bad :
       {std::string(""), good.substr(0, 54), "ff" + good.substr(2), upper,
        "00-" + std::string(32, '0') + "-" + span_id + "-01",
        "00-" + trace_id + "-" + std::string(16, '0') + "-01", "00_" + good.substr(3),
        "00-" + trace_id + "-" + span_id + "-0g", "0x-" + good.substr(3),
        good + "-extra",  // version 00 has exactly four fields
        good + "0"}) {
    EXPECT_FALSE(parse_traceparent(bad)) << bad;
  }
  // A later version may append fields after a dash.
  EXPECT_TRUE(parse_traceparent("01" + good.substr(2) + "-what-comes-next"));
}

TEST(spans, record_nothing_without_an_exporter) {
  ASSERT_FALSE(enabled());
  auto s = start_span("idle");
  EXPECT_FALSE(s.recording());
  EXPECT_FALSE(s.context().valid());
  EXPECT_FALSE(current().valid());
  s.set("k", "v");
  s.set_error("x");
  s.end();
}

TEST(spans, nest_on_a_thread_and_cross_threads_with_context_scope) {
  collector c;
  {
    auto exporter = install_exporter({.endpoint = c.url(), .service_name = "svc-test"});
    ASSERT_TRUE(enabled());
    span_context root_ctx, child_ctx, worker_ctx;
    {
      auto root = start_span("root", span_kind::server);
      root_ctx = root.context();
      EXPECT_TRUE(root_ctx.valid());
      EXPECT_EQ(current().span_id, root_ctx.span_id);
      {
        auto child = start_span("child", span_kind::client);
        child_ctx = child.context();
        EXPECT_EQ(current().span_id, child_ctx.span_id);
      }
      EXPECT_EQ(current().span_id, root_ctx.span_id);  // restored when the child ended
      std::thread worker([&, parent = current()] {
        EXPECT_FALSE(current().valid());  // nothing is inherited by a new thread
        context_scope scope(parent);
        auto w = start_span("on worker");
        worker_ctx = w.context();
      });
      worker.join();
    }
    EXPECT_FALSE(current().valid());
    // An explicit parent (e.g. from a request's traceparent) starts a span in that trace.
    {
      auto remote = start_span("remote child", span_kind::server, span_context{trace_id, span_id});
    }
    exporter.flush();
    EXPECT_EQ(exporter.dropped(), 0u);
    auto spans = c.spans();
    ASSERT_EQ(spans.size(), 4u);
    json root = find_span(spans, "root"), child = find_span(spans, "child"),
         w = find_span(spans, "on worker"), remote = find_span(spans, "remote child");
    EXPECT_FALSE(root.contains("parentSpanId"));
    EXPECT_EQ(root["kind"], 2);
    EXPECT_EQ(child["kind"], 3);
    EXPECT_EQ(child["traceId"], root_ctx.trace_id);
    EXPECT_EQ(child["parentSpanId"], root_ctx.span_id);
    EXPECT_EQ(w["traceId"], root_ctx.trace_id);
    EXPECT_EQ(w["parentSpanId"], root_ctx.span_id);
    EXPECT_EQ(remote["traceId"], trace_id);
    EXPECT_EQ(remote["parentSpanId"], span_id);
    EXPECT_LE(std::stoull(root["startTimeUnixNano"].get<std::string>()),
              std::stoull(root["endTimeUnixNano"].get<std::string>()));
    auto body = c.server.requests().at(0).json_body();
    EXPECT_EQ(body["resourceSpans"][0]["resource"]["attributes"][0],
              json::parse(R"({"key":"service.name","value":{"stringValue":"svc-test"}})"));
    EXPECT_EQ(c.server.requests()[0].target, "/v1/traces");
    EXPECT_EQ(c.server.requests()[0].header("content-type"), "application/json");
  }
  EXPECT_FALSE(enabled());  // destroying the handle uninstalls it
}

TEST(spans, attributes_status_and_names_in_the_otlp_encoding) {
  collector c;
  auto exporter =
      install_exporter({.endpoint = c.url(), .headers = {{"Authorization", "Bearer otlp-key"}}});
  {
    auto s = start_span("execute_tool");
    s.set("gen_ai.tool.name", "calc");
    s.set("count", 3);
    s.set("big", std::int64_t{9007199254740993});
    s.set("ratio", 0.5);
    s.set("ok", true);
    s.set("count", 4);  // replaces, keeps its place
    s.set_name("execute_tool calc");
    s.set_error(std::string(600, 'e'), "timeout");
    s.end();
    s.end();  // a second end does nothing
  }
  exporter.flush();
  auto spans = c.spans();
  ASSERT_EQ(spans.size(), 1u);
  const json& s = spans[0];
  EXPECT_EQ(s["name"], "execute_tool calc");
  EXPECT_EQ(s["attributes"], json::parse(R"([
      {"key":"gen_ai.tool.name","value":{"stringValue":"calc"}},
      {"key":"count","value":{"intValue":"4"}},
      {"key":"big","value":{"intValue":"9007199254740993"}},
      {"key":"ratio","value":{"doubleValue":0.5}},
      {"key":"ok","value":{"boolValue":true}},
      {"key":"error.type","value":{"stringValue":"timeout"}}])"));
  EXPECT_EQ(s["status"]["code"], 2);
  EXPECT_EQ(s["status"]["message"], std::string(500, 'e'));  // capped
  // The collector's credentials go in the request's headers, never in the spans.
  EXPECT_EQ(c.server.requests()[0].header("authorization"), "Bearer otlp-key");
  EXPECT_EQ(c.server.requests()[0].body.find("otlp-key"), std::string::npos);
}

TEST(spans, a_moved_span_ends_once) {
  collector c;
  auto exporter = install_exporter({.endpoint = c.url()});
  {
    auto a = start_span("a");
    span b = std::move(a);
    EXPECT_FALSE(a.recording());
    EXPECT_TRUE(b.recording());
    span other = start_span("other");
    other.end();
    other = std::move(b);  // "other" had ended; "a" lives on in it
  }
  exporter.flush();
  auto spans = c.spans();
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0]["name"], "other");
  EXPECT_EQ(spans[1]["name"], "a");
}

TEST(exporter, a_full_queue_drops_and_counts_without_waiting) {
  collector c;
  auto exporter = install_exporter({.endpoint = c.url(),
                                    .max_queue = 2,
                                    .max_batch = 100,
                                    .interval = std::chrono::minutes(10)});
  for (int i = 0; i < 5; ++i) start_span("s" + std::to_string(i)).end();
  EXPECT_EQ(exporter.dropped(), 3u);
  exporter.flush();
  auto spans = c.spans();
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0]["name"], "s0");
  EXPECT_EQ(spans[1]["name"], "s1");
}

TEST(exporter, batches_are_at_most_max_batch_and_a_failing_collector_counts_as_dropped) {
  collector ok;
  {
    auto exporter = install_exporter(
        {.endpoint = ok.url(), .max_batch = 2, .interval = std::chrono::minutes(10)});
    for (int i = 0; i < 5; ++i) start_span("s").end();
    exporter.flush();
    EXPECT_EQ(ok.spans().size(), 5u);
    for (const auto& r : ok.server.requests())
      EXPECT_LE(r.json_body()["resourceSpans"][0]["scopeSpans"][0]["spans"].size(), 2u);
  }
  collector failing(503);
  auto exporter = install_exporter({.endpoint = failing.url()});
  for (int i = 0; i < 3; ++i) start_span("lost").end();
  exporter.flush();
  EXPECT_EQ(exporter.dropped(), 3u);
}

TEST(exporter, destroying_the_handle_exports_what_is_queued) {
  collector c;
  {
    auto exporter = install_exporter({.endpoint = c.url(), .interval = std::chrono::minutes(10)});
    start_span("last words").end();
  }
  auto spans = c.spans();
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0]["name"], "last words");
}

// env_guard sets environment variables for one test and restores them.
struct env_guard {
  std::vector<std::pair<std::string, std::optional<std::string>>> saved;
  void set(const std::string& name, const char* value) {
    const char* old = std::getenv(name.c_str());
    saved.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
    if (value)
      ::setenv(name.c_str(), value, 1);
    else
      ::unsetenv(name.c_str());
  }
  ~env_guard() {
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
      if (it->second)
        ::setenv(it->first.c_str(), it->second->c_str(), 1);
      else
        ::unsetenv(it->first.c_str());
    }
  }
};

TEST(exporter, install_from_env_reads_the_otel_variables) {
  collector c;
  env_guard env;
  env.set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", nullptr);
  env.set("OTEL_EXPORTER_OTLP_ENDPOINT", c.server.url("/").c_str());
  env.set("OTEL_SERVICE_NAME", "from-env");
  env.set("OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=abc,broken,=skip,x-team=core=1");
  env.set("OTEL_SDK_DISABLED", nullptr);
  {
    auto exporter = install_from_env("default-name");
    ASSERT_TRUE(exporter);
    start_span("env span").end();
    exporter.flush();
  }
  ASSERT_EQ(c.server.requests().size(), 1u);
  const auto req = c.server.requests()[0];  // a copy: requests() returns a temporary
  EXPECT_EQ(req.target, "/v1/traces");      // base endpoint + /v1/traces, one slash
  EXPECT_EQ(req.header("x-api-key"), "abc");
  EXPECT_EQ(req.header("x-team"), "core=1");
  EXPECT_EQ(
      req.json_body()["resourceSpans"][0]["resource"]["attributes"][0]["value"]["stringValue"],
      "from-env");

  env.set("OTEL_SDK_DISABLED", "true");
  EXPECT_FALSE(install_from_env("x"));
  env.set("OTEL_SDK_DISABLED", nullptr);
  env.set("OTEL_EXPORTER_OTLP_ENDPOINT", nullptr);
  EXPECT_FALSE(install_from_env("x"));
  EXPECT_FALSE(enabled());
}

TEST(exporter, capture_content_is_a_switch) {
  bool before = capture_content();
  set_capture_content(true);
  EXPECT_TRUE(capture_content());
  set_capture_content(false);
  EXPECT_FALSE(capture_content());
  set_capture_content(before);
}

TEST(otlp_json, renders_spans_without_an_exporter) {
  span_data d{.context = {trace_id, span_id, true},
              .parent_span_id = "1111111111111111",
              .name = "n",
              .kind = span_kind::producer,
              .start_ns = 1,
              .end_ns = 2};
  json j = spans_to_otlp_json({d}, "svc");
  EXPECT_EQ(j["resourceSpans"][0]["scopeSpans"][0]["scope"]["name"], "tooluse");
  EXPECT_EQ(
      j["resourceSpans"][0]["scopeSpans"][0]["spans"][0],
      json::parse(R"({"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"00f067aa0ba902b7",
                "name":"n","kind":4,"startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[],
                "status":{"code":0},"parentSpanId":"1111111111111111"})"));
}

}  // namespace
}  // namespace tooluse::telemetry
