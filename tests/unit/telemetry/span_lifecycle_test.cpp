// Span lifecycle details: move-assignment ends the span it replaces, an explicit parent wins
// over the thread's current span, context_scope nests and restores, a second exporter replaces
// the first and outlives the first handle, attribute types in the OTLP encoding, and the
// OTEL_EXPORTER_OTLP_HEADERS parsing of odd items. Spans go to a real collector on loopback.
#include <gtest/gtest.h>
#include <stdlib.h>

#include "support/fake_llm_server.hpp"
#include "tooluse/telemetry/trace.hpp"

namespace tooluse::telemetry {
namespace {

namespace t = tooluse::testing;

struct collector {
  t::fake_llm_server server;
  collector() {
    server.set_responder([](const t::recorded_request&) { return t::scripted_response{.status = 200, .body = "{}"}; });
  }
  std::string url() const { return server.url("/v1/traces"); }
  std::vector<json> spans() const {
    std::vector<json> out;
    for (const auto& r : server.requests()) {
      json body = r.json_body();
      for (const auto& s : body["resourceSpans"][0]["scopeSpans"][0]["spans"]) out.push_back(s);
    }
    return out;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& s : spans()) out.push_back(s["name"]);
    return out;
  }
};

const span_context remote{"0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", true};

TEST(span_lifecycle, move_assignment_ends_the_replaced_span) {
  collector c;
  auto exporter = install_exporter({.endpoint = c.url()});
  {
    auto a = start_span("a");
    a = start_span("b");  // "a" ends here; "b" stays the current span
    exporter.flush();
    EXPECT_EQ(c.names(), (std::vector<std::string>{"a"}));
    EXPECT_EQ(current().span_id, a.context().span_id);
    start_span("child of b").end();
  }
  exporter.flush();
  EXPECT_EQ(c.names(), (std::vector<std::string>{"a", "child of b", "b"}));
  auto spans = c.spans();
  EXPECT_EQ(spans[1]["parentSpanId"], spans[2]["spanId"]);
  // Every span restored the context it found: nothing is current after the block (the
  // replaced span's ended context once stayed current here).
  EXPECT_FALSE(current().valid());
}

TEST(span_lifecycle, an_explicit_parent_wins_over_the_current_span) {
  collector c;
  auto exporter = install_exporter({.endpoint = c.url()});
  {
    auto outer = start_span("outer");
    auto child = start_span("child", span_kind::client, remote);
    EXPECT_EQ(child.context().trace_id, remote.trace_id);
    EXPECT_EQ(current().span_id, child.context().span_id);
    child.end();
    EXPECT_EQ(current().span_id, outer.context().span_id);
  }
  exporter.flush();
  auto spans = c.spans();
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0]["name"], "child");
  EXPECT_EQ(spans[0]["parentSpanId"], remote.span_id);
  EXPECT_EQ(spans[0]["kind"], 3);
  EXPECT_NE(spans[1]["traceId"], remote.trace_id);  // the outer span began its own trace
  EXPECT_FALSE(spans[1].contains("parentSpanId"));
}

TEST(span_lifecycle, an_invalid_explicit_parent_starts_a_new_trace) {
  collector c;
  auto exporter = install_exporter({.endpoint = c.url()});
  start_span("orphan", span_kind::server, span_context{"short", "id", true}).end();
  exporter.flush();
  auto spans = c.spans();
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0]["traceId"].get<std::string>().size(), 32u);
  EXPECT_FALSE(spans[0].contains("parentSpanId"));
}

TEST(span_lifecycle, context_scopes_nest_and_restore) {
  EXPECT_FALSE(current().valid());
  {
    context_scope outer(remote);
    EXPECT_EQ(current().span_id, remote.span_id);
    {
      span_context other{remote.trace_id, "1111111111111111", false};
      context_scope inner(other);
      EXPECT_EQ(current().span_id, "1111111111111111");
      EXPECT_FALSE(current().sampled);
    }
    EXPECT_EQ(current().span_id, remote.span_id);
  }
  EXPECT_FALSE(current().valid());
}

TEST(span_lifecycle, a_second_exporter_replaces_the_first) {
  collector first, second;
  auto a = install_exporter({.endpoint = first.url()});
  auto b = install_exporter({.endpoint = second.url()});
  start_span("to b").end();
  { auto gone = std::move(a); }  // destroying the replaced handle leaves b installed
  EXPECT_TRUE(enabled());
  start_span("still b").end();
  b.flush();
  EXPECT_EQ(second.names(), (std::vector<std::string>{"to b", "still b"}));
  EXPECT_TRUE(first.spans().empty());
  EXPECT_EQ(b.dropped(), 0u);
}

TEST(span_lifecycle, an_empty_handle_does_nothing) {
  exporter_handle none;
  EXPECT_FALSE(none);
  none.flush();
  EXPECT_EQ(none.dropped(), 0u);
}

TEST(span_lifecycle, every_attribute_type_is_encoded) {
  span_data d{.context = remote, .name = "attrs"};
  d.attributes = {{"s", std::string("v")}, {"i", std::int64_t{-7}}, {"d", 2.5}, {"b", false}};
  d.error = true;
  d.status_message = "why";
  json j = spans_to_otlp_json({d}, "svc");
  const json& s = j["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
  EXPECT_EQ(s["attributes"], json::parse(R"([{"key":"s","value":{"stringValue":"v"}},
      {"key":"i","value":{"intValue":"-7"}},{"key":"d","value":{"doubleValue":2.5}},
      {"key":"b","value":{"boolValue":false}}])"));
  EXPECT_EQ(s["status"], json::parse(R"({"code":2,"message":"why"})"));
  EXPECT_EQ(s["kind"], 1);
  const json& resource = j["resourceSpans"][0]["resource"]["attributes"];
  EXPECT_EQ(resource[0]["value"]["stringValue"], "svc");
  EXPECT_EQ(resource[1]["value"]["stringValue"], "tooluse");
  EXPECT_TRUE(spans_to_otlp_json({}, "x")["resourceSpans"][0]["scopeSpans"][0]["spans"].empty());
}

// env is a scoped environment variable.
struct env {
  std::string name;
  std::optional<std::string> old;
  env(std::string n, const char* value) : name(std::move(n)) {
    if (const char* o = std::getenv(name.c_str())) old = o;
    if (value) ::setenv(name.c_str(), value, 1);
    else ::unsetenv(name.c_str());
  }
  ~env() {
    if (old) ::setenv(name.c_str(), old->c_str(), 1);
    else ::unsetenv(name.c_str());
  }
};

TEST(span_lifecycle, env_headers_skip_items_without_a_name) {
  collector c;
  env e1("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", c.url().c_str());
  env e2("OTEL_EXPORTER_OTLP_HEADERS", "=nameless,novalue,x-a=1,x-b=k=v,");
  env e3("OTEL_SDK_DISABLED", nullptr);
  env e4("OTEL_SERVICE_NAME", nullptr);
  {
    auto h = install_from_env("svc-default");
    ASSERT_TRUE(h);
    start_span("with headers").end();
    h.flush();
  }
  auto requests = c.server.requests();  // a copy: requests() returns by value
  ASSERT_EQ(requests.size(), 1u);
  const auto& r = requests[0];
  EXPECT_EQ(r.header("x-a"), "1");
  EXPECT_EQ(r.header("x-b"), "k=v");  // only the first '=' separates
  EXPECT_EQ(r.header("novalue"), "");
  json body = r.json_body();
  EXPECT_EQ(body["resourceSpans"][0]["resource"]["attributes"][0]["value"]["stringValue"], "svc-default");
}

TEST(span_lifecycle, sdk_disabled_wins_over_an_endpoint) {
  env e1("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1");
  env e2("OTEL_SDK_DISABLED", "true");
  auto h = install_from_env("svc");
  EXPECT_FALSE(h);
  EXPECT_FALSE(enabled());
}

TEST(span_lifecycle, sampling_follows_the_parent) {
  collector c;
  auto exporter = install_exporter({.endpoint = c.url()});
  const span_context unsampled{remote.trace_id, remote.span_id, false};
  {
    auto dropped = start_span("under an unsampled parent", span_kind::server, unsampled);
    EXPECT_FALSE(dropped.recording());
    // The trace and the flag still propagate to whatever this span calls.
    EXPECT_EQ(dropped.context().trace_id, remote.trace_id);
    EXPECT_EQ(format_traceparent(current()).substr(52), "-00");
    auto grandchild = start_span("its child");
    EXPECT_FALSE(grandchild.recording());
    EXPECT_EQ(grandchild.context().trace_id, remote.trace_id);
  }
  start_span("under a sampled parent", span_kind::server, remote).end();
  start_span("a new trace").end();
  exporter.flush();
  EXPECT_EQ(c.names(), (std::vector<std::string>{"under a sampled parent", "a new trace"}));
  for (const auto& s : c.spans()) EXPECT_NE(s["spanId"], remote.span_id);
}

}  // namespace
}  // namespace tooluse::telemetry
